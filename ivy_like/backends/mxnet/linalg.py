"""mxnet backend: array API linalg functions beyond the first set (issue 5)."""

__all__: list[str] = []
