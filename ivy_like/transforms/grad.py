"""Gradients on every backend with autodiff: ``grad``, ``value_and_grad``,
``execute_with_gradients`` (``jac``, ``hessian`` and the other transforms: the other modules of
this package).

The frontend does what is the same everywhere: it normalises ``argnums``/``argnames`` the way
MLX does, flattens the differentiated arguments (arrays, ``Array``, Containers, nested
dicts/lists/tuples) into a list of native leaves, checks them, and rebuilds gradients in the
structure and types that came in. The backend's ``gradients.py`` does only the differentiation,
with the framework's own functional transform on that flat list
(``value_and_grad_leaves(f, leaves) -> (value, aux, grads)`` and ``jacobian(f, x)``; optionally
``value_and_grad_native_leaves``, the same, used when no ``ivy_like.Array`` is among the
arguments):

* jax: ``jax.value_and_grad`` / ``jax.jacrev``
* torch: ``torch.func.grad_and_value`` / ``torch.func.jacrev`` (no ``.grad``, no flags flipped);
  with native tensors only, at the top level, ``torch.autograd.grad`` on fresh leaves
* tensorflow: ``tf.GradientTape`` watching the leaves, unconnected gradients as zeros
* mlx: ``mx.value_and_grad`` / ``mx.vjp`` under ``mx.vmap``

Gradient functions keep no state: everything lives in the call. NumPy has no autodiff, and
every function here raises :class:`NoAutodiffError` there rather than guessing.
"""

from __future__ import annotations

import contextlib
import functools
import threading
from collections.abc import Callable, Iterator, Sequence
from contextvars import ContextVar
from typing import Any

from ..core import backend as _backend
from ..core import tracing as _tracing
from ..core.array import Array, _wrap
from ..core.backend import (
    ARRAY_KIND,
    NEUTRAL,
    Backend,
    NoAutodiffError,
    activated,
    kind_of,
    no_autodiff_error,
)
from . import tree as _tree
from .tree import check_fun

__all__ = ["NoAutodiffError", "execute_with_gradients", "grad", "value_and_grad"]

_KIND = _backend._KIND
# What a data-parallel step does to every gradient its grad / value_and_grad calls return (and
# to the differentiated value): the mean over the shards, as DDP's backward does. ``None``
# elsewhere; set by ivy_like.distributed.data_parallel, per shard.
Reducer = Callable[[Any, list[Any]], tuple[Any, list[Any]]]
GRADIENT_REDUCER: ContextVar[Reducer | None] = ContextVar("ivy_like_gradient_reducer", default=None)
# How many such steps run now, in any thread: the ContextVar is read only then (torch.compile's
# Dynamo cannot trace ContextVar.get, and a grad it traces must not break on it). Changed only
# under REDUCERS_LOCK by reducing(): TensorFlow's replicas enter it from several threads.
REDUCERS_LIVE = [0]
REDUCERS_LOCK = threading.Lock()


@contextlib.contextmanager
def reducing(reduce: Reducer) -> Iterator[None]:
    """Inside: every gradient grad / value_and_grad return goes through ``reduce``."""
    token = GRADIENT_REDUCER.set(reduce)
    with REDUCERS_LOCK:
        REDUCERS_LIVE[0] += 1
    try:
        yield
    finally:
        with REDUCERS_LOCK:
            REDUCERS_LIVE[0] -= 1
        GRADIENT_REDUCER.reset(token)


_PY_SCALARS = (bool, int, float, complex)


def _kind(value: Any) -> Any:
    hit = _KIND.get(type(value))
    return hit if hit is not None else kind_of(type(value))


# -- argnums / argnames, as MLX normalises them --------------------------------------------------
_ARGNUMS_0: tuple[tuple[int, ...], tuple[str, ...]] = ((0,), ())


def normalise_argnums(
    argnums: Any, argnames: Any, who: str
) -> tuple[tuple[int, ...], tuple[str, ...]]:
    """MLX's rules: no argnums and no argnames -> argnums 0; argnames alone -> no positional
    gradients; indices sorted; negative or repeated indices and an empty request are errors
    (raised when the gradient function is built, as MLX does)."""
    if argnums is None and type(argnames) is tuple and not argnames:
        return _ARGNUMS_0  # the default request (the docs' step builds one at every step)
    return _normalised(argnums, argnames, who)


