"""The layers of ``torch.nn`` that minigrad leaves out, so that asking for one says so.

minigrad teaches autograd on fully connected networks: ``Linear``, the activations, the losses, and
the layers the language-model lectures use after them (``Embedding``, ``LayerNorm``, ``RMSNorm``,
``BatchNorm1d/2d/3d``).  Convolutions, pooling, the other normalisations, recurrent layers and
attention are built from the same autograd, but each needs far more code than the idea it would
add; PyTorch has them.
The error is an ``AttributeError`` (so ``hasattr(nn, "Conv2d")`` is False) that names the reason.
"""

LAYERS = {
    "convolution": ("Conv1d", "Conv2d", "Conv3d", "ConvTranspose1d", "ConvTranspose2d", "ConvTranspose3d",
                    "LazyConv1d", "LazyConv2d", "LazyConv3d", "Unfold", "Fold"),
    "pooling": ("MaxPool1d", "MaxPool2d", "MaxPool3d", "AvgPool1d", "AvgPool2d", "AvgPool3d", "AdaptiveAvgPool1d",
                "AdaptiveAvgPool2d", "AdaptiveAvgPool3d", "AdaptiveMaxPool1d", "AdaptiveMaxPool2d", "AdaptiveMaxPool3d"),
    "normalisation": ("LazyBatchNorm1d", "GroupNorm",
                      "InstanceNorm1d", "InstanceNorm2d", "InstanceNorm3d", "LocalResponseNorm"),
    "embedding": ("EmbeddingBag",),
    "recurrent": ("RNN", "LSTM", "GRU", "RNNCell", "LSTMCell", "GRUCell"),
    "attention": ("Transformer", "TransformerEncoder", "TransformerDecoder", "TransformerDecoderLayer"),
    "image": ("Upsample", "UpsamplingNearest2d", "UpsamplingBilinear2d", "PixelShuffle", "Dropout1d", "Dropout2d",
              "Dropout3d", "ZeroPad2d", "ConstantPad2d", "ReflectionPad2d", "ReplicationPad2d"),
}
FUNCTIONS = {
    "convolution": ("conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d", "conv_transpose3d",
                    "unfold", "fold"),
    "pooling": ("max_pool1d", "max_pool2d", "max_pool3d", "avg_pool1d", "avg_pool2d", "avg_pool3d",
                "adaptive_avg_pool1d", "adaptive_avg_pool2d", "adaptive_max_pool2d"),
    "normalisation": ("group_norm", "instance_norm", "local_response_norm"),
    "embedding": ("embedding_bag",),
    "image": ("interpolate", "upsample", "grid_sample", "affine_grid", "pixel_shuffle", "dropout1d",
              "dropout2d", "dropout3d"),
}


def missing(module, name, table):
    """The error for ``module.name``: what PyTorch would give, and why minigrad has no such thing."""
    for kind, names in table.items():
        if name in names:
            return AttributeError(f"{module} has no {name}: minigrad teaches autograd on fully connected networks "
                                  f"and leaves out {kind} layers; PyTorch has torch.{module[9:]}.{name}")
    return AttributeError(f"module '{module}' has no attribute '{name}'")
