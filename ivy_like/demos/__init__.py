"""The demos of ``python -m ivy_like``: ``main.py`` trains an MLP on the digits data set on every
backend and converts it between frameworks (``python -m ivy_like demo``, and the seed pages'
examples of ``python -m ivy_like seeds``); ``convert.py`` converts a transformers ResNet from
PyTorch, runs it on every backend, fine-tunes it on JAX and sends it back (``python -m ivy_like
demo convert``). Nothing in the package imports them.
"""
