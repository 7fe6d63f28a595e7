"""The layers of ``torch.nn`` that minigrad leaves out, so that asking for one says so.

minigrad has the layers of the programs it follows: ``Linear``, the activations and losses, and the
layers learners meet next (embeddings, layer, RMS and batch normalisation, attention, 1-d and 2-d
convolutions and pools, recurrent layers).  The layers listed here are built from the same autograd
too, but each needs far more code than the idea it would add; PyTorch has them.
The error is an ``AttributeError`` (so ``hasattr(nn, "Conv3d")`` is False) that names the reason.
"""

LAYERS = {
    "convolution": ("Conv3d", "ConvTranspose1d", "ConvTranspose2d", "ConvTranspose3d",
                    "LazyConv1d", "LazyConv2d", "LazyConv3d"),
    "pooling": ("MaxPool3d", "AvgPool3d", "AdaptiveAvgPool3d", "AdaptiveMaxPool3d", "MaxUnpool1d", "MaxUnpool2d",
                "FractionalMaxPool2d", "LPPool1d", "LPPool2d"),
    "normalisation": ("LazyBatchNorm1d", "GroupNorm", "InstanceNorm1d", "InstanceNorm2d", "InstanceNorm3d",
                      "LocalResponseNorm", "SyncBatchNorm"),
    "embedding": ("EmbeddingBag",),
    "attention": ("Transformer", "TransformerEncoder", "TransformerDecoder", "TransformerDecoderLayer"),
    "image": ("Upsample", "UpsamplingNearest2d", "UpsamplingBilinear2d", "PixelShuffle", "Dropout1d", "Dropout2d",
              "Dropout3d", "ZeroPad1d", "ZeroPad2d", "ConstantPad1d", "ConstantPad2d", "ReflectionPad1d",
              "ReflectionPad2d", "ReplicationPad1d", "ReplicationPad2d", "CircularPad2d", "ChannelShuffle"),
    "linear": ("Bilinear",),
    "loss": ("CTCLoss", "MultiLabelMarginLoss", "TripletMarginWithDistanceLoss", "AdaptiveLogSoftmaxWithLoss"),
    "dropout": ("AlphaDropout", "FeatureAlphaDropout"),
}
FUNCTIONS = {
    "convolution": ("conv3d", "conv_transpose1d", "conv_transpose2d", "conv_transpose3d"),
    "pooling": ("max_pool3d", "avg_pool3d", "max_unpool1d", "max_unpool2d", "lp_pool1d", "lp_pool2d"),
    "normalisation": ("group_norm", "instance_norm", "local_response_norm"),
    "embedding": ("embedding_bag",),
    "image": ("interpolate", "upsample", "grid_sample", "affine_grid", "pixel_shuffle", "dropout1d",
              "dropout2d", "dropout3d", "channel_shuffle"),
    "linear": ("bilinear",),
    "loss": ("ctc_loss", "multilabel_margin_loss", "triplet_margin_with_distance_loss"),
    "dropout": ("alpha_dropout", "feature_alpha_dropout"),
    "distance": ("pdist",),
    "sampling": ("gumbel_softmax",),
}


# the functions above that PyTorch also has at its top level (torch.conv3d, torch.group_norm, ...)
TOP_LEVEL = ("conv3d", "conv_transpose1d", "conv_transpose2d", "conv_transpose3d", "max_pool3d", "group_norm",
             "instance_norm", "embedding_bag", "pixel_shuffle", "channel_shuffle", "bilinear", "ctc_loss",
             "alpha_dropout", "feature_alpha_dropout", "pdist")


def missing(module, name, table):
    """The error for ``module.name`` (``module``: "minigrad.nn", "minigrad.nn.functional" or "minigrad"): what
    PyTorch would give, and why minigrad has no such thing."""
    for kind, names in table.items():
        if name in names:
            return AttributeError(f"{module} has no {name}: minigrad leaves out some {kind} layers, this one among "
                                  f"them; PyTorch has torch{module[len('minigrad'):]}.{name}")
    return AttributeError(f"module '{module}' has no attribute '{name}'")
