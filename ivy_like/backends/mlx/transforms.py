"""MLX transform primitives on flat lists of native leaves: ``mx.vjp``, ``mx.jvp``,
``mx.vmap``, ``mx.compile``, ``mx.checkpoint``, ``mx.custom_function``.

MLX is the reference for the semantics, so each primitive is MLX's own transform; the frontend
(``ivy_like/transforms/``) flattens arguments and rebuilds results, and the contract of each
function is in ``ivy_like/backends/__init__.py``. Where MLX's calling convention differs from
the contract the adapter is here:

* ``vjp_leaves``: ``mx.vjp`` wants the cotangents before it runs ``fun``, while the contract
  checks them against the outputs after the forward pass. ``fun`` therefore returns the
  scalar ``sum_i <out_i, conj(ct_i)>`` with the cotangents taken inside it (checked there,
  before any backward work), and ``mx.vjp`` pulls back a cotangent of 1: the gradient of
  that scalar with respect to each output is exactly ``ct_i``, so the result is MLX's vjp,
  with one forward pass. The scalar itself is never evaluated.
* ``vmap_leaves``: ``mx.vmap`` has ``out_axes=None`` in its signature but reads it as axis
  -1 (MLX 0.32): the output comes back batched along its last axis (repeated if it does not
  depend on the mapped inputs), or MLX raises. Mapped outputs go through ``mx.vmap`` with
  axis 0; each unmapped one is returned as traced, and passed through an identity
  ``mx.custom_function`` whose vmap rule MLX calls only if the output depends on a mapped
  input: then it is a ``ValueError`` (JAX's rule) rather than a wrong value. ``axis_size``
  is not needed: MLX takes it from the mapped leaves.
* ``compile_leaves``: ``mx.compile`` of the flat function. MLX calls Python only when it
  traces (once per input shapes and dtypes), so a compiled call costs what MLX's own compiled
  call costs; MLX's rules hold inside (no evaluation of traced arrays: ``float(x)`` raises).
* ``checkpoint_leaves``: ``mx.checkpoint`` as MLX defines it (``mx.custom_function`` whose vjp
  recomputes the function under ``mx.vjp``, after ``mx.depends`` on the forward outputs),
  written out so that it can have a vmap rule: ``mx.checkpoint`` has none, so under
  ``mx.vmap`` it stops recomputing, and ``vmap(grad(checkpoint(f)))`` fails in MLX itself
  (``Depends`` has no vmap). See ``_checkpointed``.
* ``custom_function_leaves``: ``mx.custom_function``. MLX hands a rule a single argument bare
  and several as a tuple, gives ``None`` as the tangent of an argument it does not
  differentiate, and reads an output axis of ``None`` (or any negative axis) as "unmapped"
  without broadcasting it; the adapters turn these into the contract's flat lists.
  Undefined rules fall back to MLX's default, as in MLX: a function with only a ``jvp`` rule
  is differentiated in reverse mode through its own body (``mx.custom_function`` does not
  transpose the ``jvp`` rule).

``TRACING`` (see ``gradients.py``) is set wherever MLX runs the function on traced arrays, so
an ``ivy_like.Array`` operand of an MLX op is converted by ``__mlx_array__`` (connected to the
graph) instead of DLPack, which would need the values of a traced array.
"""

from __future__ import annotations

import contextvars
from typing import Any, Callable

import mlx.core as mx

from .._common.helpers import JvpRule, LeavesFn, VjpRule, VmapFn, VmapRule
from .gradients import TRACING

# True while vmap_leaves traces: a checkpoint's backward pass built then must be mappable.
_VMAPPING: contextvars.ContextVar[bool] = contextvars.ContextVar(
    "ivy_like_mlx_vmapping", default=False
)
_ONE = mx.array(1.0)  # the cotangent of vjp's scalar; MLX casts it to the scalar's dtype


