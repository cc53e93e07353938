"""Op declarations: each op once, with its public signature, docstring and array parameters,
and beside it the argument rules it declares (``@op(check=...)``), which run before any kernel.

Importing this package fills :data:`ivy_like.core.registry.OPS`; ``ivy_like/core/build.py`` generates
the public functions and methods from it.
"""

from . import (  # noqa: F401
    creation,
    elementwise,
    fft,
    general,
    indexing,
    linalg,
    manipulation,
    math,
    nn,
    searching,
    set_functions,
    sorting,
    statistical,
    utility,
)