def _normalised(argnums: Any, argnames: Any, who: str) -> tuple[tuple[int, ...], tuple[str, ...]]:
    if isinstance(argnames, str):
        names: tuple[str, ...] = (argnames,)
    elif isinstance(argnames, Sequence):
        names = tuple(argnames)
        for n in names:
            if not isinstance(n, str):
                raise TypeError(f"{who}: argnames must be str or a sequence of str, got {n!r}")
        names = tuple(dict.fromkeys(names))  # MLX keeps a set: a repeated name counts once
    else:
        raise TypeError(
            f"{who}: argnames must be str or a sequence of str, got {type(argnames).__name__}"
        )
    if argnums is None:
        nums: tuple[int, ...] = () if names else (0,)
    elif isinstance(argnums, int) and not isinstance(argnums, bool):
        nums = (argnums,)
    elif isinstance(argnums, Sequence) and all(
        isinstance(i, int) and not isinstance(i, bool) for i in argnums
    ):
        nums = tuple(sorted(argnums))
    else:
        raise TypeError(f"{who}: argnums must be an int or a sequence of int, got {argnums!r}")
    if not nums and not names:
        raise ValueError(f"{who}: gradient with respect to no argument requested (argnums=[])")
    if nums and nums[0] < 0:
        raise ValueError(
            f"{who}: argnums: cannot differentiate with respect to the negative index {nums[0]}"
        )
    for a, b in zip(nums, nums[1:]):
        if a == b:
            raise ValueError(f"{who}: argnums: index {a} is repeated")
    return nums, names


def _check_call(
    nums: tuple[int, ...], names: tuple[str, ...], args: tuple, kwargs: dict, who: str
) -> None:
    if nums and nums[-1] >= len(args):
        raise ValueError(
            f"{who}: argnums: cannot differentiate with respect to argument {nums[-1]} because "
            f"the function is called with only {len(args)} positional argument(s)"
        )
    for name in names:
        if name not in kwargs:
            raise ValueError(
                f"{who}: argnames: cannot differentiate with respect to keyword argument "
                f"{name!r} because the function is called with the keyword arguments "
                f"{sorted(kwargs)}"
            )


# -- flattening arguments into native leaves ----------------------------------------------------
# A spec is a small tuple tree: "n" native leaf, "a" ivy_like.Array leaf, "p" neutral leaf
# (NumPy array or Python scalar, converted to the backend), ("d", type, keys, children) for a
# dict or Container, ("l", type, children) for a list or tuple, ("s", obj) for a static
# (non-array) output value.
_N, _A, _P = _tree.N, _tree.A, _tree.P
# The output is the differentiated scalar itself (native / ivy_like.Array): no aux to carry.
_VALUE_N, _VALUE_A = ("value", "n"), ("value", "a")
_NO_AUX: tuple = ()


