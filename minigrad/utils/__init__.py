"""``minigrad.utils``: data loading (``utils.data``), the module backward hooks (``utils.hooks``) and gradient
checkpointing (``utils.checkpoint``)."""
# (checkpoint and data are built on nn and the ops, while nn.Module uses utils.hooks: minigrad/__init__.py
# imports all three, so that this package's __init__ pulls nothing above the layer of whoever imports hooks)
