"""``minigrad.utils``: data loading (``utils.data``) and the module backward hooks (``utils.hooks``)."""
from . import data, hooks  # noqa: E402,F401
