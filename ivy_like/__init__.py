"""ivy_like: write array and gradient code once, run it on NumPy, JAX, PyTorch, TensorFlow, MLX.

Every op exists as a function (``ivy_like.add(x, y)``), an ``Array`` method (``x.add(y)``) and a
``Container`` method (``c.add(y, key_chains=...)``), all generated from one declaration in
``ivy_like/ops/``. The backend is taken from the arguments at call time; NumPy arrays and Python
scalars follow the active backend (``set_backend`` / ``use_backend`` / ``$IVY_LIKE_BACKEND``).

Importing ivy_like imports no framework but NumPy.
"""

from __future__ import annotations

import sys as _sys

from . import (
    _api_versions,
    container,
    ops,  # noqa: F401  (ops fills the registry)
)
from ._api_versions import broadcast_shapes, set_array_api_version
from ._data_type_functions import can_cast, finfo, iinfo, isdtype, result_type
from ._entry import array, is_variable, to_native, to_numpy
from ._info import __array_namespace_info__
from .container import Container, ContainerStructureError
from .core import dtypes as _dtypes
from .core.array import Array
from .core.array import bind_namespace as _bind_namespace
from .core.backend import (
    Backend,
    BackendError,
    available_backends,
    backend_of,
    current_backend,
    get_backend,
    registered_backends,
    set_backend,
    unset_backend,
    use_backend,
)
from .core.build import build_all
from .core.dtypes import (
    Dtype,
    all_dtypes,
    as_dtype,
    bfloat16,
    bool,
    complex64,
    complex128,
    default_dtype,
    float16,
    float32,
    float64,
    int8,
    int16,
    int32,
    int64,
    set_default_dtype,
    uint8,
    uint16,
    uint32,
    uint64,
    use_default_dtype,
)

__version__ = "0.1.0"
# The revision of the Python array API standard this namespace follows (earlier ones can be
# chosen: ivy_like/_api_versions.py).
__array_api_version__ = "2025.12"

build_all(globals(), container_map=container.container_map)
container.install()
# Array.__array_namespace__ and to_device; then the revision $IVY_LIKE_ARRAY_API_VERSION names
_bind_namespace(_sys.modules[__name__], _api_versions.namespace_for)
_api_versions.bind(_sys.modules[__name__])

# Public submodules ``import ivy_like`` provides: the training examples use ivy_like.optimizers
# and ivy_like.random without importing them.
from . import optimizers, random  # noqa: E402

# ``ivy_like.export``: native artifacts (torch.export, SavedModel, TFLite, jax.export, MLX)
from .convert.export import export  # noqa: E402
from .transforms import (  # noqa: E402
    NoAutodiffError,
    checkpoint,
    compile,
    cond,
    control_flow,
    custom_function,
    execute_with_gradients,
    fori_loop,
    grad,
    hessian,
    jac,
    jvp,
    scan,
    value_and_grad,
    vjp,
    vmap,
    while_loop,
)

# The control-flow functions lived in ``ivy_like/control_flow.py`` before the transforms became
# one package: ``import ivy_like.control_flow`` and ``from ivy_like.control_flow import cond``
# keep working, naming the module where they are now.
_sys.modules.setdefault(f"{__name__}.control_flow", control_flow)

e = 2.718281828459045
pi = 3.141592653589793
inf = float("inf")
nan = float("nan")
newaxis = None
