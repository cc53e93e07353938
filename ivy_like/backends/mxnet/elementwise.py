"""mxnet backend: array API elementwise functions beyond the first set (issue 5)."""

__all__: list[str] = []
