"""``minigrad.utils``: data loading (``utils.data``) and the module backward hooks (``utils.hooks``)."""
