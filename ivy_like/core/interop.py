"""The frameworks' own protocols for foreign arrays, so an ``Array`` is the native array it holds.

Each framework asks a foreign object for its native array in its own way, and each answer here
hands over the very object the ``Array`` holds (never a copy through NumPy), so a tape, a
tracer or an autograd graph that follows it keeps following it:

* torch: ``__torch_function__``. ``torch.*`` functions, ``torch.nn.functional`` and the
  ``Tensor`` operators called with an Array unwrap it, call the function and wrap the tensors
  that come back (the conversions ``torch.as_tensor``, ``torch.tensor``, ``torch.asarray`` and
  ``torch.from_dlpack`` return the tensor itself);
* TensorFlow: ``__tf_tensor__`` (``tf.convert_to_tensor`` and every op's argument conversion),
  ``__tf_flatten__``/``__tf_unflatten__`` (``tf.nest``) and ``__tf_tracing_type__``
  (``tf.function`` passes an Array in and gives one back);
* MLX: ``__mlx_array__`` (``mx.array(x)`` and operators with an ``mx.array`` on the left);
* jax and torch: ``Array`` is a pytree node with one child, its data (:func:`register_jax`,
  :func:`register_torch`), so ``jax.jit``, ``jax.grad``, ``torch.func`` transforms take it;
* NumPy: ``__array_function__``, so ``np.mean(x, dtype=...)`` works on the values as it does
  for any array-like (the result is NumPy's, as for a list).

Nothing here runs on the path of an ivy_like call: the frameworks call these only when an
Array reaches their own functions. Frameworks are read from ``sys.modules`` (they are imported:
they are the ones calling), never imported.
"""

from __future__ import annotations

import sys
from typing import Any

from .backend import Backend, get_backend, kind_of

__all__ = [
    "GradientCutError",
    "array_function",
    "mlx_array",
    "register_jax",
    "register_torch",
    "tf_tensor",
    "tf_tracing_type",
    "torch_function",
    "unwrap",
    "wrap",
]


class GradientCutError(TypeError, BufferError):
    """A route that would hand a framework the values of an array taking part in a gradient
    (a traced or graph tensor), cutting the gradient silently; raised instead. A ``TypeError``,
    and a ``BufferError`` for DLPack consumers, which expect one when an export is refused."""


# ``Array`` and its constructor without ``__init__``, handed over by ``core/array.py`` when the
# class is defined (array.py forwards its protocol methods to this module, so this module cannot
# import it back).
_Array: Any = None
_wrap: Any = None


def bind_array(array_type: type, wrap_native: Any) -> None:
    """Called once by ``core/array.py``: the class the protocols here serve."""
    global _Array, _wrap
    _Array, _wrap = array_type, wrap_native


def _data(x: Any) -> Any:
    return x._data


def unwrap(obj: Any, leaf: Any = _data) -> Any:
    """``obj`` with every ``Array`` (inside lists, tuples and dicts too) replaced by
    ``leaf(array)``: its data, by default."""
    tp = type(obj)
    if tp is _Array:
        return leaf(obj)
    if tp is list or tp is tuple:
        return tp(unwrap(v, leaf) for v in obj)
    if tp is dict:
        return {k: unwrap(v, leaf) for k, v in obj.items()}
    return obj


def wrap(obj: Any) -> Any:
    """``obj`` with every native array of a framework (inside lists and tuples, named or
    structure sequences included, and dicts) wrapped as an ``Array`` of its backend."""
    kind = kind_of(type(obj))
    if kind.__class__ is Backend:
        return _wrap(obj, kind)
    if isinstance(obj, tuple):
        values = [wrap(v) for v in obj]
        tp = type(obj)
        if tp is tuple:
            return tuple(values)
        return tp(*values) if hasattr(tp, "_fields") else tp(values)  # namedtuple, structseq
    if type(obj) is list:
        return [wrap(v) for v in obj]
    if type(obj) is dict:
        return {k: wrap(v) for k, v in obj.items()}
    return obj


def _torch_conversions(torch: Any) -> frozenset[Any]:
    # Functions whose point is the tensor itself: wrapping their result would undo them.
    return frozenset(
        (torch.as_tensor, torch.tensor, torch.asarray, torch.from_dlpack, torch.Tensor.numpy)
    )


_TORCH_CONVERSIONS: list[frozenset[Any]] = []


