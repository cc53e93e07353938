"""Weights between frameworks: moving arrays, checking a Container against a model's, loading.

Every converter loads and reads weights through these: :func:`move` takes an array of any
framework to a backend (DLPack where it works, else an exact NumPy copy), :func:`load_params`
checks given weights against a model's key chains and shapes, and :func:`to_numpy_exact`
reads one back as NumPy for the frameworks that take NumPy arrays.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from ..container import Container
from ..container._leaves import (
    exact_numpy,
    from_exact_numpy,
    leaf_dtype,
    leaf_info,
    leaf_shape,
    leaf_to_backend,
)
from ..core.array import _wrap
from ..core.backend import Backend, current_backend, get_backend, kind_of


def target_backend(backend: Any, model: Any = None) -> Backend:
    """``backend`` when given, else the backend of ``model``'s parameters, else the active one."""
    if backend is not None:
        return get_backend(backend)
    params = getattr(model, "params", None)
    if isinstance(params, Container) and params:
        for leaf in params.cont_flatten_key_chains().values():
            info = leaf_info(leaf)
            if info is not None:
                return info[0]
    return current_backend()


def move(x: Any, target: Backend, kc: str) -> Any:
    """``x`` on ``target``: DLPack where it works (no copy on CPU), else an exact copy.

    The Container's ``leaf_to_backend`` does the work; an import it lets through (TensorFlow
    rejects non-contiguous DLPack strides with its own error type) falls back to the same exact
    NumPy copy. A dtype the target lacks stays a ``TypeError``.
    """
    try:
        return leaf_to_backend(x, target, kc)
    except TypeError:
        raise
    except Exception:
        info = leaf_info(x)
        if info is None:
            raise
        arr, dtype = exact_numpy(info[0], info[1])
        y = from_exact_numpy(arr, dtype, target)
        return _wrap(y, target) if info[2] else y


# -- checking and loading weights ------------------------------------------------------------------
def _flat(tree: Any) -> dict[str, Any]:
    if isinstance(tree, Container):
        return dict(tree.cont_flatten_key_chains())
    return dict(tree)


def check_structure(expected: Any, given: Any, where: str) -> None:
    """Raise ``ValueError`` naming the key chains when ``given`` lacks, adds or reshapes any."""
    want, have = _flat(expected), _flat(given)
    missing = [kc for kc in want if kc not in have]
    extra = [kc for kc in have if kc not in want]
    if missing:
        raise ValueError(f"{where}: missing weights for key chain(s) {', '.join(missing)}")
    if extra:
        raise ValueError(
            f"{where}: unexpected weights at key chain(s) {', '.join(extra)} (expected only "
            f"{', '.join(want)})"
        )
    for kc, leaf in want.items():
        shape = leaf_shape(have[kc], kc)
        if shape is None:
            raise TypeError(f"{where}: weight {kc!r} is a {type(have[kc]).__name__}, not an array")
        if shape != leaf_shape(leaf, kc):
            raise ValueError(
                f"{where}: weight {kc!r} has shape {shape}, expected {leaf_shape(leaf, kc)}"
            )


def load_params(expected: Container, given: Mapping[str, Any], backend: Backend, where: str) -> Any:
    """``given`` (key chain -> array of any framework) checked against ``expected`` and moved to
    ``backend``, each leaf an ``ivy_like.Array`` or native array as the ``expected`` leaf is.
    Dtypes are the given weights' own (a float64 model stays float64)."""
    check_structure(expected, given, where)
    flat = {}
    for kc, leaf in _flat(expected).items():
        value = move(given[kc], backend, kc)
        info = leaf_info(value)
        native = info[1] if info is not None else value
        flat[kc] = _wrap(native, backend) if kind_of(type(leaf)) == "array" else native
    out = Container.cont_unflatten(flat)
    # Keep empty entries the model has (parameter-free layers with a key, if any).
    for kc in expected:
        if kc not in out:
            out[kc] = expected[kc]
    return out


def to_numpy_exact(x: Any, kc: str) -> Any:
    """A NumPy array with ``x``'s values and dtype (no copy where NumPy can share the buffer)."""
    info = leaf_info(x)
    if info is None:
        raise TypeError(f"weight {kc!r} is a {type(x).__name__}, not an array")
    dtype = leaf_dtype(x, kc)  # not None: x is an array (info above)
    if dtype is not None and dtype.name == "bfloat16":
        raise TypeError(f"weight {kc!r} is bfloat16, which this framework cannot take")
    return np.asarray(move(info[1], get_backend("numpy"), kc))
