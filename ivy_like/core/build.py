"""Generate every op's function and ``Array`` method from the registry, once, at import."""

from __future__ import annotations

import importlib
from typing import Any

from . import backend as _backend
from . import codegen
from . import decided_errors as _decided_errors
from . import dispatch as _dispatch
from . import dtypes as _dtypes
from . import tracing as _tracing
from .array import Array, _wrap
from .codegen import make_dunder
from .registry import OPS

# Operators of Array and the op each one calls; reflected ones swap the operands.
BINARY_DUNDERS = {
    "add": "add",
    "sub": "subtract",
    "mul": "multiply",
    "truediv": "divide",
    "floordiv": "floor_divide",
    "mod": "remainder",
    "pow": "pow",
    "matmul": "matmul",
    # The array API's &, |, ^, <<, >> are bitwise (for bool arrays & | ^ are the logical ops).
    "and": "bitwise_and",
    "or": "bitwise_or",
    "xor": "bitwise_xor",
    "lshift": "bitwise_left_shift",
    "rshift": "bitwise_right_shift",
}
COMPARISON_DUNDERS = {
    "__eq__": "equal",
    "__ne__": "not_equal",
    "__lt__": "less",
    "__le__": "less_equal",
    "__gt__": "greater",
    "__ge__": "greater_equal",
}
UNARY_DUNDERS = {
    "__neg__": "negative",
    "__pos__": "positive",
    "__abs__": "abs",
    "__invert__": "bitwise_invert",  # bitwise; logical NOT for bool
}


def _remember(ns: dict[str, Any], tp: type, backend: Any) -> None:
    """Fill the call cache of one generated function (see ``codegen._function_source``)."""
    fn = backend.__dict__.get(ns["_spec"].backend_name)
    if fn is None:
        return  # an op the backend lacks: the attribute path raises its error
    if _tracing.is_tracing():
        # Written under torch.compile, the cache would fail the guard Dynamo put on it and
        # recompile the caller at its next call; traced code pays no lookup anyway.
        return
    # Frameworks' own types map to one backend whatever is active; NumPy arrays follow the
    # active backend, so their entry holds only while the same table is active.
    table = None if _backend.NATIVE.get(tp) is backend else _backend._active_table.get()
    ns["_C"] = (tp, table, fn)


def _remember_creation(ns: dict[str, Any], stack: tuple[Any, ...], backend: Any) -> None:
    """Fill the call cache of a creation function: this backend stack means this backend."""
    if _backend._traced.backends or _tracing.is_tracing():
        return  # the traced list (see backend.stack_now) is no key, or traced (see _remember)
    if stack or _backend._default is backend:  # the empty stack stands for the default
        ns["_C"] = (stack, backend, backend.__dict__[ns["_spec"].backend_name])


def _owner(obj: Any) -> Any:
    """The backend of a framework's native array (first sight of its type), else None."""
    kind = _backend.kind_of(type(obj))
    return kind if kind.__class__ is _backend.Backend else None


_namespace: dict[str, Any] = {
    "_table": _backend._active_table.get,
    "_stack": _backend._stack.get,
    "_stack_now": _backend.stack_now,
    "_TP": _backend.TRACED_PUSHES,
    "_current": _backend.current_backend,
    "_native": _backend.NATIVE.get,
    "_wrap": _wrap,
    "_wrap_all": _dispatch.wrap_all,
    "_Array": Array,
    "_scalars": frozenset({int, float, bool, complex}),
    "_remember": _remember,
    "_remember_creation": _remember_creation,
    "_owner": _owner,
    "_translate": _decided_errors.translate,
    "_DF": _dtypes.DEFAULT_SET,
    "_creation_default": _dtypes.creation_default,
}
_backend._change_hooks.append(codegen.forget_calls)


def build_all(target: dict[str, Any], container_map: Any) -> None:
    """Build every registered op; put the functions in ``target`` (the package namespace).

    ``container_map(spec, values)`` is what the general path does with Container arguments.
    """
    _namespace["_general"] = _dispatch.make_general(container_map)
    for spec in OPS.values():
        if spec.function is None:
            codegen.build(spec, _namespace)
            for backend in _backend._loaded.values():
                backend.complete((spec,))  # loaded before this op was declared
        for ns in spec.namespaces:
            if ns:
                # ivy_like.linalg, ivy_like.fft: real modules, filled here.
                module = importlib.import_module(f"ivy_like.{ns}")
                setattr(module, spec.name, spec.function)
                module.__all__.append(spec.name)
            else:
                target[spec.name] = spec.function
        if spec.method and spec.name not in vars(Array):
            setattr(Array, spec.name, _LazyMethod(spec))
    for short, name in BINARY_DUNDERS.items():
        spec = OPS[name]
        setattr(Array, f"__{short}__", make_dunder(spec, f"__{short}__", _namespace, False))
        setattr(Array, f"__r{short}__", make_dunder(spec, f"__r{short}__", _namespace, True))
        setattr(Array, f"__i{short}__", _inplace(spec.function))
    for dunder, name in {**COMPARISON_DUNDERS, **UNARY_DUNDERS}.items():
        setattr(Array, dunder, make_dunder(OPS[name], dunder, _namespace, False))


class _LazyMethod:
    """Stands in for ``Array.<op>`` until first looked up, then generates the method.

    Compiling every op's method at import would cost about as much as the functions
    themselves; programs use few of them. After the first lookup the class holds the real
    function, so later calls pay nothing for the laziness.
    """

    __slots__ = ("spec",)

    def __init__(self, spec: Any) -> None:
        self.spec = spec

    def __get__(self, obj: Any, cls: Any = None) -> Any:
        meth = codegen.build_array_method(self.spec, _namespace)
        setattr(Array, self.spec.name, meth)
        return meth if obj is None else meth.__get__(obj, cls)


def _inplace(fn: Any) -> Any:
    def inplace(self: Array, other: Any) -> Array:
        # Rebinds on every backend: ``x += y`` computes x + y and keeps the same Array object.
        result = fn(self, other)
        self._data = result._data
        return self

    return inplace
