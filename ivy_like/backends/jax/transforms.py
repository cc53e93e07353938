"""JAX transform primitives on flat lists of native leaves: ``jax.vjp``, ``jax.jvp``,
``jax.vmap``, ``jax.jit``, ``jax.checkpoint``, ``jax.custom_vjp``/``custom_jvp``/``custom_vmap``.

The frontend (``ivy_like/transforms/``) flattens arguments and rebuilds results; the contract
of each function is in ``ivy_like/backends/__init__.py``.
"""

from __future__ import annotations

from typing import Any, Callable

import jax
import jaxlib
from jax import custom_batching
from jax._src.core import trace_state_clean as _trace_state_clean

from .._common.helpers import JvpRule, LeavesFn, VjpRule, VmapFn, VmapRule, vjp_leaves_for


def _version(text: str) -> tuple[int, ...]:
    return tuple(int(p) for p in text.split(".")[:3] if p.isdigit())


# jaxlib 0.10.2's CPU compiler hands convolutions to YNNPACK, and a convolution with the
# reduction after it as one fusion, which gives 0, inf or NaN (varying from one compilation
# to the next) when the kernel is one repeated constant (an ONNX ConstantOfShape weight; a 1x1
# conv of 0.02 then a sum is enough). 0.10.1 keeps the constant out of that fusion. YNNPACK
# keeps only the matrix products here: XLA's own convolution is also the faster one on CPU
# (ResNet-50 at batch 1 on 2 cores: 61 ms with YNNPACK's, 46 ms without, in plain jax.jit of
# NHWC; SmallCNN's training step the same). Checked on 0.10.2 only, so kept from 0.10.2 on.
_COMPILER_OPTIONS = (
    {"xla_cpu_experimental_ynn_fusion_type": "LIBRARY_FUSION_TYPE_INDIVIDUAL_DOT"}
    if _version(jaxlib.__version__) >= (0, 10, 2)
    else None
)

vjp_leaves = vjp_leaves_for(jax.vjp)


def jvp_leaves(
    f: Callable[[list[Any]], list[Any]], primals: list[Any], tangents: list[Any]
) -> tuple[list[Any], list[Any]]:
    return jax.jvp(f, (primals,), (tangents,))  # type: ignore[no-any-return]


def vmap_leaves(
    f: VmapFn, leaves: list[Any], in_axes: list[Any], axis_size: int
) -> tuple[list[Any], list[Any]]:
    return jax.vmap(f, in_axes=(list(in_axes),), out_axes=(0, None), axis_size=axis_size)(leaves)  # type: ignore[no-any-return]


def _jit(f: Callable[..., Any], **kwargs: Any) -> Callable[..., Any]:
    """``jax.jit(f)``, with ``_COMPILER_OPTIONS`` where it is compiled on its own: JAX
    refuses compiler options on a jit called inside another trace (a caller's ``jit``,
    ``grad``, ``vmap``), which compiles it with the outer function's options."""
    plain = jax.jit(f, **kwargs)
    if _COMPILER_OPTIONS is None:
        return plain
    top = jax.jit(f, compiler_options=_COMPILER_OPTIONS, **kwargs)
    clean = _trace_state_clean

    def run(*args: Any, **kw: Any) -> Any:
        return (top if clean() else plain)(*args, **kw)

    return run


def compile_leaves(f: Callable[..., list[Any]]) -> Callable[..., list[Any]]:
    return _jit(f)  # type: ignore[no-any-return]


def compile_tree(
    f: Callable[..., Any], static_argnums: tuple[int, ...], static_argnames: tuple[str, ...]
) -> Callable[..., Any]:
    """``jax.jit`` of the function itself: Arrays and Containers are pytree nodes, so JAX
    flattens and rebuilds them (in C++); the ivy_like layer costs one Python frame per call
    (choosing the jit with or without ``_COMPILER_OPTIONS``)."""
    return _jit(f, static_argnums=static_argnums, static_argnames=static_argnames)


def checkpoint_leaves(f: Callable[..., list[Any]]) -> Callable[..., list[Any]]:
    return jax.checkpoint(f)  # type: ignore[no-any-return]


def custom_function_leaves(
    f: LeavesFn, vjp: VjpRule | None, jvp: JvpRule | None, vmap: VmapRule | None
) -> LeavesFn:
    fun: Any = f
    if vmap is not None:
        # custom_vmap's rule gets (axis_size, in_batched, *args) with batched args' axis at 0.
        batched_fun = custom_batching.custom_vmap(fun)

        @batched_fun.def_vmap
        def _rule(axis_size: int, in_batched: list[bool], *leaves: Any) -> Any:
            axes = [0 if b else None for b in in_batched]
            outs, out_axes = vmap(list(leaves), axes)
            moved = [
                o if a in (0, None) else jax.numpy.moveaxis(o, a, 0) for o, a in zip(outs, out_axes)
            ]
            return moved, [a is not None for a in out_axes]

        fun = batched_fun
        if vjp is None and jvp is None:
            # custom_vmap has no derivative of its own: the plain function's jvp, through
            # custom_jvp, which serves forward mode, reverse mode (by transposition) and any
            # order (a custom_vjp would refuse forward mode).
            def plain_jvp(primals: list[Any], tangents: list[Any]) -> list[Any]:
                return list(jax.jvp(lambda *a: f(*a), tuple(primals), tuple(tangents))[1])

            jvp = plain_jvp
    if jvp is not None:
        # JAX takes one custom rule per function: jvp when given (reverse mode transposes it).
        # The rule's primal output comes from the plain function: a custom_vmap function has
        # no derivative, and a second derivative differentiates the rule's primal output too.
        jvp_fun = jax.custom_jvp(fun)

        @jvp_fun.defjvp
        def _jvp(primals: tuple[Any, ...], tangents: tuple[Any, ...]) -> Any:
            return f(*primals), jvp(list(primals), list(tangents))

        return jvp_fun  # type: ignore[no-any-return]
    if vjp is not None:
        vjp_fun = jax.custom_vjp(fun)

        def fwd(*leaves: Any) -> Any:
            outs = f(*leaves)  # the plain function, as in _jvp: differentiable again
            return outs, (list(leaves), outs)

        def bwd(res: Any, cotangents: list[Any]) -> tuple[Any, ...]:
            primals, outs = res
            return tuple(vjp(primals, list(cotangents), outs))

        vjp_fun.defvjp(fwd, bwd)
        return vjp_fun  # type: ignore[no-any-return]
    return fun  # type: ignore[no-any-return]