def _prepare(
    nums: tuple[int, ...], names: tuple[str, ...], args: tuple, kwargs: dict, who: str
) -> tuple[Backend, list[Any], list[Any], bool]:
    """Flatten the differentiated arguments; return (backend, specs, native leaves, whether an
    ``ivy_like.Array`` was among them)."""
    if len(nums) == 1 and not names:
        # The common case, one array argument: no flattening walk.
        only = args[nums[0]]
        kind = _KIND.get(type(only))
        if kind.__class__ is Backend or kind is ARRAY_KIND:
            backend, leaf, spec = (
                (kind, only, _N) if isinstance(kind, Backend) else (only._backend, only._data, _A)
            )
            if backend.has_autodiff and _is_float(backend, backend.dtype(leaf)):
                return backend, [spec], [leaf], spec is _A
    fast = _prepare_arrays(nums, names, args, kwargs)
    if fast is not None:
        return fast
    flat = _tree.Flat(who, strict=True)
    specs = [_tree.flatten(args[i], flat, f"positional argument {i}", False) for i in nums]
    specs += [_tree.flatten(kwargs[n], flat, f"argument {n!r}", False) for n in names]
    if flat.has_array and flat.neutral:
        # NumPy data and Python scalars beside Arrays become Arrays too: a native array next
        # to an Array would make the arithmetic the framework's (p["x"] * p["y"] a native
        # value, and on frameworks that read a foreign operand's values, a constant).
        specs = [_tree.promote(spec) for spec in specs]
    # Only NumPy / Python data: the backend of the other arguments, else the active one.
    backend = _tree.resolve_backend(flat, args, kwargs)
    if not backend.has_autodiff:
        raise no_autodiff_error(backend, who)
    leaves = flat.leaves
    for leaf, path in zip(leaves, flat.paths):
        if not _is_float(backend, backend.dtype(leaf)):
            dtype = backend.unified_dtype(backend.dtype(leaf))
            raise TypeError(
                f"{who}: {_tree.describe(path)} has dtype {dtype.name}; gradients need "
                f"floating-point inputs (cast with ivy_like.astype(x, 'float32'))"
            )
    return backend, specs, leaves, flat.has_array


def _prepare_arrays(
    nums: tuple[int, ...], names: tuple[str, ...], args: tuple, kwargs: dict
) -> tuple[Backend, list[Any], list[Any], bool] | None:
    """``_prepare`` when every differentiated leaf is a floating array of one autodiff
    backend (a model's parameters); None otherwise, and ``_prepare``'s walk converts the
    leaves or raises the error naming one."""
    leaves: list[Any] = []
    found: list[Any] = [None, False]
    specs = []
    for value in [args[i] for i in nums] + [kwargs[n] for n in names]:
        spec = _tree.flatten_arrays(value, leaves, found)
        if spec is None:
            return None
        specs.append(spec)
    backend = found[0]
    if backend is None or not backend.has_autodiff:
        return None
    table = _IS_FLOAT.get(backend.name)
    if table is None:
        return None
    dtype_of = backend.dtype
    for leaf in leaves:
        if table.get(dtype_of(leaf)) is not True:  # not float, or not seen yet: the walk
            return None
    return backend, specs, leaves, found[1]


# -- the differentiated call ------------------------------------------------------------------------

# native dtype -> is it floating point (native dtypes are hashable on every framework).
# backend name -> {native dtype: is it floating point}. One table per backend: torch.compile
# hashes every key of a dict it reads, and TensorFlow's DType has a C hash it cannot trace.
_IS_FLOAT: dict[str, dict[Any, bool]] = {}


def _is_float(backend: Backend, native_dtype: Any) -> bool:
    table = _IS_FLOAT.get(backend.name)
    hit = table.get(native_dtype) if table is not None else None
    if hit is None:
        hit = backend.unified_dtype(native_dtype).kind == "f"
        if not _tracing.is_tracing():  # see core/tracing.py
            _IS_FLOAT.setdefault(backend.name, {})[native_dtype] = hit
    return hit


def _as_scalar(head: Any, backend: Backend, who: str) -> Any:
    kind = _kind(head)
    if kind is backend and backend.shape(head) == () and _is_float(backend, backend.dtype(head)):
        return head  # the common case: checked in one line, the messages below otherwise
    if kind is ARRAY_KIND:
        head = head._data
    elif kind is NEUTRAL and head is not None:
        head = backend.asarray(head)  # a constant: its gradient is zero
    elif kind is not backend:
        raise TypeError(
            f"{who}: fun must return a scalar array of the {backend.name} backend, "
            f"got {type(head).__name__}"
        )
    shape = tuple(backend.shape(head))
    if shape != ():
        raise ValueError(
            f"{who}: fun must return a scalar (shape ()), got shape {shape}; reduce it "
            f"(e.g. ivy_like.sum) or use ivy_like.jac for the Jacobian"
        )
    dtype = backend.unified_dtype(backend.dtype(head))
    if dtype.kind != "f":
        raise TypeError(f"{who}: fun must return a floating-point scalar, got {dtype.name}")
    return head


