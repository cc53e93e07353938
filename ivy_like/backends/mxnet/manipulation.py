"""mxnet backend: array API manipulation functions beyond the first set (issue 5)."""

__all__: list[str] = []
