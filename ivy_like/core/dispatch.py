"""The general call path, taken whenever the generated fast path does not apply.

Steps, in order: hand Containers to the container package (it maps the op over leaves and
calls the function variant on each); resolve one backend from the array arguments (mixed
frameworks are a ``TypeError``); unwrap ``Array`` and convert neutral inputs (NumPy arrays,
lists, and scalars when nothing else fixes the backend); call the backend function (or the
composite declaration); rewrap when an ``Array`` came in; write ``out=`` last, after every check
(:func:`check_out`, the one ``out=`` check: the container package runs it on every leaf of an
``out=`` Container before writing any).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any

import numpy as np

from . import backend as _backend
from .array import _wrap as wrap
from .backend import ARRAY_KIND, CONTAINER_KIND, NEUTRAL, OTHER, Backend, kind_of
from .registry import OpSpec

_KIND = _backend._KIND


def _classify(value: Any) -> Any:
    tp = type(value)
    kind = _KIND.get(tp)
    return kind if kind is not None else kind_of(tp)


def _type_error(spec: OpSpec, name: str, value: Any) -> TypeError:
    return TypeError(
        f"{spec.name}: argument {name!r} must be an array (native, ivy_like.Array or NumPy), "
        f"a Python scalar or a Container, got {type(value).__name__}"
    )


def _mixed_error(spec: OpSpec, a: Backend, b: Backend) -> TypeError:
    return TypeError(
        f"{spec.name}: arrays of two different frameworks in one call ({a.name} and {b.name}); "
        f"convert one of them first (e.g. with Container.cont_to_backend or "
        f"ivy_like.asarray under use_backend)"
    )


def _visit(spec: OpSpec, name: str, v: Any, state: list[Any]) -> None:
    """Fold one array argument into state = [backend, saw_array, saw_native, saw_container]."""
    kind = _KIND.get(type(v))
    if kind is None:
        kind = kind_of(type(v))
    if kind.__class__ is Backend:
        backend = kind
        state[2] = True
    elif kind is ARRAY_KIND:
        backend = v._backend
        state[1] = True
    elif kind is CONTAINER_KIND:
        state[3] = True
        return
    elif kind is NEUTRAL or v is None:
        return
    elif kind is OTHER and isinstance(v, (list, tuple)):
        for item in v:
            _visit(spec, name, item, state)
        return
    else:
        raise _type_error(spec, name, v)
    found = state[0]
    if found is None:
        state[0] = backend
    elif backend is not found:
        raise _mixed_error(spec, found, backend)


def resolve(spec: OpSpec, values: tuple[Any, ...]) -> tuple[Backend, bool, bool, bool]:
    """Return (backend, saw_Array, saw_native, saw_container) for the array arguments."""
    state: list[Any] = [None, False, False, False]
    params = spec.params
    for i in spec.array_index:
        _visit(spec, params[i].name, values[i], state)
    for i in spec.sequence_index:
        seq = values[i]
        if _classify(seq) is CONTAINER_KIND:
            state[3] = True
            continue
        if not isinstance(seq, (list, tuple)):
            raise TypeError(
                f"{spec.name}: argument {params[i].name!r} must be a sequence of arrays, "
                f"got {type(seq).__name__}"
            )
        for item in seq:
            _visit(spec, params[i].name, item, state)
    if spec.out_index >= 0 and values[spec.out_index] is not None:
        if _classify(values[spec.out_index]) is CONTAINER_KIND:
            state[3] = True
    backend = state[0] if state[0] is not None else _backend.current_backend()
    return backend, state[1], state[2], state[3]


_SCALARS = (bool, int, float, complex)


def _to_native(backend: Backend, v: Any, fixed: bool) -> Any:
    kind = _KIND.get(type(v)) or _classify(v)
    if kind is ARRAY_KIND:
        return v._data
    if kind.__class__ is Backend or v is None:
        return v
    if isinstance(v, _SCALARS):
        # Beside an array a Python scalar stays weak (the backend promotes it like the array
        # API says); alone it becomes an array of the backend.
        return v if fixed else backend.asarray(v)
    if kind is NEUTRAL and backend.name == "numpy":
        return v
    return backend.asarray(v)


_PLAIN, _ARRAY, _SEQUENCE, _DTYPE, _OUT, _DEVICE = range(6)


def _has_neutral_array(spec: OpSpec, values: tuple[Any, ...]) -> bool:
    """Whether an array argument is array data that is not a Python scalar (a NumPy array, a
    list): it becomes an array of the backend, so a Python scalar beside it stays weak
    (``2 + float32 NumPy array`` is float32, as with any other array)."""
    for i in spec.array_index:
        v = values[i]
        if v is not None and not isinstance(v, _SCALARS):
            # NumPy 1 promotes a Python scalar with a 0-d array by value (a float32 0-d array
            # times 0.5 is float64): there the scalar is converted first, as it always was.
            if _NUMPY_1 and getattr(v, "ndim", 1) == 0:
                continue
            return True
    return False


_NUMPY_1 = int(np.__version__.split(".")[0]) < 2


def _plan(spec: OpSpec) -> tuple[tuple[int, int, int, str], ...]:
    """Per parameter: (index, role, 0 positional / 1 varargs / 2 keyword, name); cached."""
    plan = spec.extras.get("plan")
    if plan is None:
        items = []
        for i, p in enumerate(spec.params):
            if i == spec.out_index:
                role = _OUT
            elif i in spec.array_index:
                role = _ARRAY
            elif i in spec.sequence_index:
                role = _SEQUENCE
            elif i in spec.dtype_index:
                role = _DTYPE
            elif p.name == "device":
                role = _DEVICE
            else:
                role = _PLAIN
            how = 1 if p.kind is p.VAR_POSITIONAL else 2 if p.kind is p.KEYWORD_ONLY else 0
            items.append((i, role, how, p.name))
        plan = spec.extras["plan"] = tuple(items)
    return plan


def make_general(container_map: Callable[[OpSpec, tuple[Any, ...]], Any]) -> Callable[..., Any]:
    """The general path, with ``container_map(spec, values)`` as what it does when a Container
    is among the arguments (the container package maps the op over its leaves; the core
    knows nothing of Containers but their kind)."""

    def general(spec: OpSpec, values: tuple[Any, ...]) -> Any:
        backend, saw_array, saw_native, saw_container = resolve(spec, values)
        if saw_container:
            return container_map(spec, values)
        fixed = saw_array or saw_native or _has_neutral_array(spec, values)
        args: list[Any] = []
        kwargs: dict[str, Any] = {}
        out = None
        for i, role, how, name in _plan(spec):
            v = values[i]
            if role == _ARRAY:
                v = _to_native(backend, v, fixed)
            elif role == _OUT:
                out = v
                continue
            elif role == _SEQUENCE:
                v = [_to_native(backend, item, fixed) for item in v]
            elif role == _DTYPE and v is not None:
                v = backend.native_dtype(v)
            elif role == _DEVICE and v is not None:
                v = backend.native_device(v)
            if how == 0:
                args.append(v)
            elif how == 2:
                kwargs[name] = v
            else:
                args.extend(v)
        # Every op is an attribute of every Backend (Backend.complete): the module's function, a
        # composite run with this backend active, or one raising NotImplementedError.
        try:
            result = backend.__dict__[spec.backend_name](*args, **kwargs)
        except Exception as error:
            # Told apart from this module's own argument errors (ivy_like.core.decided_errors): a
            # framework function called from here raises in this frame too.
            with contextlib.suppress(AttributeError):  # an exception type without a __dict__
                error._ivy_like_backend = True  # type: ignore[attr-defined]
            raise
        if out is not None:
            return write_out(spec, backend, out, result)
        if saw_array or (spec.creation and not saw_native):
            if spec.n_outputs != 1:
                return wrap_all(result, backend)
            return wrap(result, backend)
        return result

    return general


def wrap_all(result: Any, backend: Backend) -> Any:
    """Wrap every array of a multi-output result, keeping its type (tuple or namedtuple)."""
    items = [wrap(r, backend) for r in result]
    return tuple(items) if type(result) is tuple else type(result)(*items)


def check_out(
    name: str, backend: Backend, out: Any, result: Any, where: str = "out="
) -> tuple[Any, bool]:
    """Raise when ``result`` (a native array of ``backend``) cannot be written into ``out``;
    else return (the native array to write into, whether ``out`` is an ``ivy_like.Array``).

    The one ``out=`` check: the function's path calls it before writing, the Container's for
    every leaf before writing any (``where`` then names the key chain).
    """
    kind = _classify(out)
    if kind is ARRAY_KIND:
        target_backend, target, is_array = out._backend, out._data, True
    elif kind.__class__ is Backend:
        target_backend, target, is_array = kind, out, False
    elif kind is NEUTRAL and not isinstance(out, _SCALARS):
        target_backend, target, is_array = _backend.get_backend("numpy"), out, False
    else:
        raise TypeError(
            f"{name}: {where} must be an array of the {backend.name} backend, "
            f"got {type(out).__name__}"
        )
    if target_backend is not backend:
        raise TypeError(
            f"{name}: {where} is a {target_backend.name} array but the result is on the "
            f"{backend.name} backend"
        )
    want_shape = tuple(backend.shape(result))
    have_shape = tuple(backend.shape(target))
    if want_shape != have_shape:
        raise ValueError(
            f"{name}: {where} has shape {have_shape} but the result has shape {want_shape}"
        )
    want_dtype = backend.dtype(result)
    have_dtype = backend.dtype(target)
    if want_dtype != have_dtype:
        raise TypeError(
            f"{name}: {where} has dtype {backend.unified_dtype(have_dtype).name} but the result "
            f"has dtype {backend.unified_dtype(want_dtype).name}"
        )
    return target, is_array


def write_checked(backend: Backend, out: Any, target: Any, is_array: bool, result: Any) -> Any:
    """Write ``result`` into ``out`` once :func:`check_out` allowed it (``target`` is what it
    returned); return ``out``."""
    if is_array:
        if backend.mutable_arrays:
            backend.write_inplace(target, result)
        else:
            out._data = result  # immutable frameworks: rebind the Array to the new value
        return out
    backend.write_inplace(target, result)  # raises TypeError on immutable native arrays
    return out


def write_out(spec: OpSpec, backend: Backend, out: Any, result: Any) -> Any:
    """Write ``result`` into ``out`` after checking everything; return ``out``."""
    if spec.n_outputs != 1:
        raise TypeError(f"{spec.name}: out= is not supported for ops with several outputs")
    target, is_array = check_out(spec.name, backend, out, result)
    return write_checked(backend, out, target, is_array, result)