def _has_array(obj: Any) -> bool:
    if type(obj) is Array:
        return True
    if _KIND.get(type(obj)).__class__ is Backend:  # a native array (the common other argument)
        return False
    if isinstance(obj, dict):
        obj = obj.values()
    elif not isinstance(obj, (list, tuple)):
        return False
    return any(_has_array(v) for v in obj)


def _holds_array(
    differentiated: bool, nums: tuple[int, ...], names: tuple[str, ...], args: tuple, kwargs: dict
) -> bool:
    """Whether an ``ivy_like.Array`` is among the arguments (``differentiated``: one was among
    the differentiated ones, as flattening found; the others by a walk that stops at the
    first). A backend's native-only gradient route (torch's ``torch.autograd.grad``) is taken
    only when none is."""
    if differentiated:
        return True
    for i, a in enumerate(args):
        if i not in nums and _has_array(a):
            return True
    return any(_has_array(v) for k, v in kwargs.items() if k not in names)


def _value_and_grads(
    fun: Callable[..., Any],
    nums: tuple[int, ...],
    names: tuple[str, ...],
    args: tuple,
    kwargs: dict,
    who: str,
    allow_aux: bool,
) -> tuple[Any, Backend, list[Any], list[Any], tuple[str, ...]]:
    """Run the backend primitive; return (value, backend, specs, native grads, names)."""
    _check_call(nums, names, args, kwargs, who)
    if len(names) > 1:  # MLX orders keyword gradients as the call orders its keywords
        names = tuple(k for k in kwargs if k in names)
    backend, specs, leaves, has_array = _prepare(nums, names, args, kwargs, who)
    n_pos = len(nums)
    out_spec: list[Any] = []  # the output's structure, filled while the function runs

    # One bare array as the first of one or more positional arguments (the common case) is
    # put back without the general rebuild.
    first_only = nums == (0,) and not names and (specs[0] is _N or specs[0] is _P)

    def differentiable(native_leaves: list[Any]) -> tuple[Any, Sequence[Any]]:
        if first_only:
            out = fun(native_leaves[0], *args[1:], **kwargs)
        else:
            it = iter(native_leaves)
            call_args = list(args)
            for i, spec in zip(nums, specs):
                call_args[i] = _tree.rebuild(spec, it, backend)
            call_kwargs = dict(kwargs)
            for name, spec in zip(names, specs[n_pos:]):
                call_kwargs[name] = _tree.rebuild(spec, it, backend)
            out = fun(*call_args, **call_kwargs)
        out_kind = _kind(out)
        if (
            out_kind is backend
            and getattr(out, "ndim", None) == 0
            and _is_float(backend, out.dtype)
        ):
            # The most common output, a native float scalar, checked inline: beside the
            # framework's transform each call here costs two to three times its own cost.
            out_spec.append(_VALUE_N)
            return out, _NO_AUX
        if out_kind is ARRAY_KIND or out_kind is backend:
            # The common case, a bare scalar: it is the value, so no auxiliary outputs travel
            # through the transform (torch.func's pytree handling of them costs ~10 µs a call).
            out_spec.append(_VALUE_A if out_kind is ARRAY_KIND else _VALUE_N)
            return _as_scalar(out, backend, who), _NO_AUX
        if isinstance(out, (tuple, list)):
            if not allow_aux:
                raise ValueError(
                    f"{who}: fun must return a scalar array, got a {type(out).__name__}; use "
                    f"ivy_like.value_and_grad for functions with auxiliary outputs"
                )
            if not out:
                raise ValueError(f"{who}: fun returned an empty {type(out).__name__}")
            scalar = _as_scalar(out[0], backend, who)
        else:
            scalar = _as_scalar(out, backend, who)
        out_leaves: list[Any] = []
        out_spec.append(_tree.flatten_output(out, out_leaves, backend))
        return scalar, out_leaves

    primitive = backend.value_and_grad_leaves
    native_only = backend.__dict__.get("value_and_grad_native_leaves")
    if native_only is not None and not _holds_array(has_array, nums, names, args, kwargs):
        primitive = native_only
    reduce = GRADIENT_REDUCER.get() if REDUCERS_LIVE[0] else None
    if reduce is None:
        scalar, aux, grads = activated(primitive, backend)(differentiable, leaves)
    else:  # a data-parallel step: the shards' mean, once (not again in a nested grad)
        token = GRADIENT_REDUCER.set(None)
        try:
            scalar, aux, grads = activated(primitive, backend)(differentiable, leaves)
        finally:
            GRADIENT_REDUCER.reset(token)
        scalar, grads = reduce(scalar, list(grads))
        head = out_spec[-1]
        if head[0] == "l" and head[2][0] in (_tree.A, _tree.N):  # the value leads the outputs
            aux = [scalar, *aux[1:]]
    spec = out_spec[-1]
    if spec is _VALUE_N:
        value = scalar
    elif spec is _VALUE_A:
        value = _wrap(scalar, backend)
    else:
        value = _tree.rebuild(spec, iter(aux), backend)
    return value, backend, specs, list(grads), names


