"""mxnet backend: array API fft functions beyond the first set (issue 5)."""

__all__: list[str] = []