def _traced(f: Callable[..., Any]) -> Callable[..., Any]:
    """``f`` with ``TRACING`` set while it runs (it runs only when MLX traces or recomputes)."""

    def run(*leaves: Any) -> Any:
        token = TRACING.set(True)
        try:
            return f(*leaves)
        finally:
            TRACING.reset(token)

    return run


def vjp_leaves(
    f: Callable[[list[Any]], list[Any]],
    primals: list[Any],
    cotangents_for: Callable[[list[Any]], list[Any]],
) -> tuple[list[Any], list[Any]]:
    box: list[Any] = []

    def pairing(*leaves: Any) -> Any:
        outputs = f(list(leaves))
        cotangents = cotangents_for(outputs)  # raises before any backward work
        # The outputs leave through the box: they stay connected to an enclosing transform.
        box.append(outputs)
        total = None
        for out, ct in zip(outputs, cotangents):
            # d<out, conj(ct)>/d out is conj(conj(ct)) = ct under MLX's convention (the vjp
            # of a product conjugates the other factor); no conjugate needed for real ct.
            term = mx.sum(
                out * (mx.conj(ct) if mx.issubdtype(ct.dtype, mx.complexfloating) else ct)
            )
            total = term if total is None else total + term
        return total

    token = TRACING.set(True)
    try:
        _, grads = mx.vjp(pairing, list(primals), [_ONE])
    finally:
        TRACING.reset(token)
    return box[-1], list(grads)


def jvp_leaves(
    f: Callable[[list[Any]], list[Any]], primals: list[Any], tangents: list[Any]
) -> tuple[list[Any], list[Any]]:
    token = TRACING.set(True)
    try:
        outputs, jvps = mx.jvp(lambda *leaves: f(list(leaves)), list(primals), list(tangents))
    finally:
        TRACING.reset(token)
    return list(outputs), list(jvps)


def _dependence_probe(hits: list[bool]) -> Any:
    """An identity whose vmap rule records that it was called: MLX's vmap calls the rule of
    a node only when the node depends on a mapped input."""

    @mx.custom_function
    def probe(x: Any) -> Any:
        return x

    @probe.vmap
    def _(x: Any, axis: Any) -> tuple[Any, Any]:
        hits.append(True)
        return x, axis

    return probe


def vmap_leaves(
    f: VmapFn, leaves: list[Any], in_axes: list[Any], axis_size: int
) -> tuple[list[Any], list[Any]]:
    # axis_size is implied by the mapped leaves (the frontend checked that one is mapped).
    del axis_size
    box: list[Any] = []
    hits: list[bool] = []

    def mapped_only(flat: list[Any]) -> list[Any]:
        mapped, unmapped = f(list(flat))
        box.append((len(mapped), unmapped))
        if not unmapped:
            return list(mapped)
        probe = _dependence_probe(hits)
        return list(mapped) + [probe(u) for u in unmapped]

    token, vmapping = TRACING.set(True), _VMAPPING.set(True)
    try:
        # One argument (the list of leaves): MLX matches in_axes against it directly.
        outs = mx.vmap(mapped_only, in_axes=list(in_axes))(list(leaves))
    finally:
        _VMAPPING.reset(vmapping)
        TRACING.reset(token)
    n_mapped, unmapped = box[-1]
    if hits:
        raise ValueError(
            "vmap: out_axes: an output given out_axes None depends on the mapped axis; "
            "give it an integer out_axes"
        )
    # An unmapped output does not depend on the mapped inputs: its traced value is the value.
    return list(outs[:n_mapped]), list(unmapped)


def compile_leaves(f: Callable[..., list[Any]]) -> Callable[..., list[Any]]:
    # MLX runs f (and so sets TRACING) only while it traces: a new input shape or dtype.
    return mx.compile(_traced(f))  # type: ignore[no-any-return]


def _as_list(value: Any) -> list[Any]:
    """MLX passes a rule's argument bare when the function has one (a leaf is an array)."""
    return [value] if isinstance(value, mx.array) or value is None else list(value)