def _assemble(
    specs: list[Any],
    grads: list[Any],
    backend: Backend,
    nums: tuple[int, ...],
    names: tuple[str, ...],
) -> Any:
    """MLX's return shape: one positional gradient alone, several as a tuple, none as None;
    with argnames, ``(positional, {name: grad})``."""
    if not names and len(specs) == 1 and (specs[0] is _N or specs[0] is _P):
        return grads[0]  # one bare array: its gradient as is
    it = iter(grads)
    pos = [_tree.rebuild(spec, it, backend) for spec in specs[: len(nums)]]
    positional = pos[0] if len(pos) == 1 else (tuple(pos) if pos else None)
    if not names:
        return positional
    keyword = {
        name: _tree.rebuild(spec, it, backend) for name, spec in zip(names, specs[len(nums) :])
    }
    return positional, keyword


# -- public API ---------------------------------------------------------------------------------
def value_and_grad(
    fun: Callable[..., Any],
    argnums: int | Sequence[int] | None = None,
    argnames: str | Sequence[str] = (),
) -> Callable[..., tuple[Any, Any]]:
    """A function returning ``(value, gradients)`` of ``fun`` (MLX's ``value_and_grad``).

    ``fun`` returns a scalar array, or a tuple or list whose first element is the scalar that
    is differentiated; then the whole output is the value (auxiliary outputs). ``argnums`` and
    ``argnames`` select the arguments and shape the result as in :func:`grad`. Arguments may be
    native arrays, ``ivy_like.Array``, Containers or nested dicts/lists/tuples of them;
    gradients come back in the same structure and types. NumPy arrays and Python scalars are
    converted to the backend of the other arrays (else the active backend); their gradients
    are that backend's native arrays.

    Raises
    ------
    NoAutodiffError
        On the numpy backend (a ``NotImplementedError``): it has no autodiff.
    ValueError
        ``argnums`` negative, repeated, out of range or empty; ``argnames`` not among the
        call's keyword arguments; ``fun`` returning a non-scalar.
    TypeError
        A differentiated input or the output that is not floating point, or not an array.

    Examples
    --------
    On any backend with automatic differentiation (jax, torch, tensorflow, mlx, mxnet; on
    numpy the call raises :class:`NoAutodiffError`, which says where to go):

    >>> import ivy_like
    >>> f = ivy_like.value_and_grad(lambda x: ivy_like.sum(x * x))
    >>> f(ivy_like.array([1., 2.]))
    (ivy_like.array(5.), ivy_like.array([2., 4.]))

    An auxiliary output rides along with the scalar, in the value:

    >>> f = ivy_like.value_and_grad(lambda x: (ivy_like.sum(x * x), x + 1))
    >>> f(ivy_like.array([1., 2.]))
    ((ivy_like.array(5.), ivy_like.array([2., 3.])), ivy_like.array([2., 4.]))
    """
    check_fun(fun, "value_and_grad")
    nums, names = normalise_argnums(argnums, argnames, "value_and_grad")

    @functools.wraps(fun)
    def value_and_grad_fun(*args: Any, **kwargs: Any) -> tuple[Any, Any]:
        value, backend, specs, grads, order = _value_and_grads(
            fun, nums, names, args, kwargs, "value_and_grad", True
        )
        return value, _assemble(specs, grads, backend, nums, order)

    return value_and_grad_fun


