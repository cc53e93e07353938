"""mxnet backend: array API statistical functions beyond the first set (issue 5)."""

__all__: list[str] = []
