"""NumPy's answer, for the rare inputs a framework crashes on or answers wrongly.

MLX's ``inv`` of a 0x0 matrix dies of SIGFPE, torch's ``conv1d`` of an input with no channels
returns the wrong shape, TensorFlow's of an empty batch too. Those inputs hold no element (or
next to none), so a kernel that meets one hands the call to ivy_like's NumPy backend, whose
answers the tests hold every backend to, and returns the result as its own arrays: copying
nothing of size. Kernels test for such an input first, at the cost of a ``size`` read.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...core.backend import get_backend


def numpy_answer(
    backend_name: str, kernel: str, *args: Any, values: bool = True, **kwargs: Any
) -> Any:
    """The NumPy backend's ``kernel`` (``"linalg_inv"``) on the arguments of backend
    ``backend_name``'s kernel of that name, as that backend's arrays (a tuple result, a named
    one included, entry by entry). ``values=False`` gives NumPy zeros of each array's shape
    and dtype instead of its values (bfloat16 as float32, results cast back): no value is
    read, so it works on arrays a compiler or ``grad`` traces, for an answer that depends on
    the shapes alone."""
    backend, numpy = get_backend(backend_name), get_backend("numpy")
    types: Any = backend.array_types  # Any: an array of them is read as one (dtype, shape)
    wanted: Any = None  # the input dtype a float32 result goes back to (bfloat16)

    def host(a: Any) -> Any:
        nonlocal wanted
        if not isinstance(a, types):
            return a
        if values:
            return backend.to_numpy(a)
        name = backend.unified_dtype(a.dtype).name
        if name == "bfloat16":
            name, wanted = "float32", a.dtype
        return np.zeros(tuple(a.shape), name)

    out = getattr(numpy, kernel)(*map(host, args), **{k: host(v) for k, v in kwargs.items()})

    def native(part: Any) -> Any:
        result = backend.asarray(np.asarray(part))
        if wanted is not None and part.dtype == np.float32:
            result = backend.astype(result, wanted, copy=False, device=None)
        return result

    return type(out)(*map(native, out)) if isinstance(out, tuple) else native(out)
