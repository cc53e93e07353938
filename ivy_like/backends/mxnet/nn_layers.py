"""mxnet backend: the ivy_like.nn ops of ``ivy_like/ops/nn_layers.py`` (issue 22).

Every op there (adaptive pooling, the hard activations, the LSTM and GRU cells, group
normalization, the transposed convolution, interpolate) runs as its composite
declaration, written with ivy_like ops: no mxnet kernel computes them faster at the sizes the
converted models use, and the composites give PyTorch's gradients at the corners.
"""
