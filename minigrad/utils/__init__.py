"""``minigrad.utils``: data loading (``utils.data``), the module backward hooks (``utils.hooks``) and gradient
checkpointing (``utils.checkpoint``)."""
from . import checkpoint, data, hooks  # noqa: E402,F401
