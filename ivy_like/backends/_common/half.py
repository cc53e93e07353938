"""Half precision (float16, bfloat16) computed in float32: one decorator for every backend.

The frameworks disagree on half-precision input: most refuse it in linear algebra, and those
that accept it accumulate differently (NumPy's ``var`` and TensorFlow's and MLX's ``mean`` in
float16, overflowing past 65504; torch and JAX in float32). ivy_like decides once: these
functions compute in float32 and return the input's dtype. Each backend builds its decorator
from its own dtype objects with :func:`half_in_float32` and applies it.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

# eps of the half-precision dtypes, for the default rtol of pinv/matrix_rank on such input
HALF_EPS = {"float16": 2.0**-10, "bfloat16": 2.0**-7}


def _astype(x: Any, dtype: Any) -> Any:
    return x.astype(dtype)


def half_in_float32(
    half: Mapping[str, Any], float32: Any, cast: Callable[[Any, Any], Any] = _astype
) -> Callable[..., Any]:
    """A decorator for one backend's functions: half precision computed in float32.

    ``half`` maps "float16"/"bfloat16" to the backend's dtype objects (those it has),
    ``float32`` is the backend's float32, ``cast(x, dtype)`` converts an array (by default
    ``x.astype(dtype)``). Decorated functions look at their first array (both arrays with
    ``pair=True``, where a half operand beside another dtype is widened and the result is what
    promotion gives); other input passes through untouched, at the cost of one dict lookup.
    ``restore=False`` leaves the result as computed (integer counts); ``default_rtol=True``
    fills in the standard's ``rtol`` from the half dtype's own eps. ``dtype_arg=True`` is for
    functions with a ``dtype=`` keyword (``cumulative_sum``): a half ``dtype`` is computed
    as float32 and cast to it; any other ``dtype`` leaves the call as it is.
    """
    eps_of = {dtype: HALF_EPS[name] for name, dtype in half.items()}
    for name, dtype in half.items():  # MXNet's dtypes are NumPy scalar types: their dtype too
        if isinstance(dtype, type) and issubclass(dtype, np.generic):
            eps_of[np.dtype(dtype)] = HALF_EPS[name]

    def restored(out: Any, dtype: Any) -> Any:
        if isinstance(out, tuple):  # the named-tuple results
            return type(out)(*(cast(part, dtype) for part in out))
        return cast(out, dtype)

    def decorate(
        fn: Callable[..., Any] | None = None,
        *,
        pair: bool = False,
        restore: bool = True,
        default_rtol: bool = False,
        dtype_arg: bool = False,
    ) -> Any:
        if fn is None:
            return functools.partial(
                decorate,
                pair=pair,
                restore=restore,
                default_rtol=default_rtol,
                dtype_arg=dtype_arg,
            )
        if pair:

            @functools.wraps(fn)
            def two(x1: Any, x2: Any, /, *args: Any, **kwargs: Any) -> Any:
                dtype1, dtype2 = getattr(x1, "dtype", None), getattr(x2, "dtype", None)
                half1, half2 = dtype1 in eps_of, dtype2 in eps_of
                if not (half1 or half2):
                    return fn(x1, x2, *args, **kwargs)
                # Each half operand in float32: the pair then promotes to what the half dtype
                # with the other would (float16 with float64 is float64; with bfloat16, float32).
                out = fn(
                    cast(x1, float32) if half1 else x1,
                    cast(x2, float32) if half2 else x2,
                    *args,
                    **kwargs,
                )
                return restored(out, dtype1) if dtype1 == dtype2 else out

            return two

        @functools.wraps(fn)
        def one(x: Any, /, *args: Any, **kwargs: Any) -> Any:
            if dtype_arg and kwargs.get("dtype") is not None:
                wanted = kwargs["dtype"]
                if wanted not in eps_of:
                    return fn(x, *args, **kwargs)
                return cast(fn(x, *args, **{**kwargs, "dtype": float32}), wanted)
            dtype = getattr(x, "dtype", None)
            eps = eps_of.get(dtype)
            if eps is None:
                return fn(x, *args, **kwargs)
            if default_rtol and kwargs.get("rtol") is None:
                kwargs["rtol"] = max(x.shape[-2:], default=0) * eps
            out = fn(cast(x, float32), *args, **kwargs)
            return restored(out, dtype) if restore else out

        return one

    return decorate