def torch_function(func: Any, args: Any, kwargs: Any) -> Any:
    """``Array.__torch_function__``: call ``func`` on the native tensors, wrap the result."""
    if not _TORCH_CONVERSIONS:
        _TORCH_CONVERSIONS.append(_torch_conversions(sys.modules["torch"]))
    out = func(*unwrap(tuple(args)), **(unwrap(dict(kwargs)) if kwargs else {}))
    return out if func in _TORCH_CONVERSIONS[0] else wrap(out)


def tf_tensor(x: Any, dtype: Any, name: Any) -> Any:
    """``Array.__tf_tensor__``: the held tensor itself when it is TensorFlow's (so a tape that
    watches it sees every use), else a tensor made from the values."""
    tf = sys.modules["tensorflow"]
    if x._backend.name != "tensorflow":
        return tf.convert_to_tensor(x._backend.to_numpy(x._data), dtype=dtype, name=name)
    data = x._data
    if dtype is not None and data.dtype.is_integer and tf.as_dtype(dtype).is_integer:
        # An int64 bound in S[:rank]: TF asks for int32 and refuses another dtype from a
        # tensor (it casts array-likes). Integers carry no gradient: cast, as for an array-like.
        if data.dtype != dtype:
            return tf.cast(data, dtype, name=name)
    return tf.convert_to_tensor(data, dtype=dtype, name=name)


def tf_tracing_type(x: Any, context: Any) -> Any:
    """``Array.__tf_tracing_type__``: ``tf.function`` traces an Array of TensorFlow as a nest
    around its tensor (the function receives an Array and an Array comes back); an Array of
    another framework is traced as the NumPy array of its values, like any array-like."""
    trace_type = sys.modules["tensorflow.core.function.trace_type"]
    if x._backend.name != "tensorflow":
        return trace_type.from_value(x._backend.to_numpy(x._data), context)
    # CustomNestTraceType is what TF builds for its own CustomNestProtocol (__tf_flatten__),
    # which it checks only after treating anything with __array__ as a NumPy array.
    from tensorflow.core.function.trace_type import custom_nest_trace_type

    inner = trace_type.from_value(x._data, context)
    return custom_nest_trace_type.CustomNestTraceType(type(x), x._backend, (inner,))


def mlx_array(x: Any) -> Any:
    """``Array.__mlx_array__``: the held ``mx.array`` itself (so ``mx.grad`` follows it)."""
    if x._backend.name == "mlx":
        return x._data
    mx = sys.modules["mlx.core"]
    return mx.array(x._backend.to_numpy(x._data))


def array_function(func: Any, args: Any, kwargs: Any) -> Any:
    """``Array.__array_function__``: NumPy's function on the values (NumPy arrays), as NumPy
    treats any array-like; NumPy arrays come back, as for a list."""
    return func(*unwrap(args, _values), **unwrap(kwargs, _values))


def _values(x: Any) -> Any:
    return sys.modules["numpy"].asarray(x._backend.to_numpy(x._data))


# -- Array as a tree node: jax.jit, jax.vmap, torch.func and friends see the array it holds ------
# Registered by ivy_like/container/_pytree.py beside Container, when the framework is in use.
def _flatten(x: Any) -> tuple[list[Any], Any]:
    return [x._data], x._backend


def _unflatten(backend: Any, children: Any) -> Any:
    (data,) = children
    return _wrap(data, backend)


def register_jax(tree_util: Any) -> None:
    """Make ``Array`` a jax pytree node with one child, its data (path ``.data``)."""
    wrap_native = _wrap  # bound once: jax.jit rebuilds every Array result through it
    key = tree_util.GetAttrKey("data")

    def flatten_with_keys(x: Any) -> tuple[list[tuple[Any, Any]], Any]:
        return [(key, x._data)], x._backend

    def unflatten(backend: Any, children: Any) -> Any:
        (data,) = children
        return wrap_native(data, backend)

    tree_util.register_pytree_with_keys(_Array, flatten_with_keys, unflatten, flatten_func=_flatten)


def register_torch(pytree: Any) -> None:
    """Make ``Array`` a torch pytree node (``torch.utils._pytree``); the context is the backend
    name, so a tree spec serializes (``torch.export``)."""

    def flatten(x: Any) -> tuple[list[Any], str]:
        return [x._data], x._backend.name

    def unflatten(children: Any, name: str) -> Any:
        return _unflatten(get_backend(name), children)

    def flatten_with_keys(x: Any) -> tuple[list[tuple[Any, Any]], str]:
        return [(pytree.GetAttrKey("data"), x._data)], x._backend.name

    pytree.register_pytree_node(
        _Array,
        flatten,
        unflatten,
        serialized_type_name="ivy_like.Array",
        flatten_with_keys_fn=flatten_with_keys,
    )