def _axes_list(inputs: Any, axes: Any) -> list[Any]:
    return [axes] if isinstance(inputs, mx.array) else list(axes)


def _checkpointed(fun: Callable[..., list[Any]]) -> Any:
    """``mx.checkpoint(fun)`` as MLX defines it (a custom vjp that recomputes ``fun`` under
    ``mx.vjp`` once the forward outputs exist, ordered by ``mx.depends``), plus a vmap rule.

    ``mx.checkpoint`` has no vmap rule of its own: under ``mx.vmap`` MLX's fallback maps
    ``fun`` itself, so ``grad(vmap(checkpoint(f)))`` no longer recomputes, and MLX cannot map
    the ``Depends`` node of its backward pass, so ``vmap(grad(checkpoint(f)))`` fails. Here
    the vmap rule checkpoints the mapped function, and a backward pass built while
    ``vmap_leaves`` traces skips ``mx.depends`` (an ordering hint only; the values are the
    same).
    """
    ckpt = mx.custom_function(fun)

    @ckpt.vjp
    def _vjp(primals: Any, cotangents: list[Any], outputs: list[Any]) -> list[Any]:
        leaves = _as_list(primals)
        if not _VMAPPING.get():
            leaves = mx.depends(leaves, list(outputs))
        return mx.vjp(fun, leaves, list(cotangents))[1]  # type: ignore[no-any-return]

    @ckpt.vmap
    def _vmap(inputs: Any, axes: Any) -> tuple[list[Any], list[int]]:
        # A tuple even for one argument: MLX matches it against the arguments.
        in_axes = tuple(_axes_list(inputs, axes))
        outs = _checkpointed(lambda *xs: mx.vmap(fun, in_axes=in_axes)(*xs))(*_as_list(inputs))
        return outs, [0] * len(outs)

    return ckpt


def checkpoint_leaves(f: Callable[..., list[Any]]) -> Callable[..., list[Any]]:
    # f runs in the forward pass and again, under mx.vjp, in the backward pass.
    return _checkpointed(_traced(f))  # type: ignore[no-any-return]


def custom_function_leaves(
    f: LeavesFn, vjp: VjpRule | None, jvp: JvpRule | None, vmap: VmapRule | None
) -> LeavesFn:
    fun = mx.custom_function(f)
    if vjp is not None:

        @fun.vjp
        def _vjp(primals: Any, cotangents: list[Any], outputs: list[Any]) -> list[Any]:
            return vjp(_as_list(primals), list(cotangents), list(outputs))

    if jvp is not None:

        @fun.jvp
        def _jvp(primals: Any, tangents: Any) -> list[Any]:
            leaves, given = _as_list(primals), _as_list(tangents)
            # MLX gives None for an argument it does not differentiate: its tangent is zero.
            full = [mx.zeros_like(p) if t is None else t for p, t in zip(leaves, given)]
            return jvp(leaves, full)

    if vmap is not None:

        @fun.vmap
        def _vmap(inputs: Any, axes: Any) -> tuple[list[Any], list[Any]]:
            leaves = _as_list(inputs)
            in_axes = _axes_list(inputs, axes)
            outs, out_axes = vmap(leaves, in_axes)
            size = next(x.shape[a] for x, a in zip(leaves, in_axes) if a is not None)
            fixed_outs, fixed_axes = [], []
            for out, axis in zip(outs, out_axes):
                if axis is None:
                    # MLX would take the output's last axis for the batch (it reads None as
                    # -1): give it the batch axis, first.
                    out = mx.broadcast_to(mx.expand_dims(out, 0), (size, *out.shape))
                    axis = 0
                elif axis < 0:
                    axis += out.ndim  # MLX reads a negative axis as unmapped
                fixed_outs.append(out)
                fixed_axes.append(axis)
            return fixed_outs, fixed_axes

    return fun  # type: ignore[no-any-return]
