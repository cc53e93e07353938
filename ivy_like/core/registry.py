"""The op registry: each op is declared once and its three variants are generated from it.

An op is declared in ``ivy_like/ops/`` as a Python function whose signature is the public one
(array API names, positional-only and keyword-only markers) and whose docstring is the public
docstring with a runnable example. The :func:`op` decorator records which parameters are arrays,
sequences of arrays or dtypes. A declaration whose body is more than its docstring is a
*composite*: the body, written against ``ivy_like`` itself, is used on any backend whose module
does not define the op.

From each declaration :func:`build` generates, once, at import time (the methods on first use):

* the public function, with a fast path for the common case (native arrays of one framework, no
  ``out=``) that costs a type lookup and a call, and a general path (:mod:`ivy_like.core.dispatch`)
  for everything else;
* the ``Array`` method (the first array parameter becomes ``self``);
* the ``Container`` method, through hooks that the container package registers.

Generated code is plain source compiled with ``exec`` so that each op gets a wrapper specialised
to its arity: no ``*args``/``**kwargs`` packing, no ``inspect`` and no decorator stack per call.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

__all__ = ["OpSpec", "op", "OPS"]

OPS: dict[str, OpSpec] = {}


@dataclass
class OpSpec:
    """Everything the generators need to know about one op."""

    name: str
    declaration: Callable[..., Any]
    arrays: tuple[str, ...]
    sequences: tuple[str, ...] = ()
    dtypes: tuple[str, ...] = ()
    creation: bool = False
    n_outputs: int = 1  # >1: a tuple of that many arrays; -1: a tuple of any length
    composite: bool = False
    method: bool = True
    family: str = "general"
    # The decided errors (ivy_like.core.decided_errors): the dtype kinds the array API standard
    # admits for the op's arrays (None: not checked), and the check of its shapes and axes.
    dtype_category: str | None = None
    # Parameters that take any object, an ivy_like.Array among them (asarray's obj): an Array
    # is handed to the backend as its native data, never as a foreign object it would convert
    # through __array__ or __dlpack__ (which share memory whatever copy= says).
    unwrapped: tuple[str, ...] = ()
    shape_rule: Callable[[OpSpec, dict[str, Any]], None] | None = None
    # The op's argument rules that must hold before any kernel runs (a framework that would
    # crash, hang, allocate without bound or answer wrongly on a bad argument): called with
    # the arguments the kernel gets (native arrays and dtypes, no ``out``), it raises the
    # decided error or returns None. Only ops that declare one pay for it: the backend's
    # attribute for the op becomes the check followed by the kernel (core/backend.py), so the
    # fast path, the general path and composites all go through it.
    check: Callable[..., None] | None = None
    # Sub-namespaces the function is published in ("linalg", "fft"); "" is ivy_like itself.
    namespaces: tuple[str, ...] = ("",)
    params: tuple[inspect.Parameter, ...] = ()
    # filled by build()
    function: Callable[..., Any] | None = None
    array_method: Callable[..., Any] | None = None
    # derived positions, filled in __post_init__
    array_index: tuple[int, ...] = ()
    sequence_index: tuple[int, ...] = ()
    dtype_index: tuple[int, ...] = ()
    out_index: int = -1
    extras: dict[str, Any] = field(default_factory=dict)

    @property
    def backend_name(self) -> str:
        """Name of the backend function: ``fft_fft`` for ``ivy_like.fft.fft``."""
        if "" in self.namespaces:
            return self.name
        return f"{self.namespaces[0]}_{self.name}"

    def __post_init__(self) -> None:
        self.params = tuple(inspect.signature(self.declaration).parameters.values())
        names = [p.name for p in self.params]
        for group in (self.arrays, self.sequences, self.dtypes, self.unwrapped):
            for name in group:
                if name not in names:
                    raise ValueError(f"op {self.name}: {name!r} is not a parameter")
        self.array_index = tuple(names.index(n) for n in self.arrays)
        self.sequence_index = tuple(names.index(n) for n in self.sequences)
        self.dtype_index = tuple(names.index(n) for n in self.dtypes)
        self.out_index = names.index("out") if "out" in names else -1

    @property
    def param_names(self) -> list[str]:
        return [p.name for p in self.params]


def _has_body(fn: Callable[..., Any]) -> bool:
    """True when the declaration does more than hold a docstring (it is a composite)."""
    code = fn.__code__

    # A docstring-only function compiles to "return None" alone (co_consts holds the doc on
    # 3.11-3.13, so compare the bytecode shape, not the constants).
    def _empty() -> None:
        """doc"""

    return code.co_code != _empty.__code__.co_code


def _family(module: str) -> str:
    """The op family: the ops/ module the op is declared in (``ivy_like.ops.linalg`` ->
    ``linalg``), or the ops/ package for a family split into files (``ivy_like.ops.nn.losses``
    -> ``nn``). Each backend's kernels for a family live in the backend's file of that name."""
    parts = module.split(".")
    if "ops" in parts[:-1]:
        return parts[parts.index("ops") + 1]
    return parts[-1]


def op(
    *,
    arrays: tuple[str, ...] = (),
    sequences: tuple[str, ...] = (),
    dtypes: tuple[str, ...] = (),
    creation: bool = False,
    n_outputs: int = 1,
    method: bool = True,
    namespaces: tuple[str, ...] = ("",),
    dtype_category: str | None = None,
    shape_rule: Callable[[OpSpec, dict[str, Any]], None] | None = None,
    check: Callable[..., None] | None = None,
    unwrapped: tuple[str, ...] = (),
) -> Callable[[Callable[..., Any]], OpSpec]:
    """Declare an op. Used only inside ``ivy_like/ops/``."""

    def register(fn: Callable[..., Any]) -> OpSpec:
        spec = OpSpec(
            name=fn.__name__,
            declaration=fn,
            arrays=arrays,
            sequences=sequences,
            dtypes=dtypes,
            creation=creation,
            n_outputs=n_outputs,
            composite=_has_body(fn),
            method=method and bool(arrays),
            family=_family(fn.__module__),
            namespaces=namespaces,
            dtype_category=dtype_category,
            shape_rule=shape_rule,
            check=check,
            unwrapped=unwrapped,
        )
        key = spec.name if "" in namespaces else f"{namespaces[0]}.{spec.name}"
        if key in OPS:
            raise ValueError(f"op {key!r} is declared twice")
        OPS[key] = spec
        return spec

    return register