def grad(
    fun: Callable[..., Any],
    argnums: int | Sequence[int] | None = None,
    argnames: str | Sequence[str] = (),
) -> Callable[..., Any]:
    """A function with ``fun``'s inputs returning the gradient(s) of its scalar output.

    Semantics of MLX's ``grad``:

    ===========================  ==========================================================
    call                         returns
    ===========================  ==========================================================
    ``grad(f)``                  gradient w.r.t. the first positional argument
    ``grad(f, argnums=1)``       gradient w.r.t. argument 1
    ``grad(f, argnums=[2, 0])``  ``(g0, g2)``: indices are sorted; one index -> one gradient
    ``grad(f, argnames="w")``    ``(None, {"w": gw})``
    ``grad(f, 0, ["w"])``        ``(g0, {"w": gw})``
    ===========================  ==========================================================

    Gradients have the structure and types of their arguments (an ``Array`` gives an
    ``Array``, a Container a Container). Gradients that do not flow are zeros. Compose for
    higher orders: ``grad(grad(f))``. Errors are those of :func:`value_and_grad`; a tuple
    output is an error here (use :func:`value_and_grad`).

    Examples
    --------
    Arguments are checked when the function is built, as MLX does:

    >>> import ivy_like
    >>> ivy_like.grad(lambda x: x, argnums=[0, 0])
    Traceback (most recent call last):
      ...
    ValueError: grad: argnums: index 0 is repeated

    The gradient of the first argument, then of both, on any backend with automatic
    differentiation (on numpy the call raises :class:`NoAutodiffError`, which says where to go):

    >>> ivy_like.grad(lambda x: ivy_like.sum(x * x))(ivy_like.array([1., 2., 3.]))
    ivy_like.array([2., 4., 6.])
    >>> x, y = ivy_like.array([1., 2.]), ivy_like.array([3., 4.])
    >>> ivy_like.grad(lambda x, y: ivy_like.sum(x * y), argnums=[0, 1])(x, y)
    (ivy_like.array([3., 4.]), ivy_like.array([1., 2.]))
    """
    check_fun(fun, "grad")
    nums, names = normalise_argnums(argnums, argnames, "grad")

    @functools.wraps(fun)
    def grad_fun(*args: Any, **kwargs: Any) -> Any:
        _, backend, specs, grads, order = _value_and_grads(
            fun, nums, names, args, kwargs, "grad", False
        )
        return _assemble(specs, grads, backend, nums, order)

    return grad_fun


def execute_with_gradients(
    func: Callable[[Any], Any], xs: Any, retain_grads: bool = False
) -> tuple[Any, Any]:
    """Call ``func(xs)`` and return ``(func_ret, grads)``, as Ivy's function does.

    ``func`` returns a scalar, or a tuple whose first element is the scalar; ``grads`` has
    the structure of ``xs`` (an array, Container or nest). ``retain_grads=False`` returns
    ``func_ret`` cut from any enclosing differentiation (``stop_gradient``); ``True`` keeps it
    connected, for higher-order use.

    Examples
    --------
    On any backend with automatic differentiation (on numpy the call raises
    :class:`NoAutodiffError`):

    >>> import ivy_like
    >>> xs = {"w": ivy_like.array([1., 2.])}
    >>> value, grads = ivy_like.execute_with_gradients(lambda p: ivy_like.sum(p["w"] ** 2), xs)
    >>> value, grads["w"]
    (ivy_like.array(5.), ivy_like.array([2., 4.]))
    """
    check_fun(func, "execute_with_gradients")
    value, backend, specs, grads, _ = _value_and_grads(
        func, (0,), (), (xs,), {}, "execute_with_gradients", True
    )
    if not retain_grads:
        leaves: list[Any] = []
        spec = _tree.flatten_output(value, leaves, backend)
        cut = [backend.stop_gradient(v, preserve_type=False) for v in leaves]
        value = _tree.rebuild(spec, iter(cut), backend)
    return value, _tree.rebuild(specs[0], iter(grads), backend)
