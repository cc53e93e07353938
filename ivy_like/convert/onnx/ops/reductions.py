"""ONNX handlers for reductions, softmaxes, scans and losses.

``Reduce*`` (with ONNX's empty-set values and ``noop_with_empty_axes``), ``ArgMax``/``ArgMin``,
``Softmax``/``LogSoftmax``/``Hardmax`` (2-D coercion before opset 13), ``CumSum``/``CumProd``,
``TopK``, ``LpNormalization``, ``MeanVarianceNormalization`` and the two losses
``NegativeLogLikelihoodLoss`` and ``SoftmaxCrossEntropyLoss``. The products (``MatMul``,
``Gemm``, ``Einsum``, ``Det``, ``Trilu``) and the window functions are in :mod:`.products`.
"""

from __future__ import annotations

import math
from typing import Any

import ivy_like as il

from .._table import Node, Refused, has_dtype, index_dtype, ints, onnx_op, scalar

# --------------------------------------------------------------------------- helpers


def _dtype(x: Any) -> Any:
    """The ivy_like dtype of an Array or a NumPy array (a known input)."""
    return il.as_dtype(x.dtype)


def _cast(x: Any, dtype: Any) -> Any:
    """``x`` as ``dtype``; no op when it already is (ONNX results keep the input's dtype, while
    some backends widen small integers in sums and products)."""
    return x if _dtype(x) == il.as_dtype(dtype) else il.astype(x, dtype)


def _is_float(x: Any) -> bool:
    return bool(il.isdtype(_dtype(x), "real floating"))


def _is_bool(x: Any) -> bool:
    return _dtype(x) == il.bool


def _wide_float() -> Any:
    """The float dtype to compute integer inputs in: float64 where the backend has it."""
    return il.float64 if has_dtype("float64") else il.float32


def _axis(axis: int, rank: int, op: str) -> int:
    """A non-negative axis in ``[0, rank)`` (ONNX allows ``[-rank, rank)``)."""
    if not -max(rank, 1) <= axis < max(rank, 1):
        raise ValueError(f"{op}: axis {axis} is out of range for rank {rank}")
    return axis % max(rank, 1)


def _reduce_rule(first_input_opset: int):
    """The rule of a ``Reduce*`` operator: ``axes`` is an attribute before
    ``first_input_opset`` (13 for ReduceSum, 18 for the others) and an input from then."""

    def rule(node: Node) -> dict[str, Any]:
        kw: dict[str, Any] = {
            "keepdims": int(node.attr("keepdims", 1)),
            "noop_with_empty_axes": int(node.attr("noop_with_empty_axes", 0)),
        }
        if node.opset < first_input_opset:
            kw["axes_attr"] = tuple(int(a) for a in node.attr("axes", ()) or ())
        return kw

    return rule


def _reduced_axes(
    x: Any, axes: Any, axes_attr: tuple[int, ...] | None, noop: int, op: str
) -> tuple[int, ...] | None:
    """The axes to reduce, sorted and non-negative; ``None`` means the reduction step is
    skipped (``noop_with_empty_axes`` with no axes: only the elementwise steps run)."""
    if axes_attr is not None:
        given = axes_attr
    elif axes is not None:
        given = ints(axes, op, "axes")
    else:
        given = ()
    rank = len(x.shape)
    if not given:
        return None if noop else tuple(range(rank))
    return tuple(sorted({_axis(a, rank, op) for a in given}))


def _reduced_shape(shape: tuple[int, ...], axes: tuple[int, ...], keepdims: int) -> tuple:
    if keepdims:
        return tuple(1 if i in axes else d for i, d in enumerate(shape))
    return tuple(d for i, d in enumerate(shape) if i not in axes)


def _is_empty_set(x: Any, axes: tuple[int, ...]) -> bool:
    """Whether some output element reduces no values (a reduced dimension of size 0)."""
    return any(x.shape[a] == 0 for a in axes)


def _extreme(x: Any, largest: bool) -> Any:
    """The largest (or smallest) value of ``x``'s dtype: what ReduceMin (ReduceMax) of an empty
    set gives (infinity for floats, the integer limit, True/False for booleans)."""
    if _is_bool(x):
        return largest
    if _is_float(x):
        return float("inf") if largest else float("-inf")
    info = il.iinfo(_dtype(x))
    return int(info.max if largest else info.min)


def _with_axes(fn, op: str):
    """Wrap a reduction ``fn(x, axes, keepdims)`` into the ONNX handler signature: axes from
    the attribute or the input, the noop rule, and the result in the input's dtype."""

    def handler(
        x: Any,
        axes: Any = None,
        *,
        keepdims: int = 1,
        noop_with_empty_axes: int = 0,
        axes_attr: tuple[int, ...] | None = None,
    ) -> Any:
        reduced = _reduced_axes(x, axes, axes_attr, noop_with_empty_axes, op)
        return _cast(fn(x, reduced, bool(keepdims)), _dtype(x))

    handler.__doc__ = fn.__doc__
    handler.__name__ = handler.__qualname__ = fn.__name__
    return handler


def _register_reduce(name: str, first_input_opset: int = 18):
    def register(fn):
        handler = _with_axes(fn, name)
        return onnx_op(name, attrs=_reduce_rule(first_input_opset))(handler)

    return register


def _sum(x: Any, axes: tuple[int, ...] | None, keepdims: bool) -> Any:
    """A sum in ``x``'s dtype (no widening of small integers); None axes: no reduction."""
    if axes is None:
        return x
    return il.sum(x, axis=axes, keepdims=keepdims, dtype=_dtype(x))


# --------------------------------------------------------------------------- Reduce*


@_register_reduce("ReduceSum", first_input_opset=13)
def reduce_sum(x: Any, axes: tuple[int, ...] | None, keepdims: bool) -> Any:
    """Sum over ``axes``; an empty set sums to 0."""
    return _sum(x, axes, keepdims)


@_register_reduce("ReduceMean")
def reduce_mean(x: Any, axes: tuple[int, ...] | None, keepdims: bool) -> Any:
    """Mean over ``axes``; integers divide with truncation toward zero, as NumPy's mean cast
    back to the integer dtype does."""
    if axes is None:
        return x
    if _is_float(x):
        return il.mean(x, axis=axes, keepdims=keepdims)
    count = 1
    for a in axes:
        count *= x.shape[a]
    total = _sum(x, axes, keepdims)
    quotient = il.floor_divide(total, count)
    # floor division rounds negative quotients down: move them back toward zero
    inexact = il.logical_and(il.less(total, 0), il.not_equal(il.remainder(total, count), 0))
    return il.where(inexact, quotient + 1, quotient)


def _max_or_min(x: Any, axes: tuple[int, ...] | None, keepdims: bool, largest: bool) -> Any:
    if axes is None:
        return x
    if _is_empty_set(x, axes):
        # NumPy and the frameworks refuse a max of nothing; ONNX defines it as the identity
        value = _extreme(x, not largest)
        return il.full(_reduced_shape(tuple(x.shape), axes, keepdims), value, dtype=_dtype(x))
    if _is_bool(x):
        # False < True: max is any, min is all (every backend has those for booleans)
        return (il.any if largest else il.all)(x, axis=axes, keepdims=keepdims)
    return (il.max if largest else il.min)(x, axis=axes, keepdims=keepdims)


@_register_reduce("ReduceMax")
def reduce_max(x: Any, axes: tuple[int, ...] | None, keepdims: bool) -> Any:
    """Maximum over ``axes``; an empty set gives -inf (floats), the smallest integer, or False."""
    return _max_or_min(x, axes, keepdims, largest=True)


@_register_reduce("ReduceMin")
def reduce_min(x: Any, axes: tuple[int, ...] | None, keepdims: bool) -> Any:
    """Minimum over ``axes``; an empty set gives +inf (floats), the largest integer, or True."""
    return _max_or_min(x, axes, keepdims, largest=False)


@_register_reduce("ReduceProd")
def reduce_prod(x: Any, axes: tuple[int, ...] | None, keepdims: bool) -> Any:
    """Product over ``axes``; an empty set gives 1."""
    if axes is None:
        return x
    return il.prod(x, axis=axes, keepdims=keepdims, dtype=_dtype(x))


@_register_reduce("ReduceL1")
def reduce_l1(x: Any, axes: tuple[int, ...] | None, keepdims: bool) -> Any:
    """Sum of absolute values over ``axes``."""
    return _sum(il.abs(x), axes, keepdims)


def _in_float(x: Any, fn) -> Any:
    """``fn(x)`` for a float ``x``; integers go through a float and back (ONNX's integer
    ReduceL2/ReduceLogSum* truncate the float result)."""
    if _is_float(x):
        return fn(x)
    return il.astype(fn(il.astype(x, _wide_float())), _dtype(x))


@_register_reduce("ReduceL2")
def reduce_l2(x: Any, axes: tuple[int, ...] | None, keepdims: bool) -> Any:
    """Euclidean norm over ``axes``."""
    return _in_float(x, lambda v: il.sqrt(_sum(il.square(v), axes, keepdims)))


@_register_reduce("ReduceSumSquare")
def reduce_sum_square(x: Any, axes: tuple[int, ...] | None, keepdims: bool) -> Any:
    """Sum of squares over ``axes``."""
    return _sum(il.square(x), axes, keepdims)


@_register_reduce("ReduceLogSum")
def reduce_log_sum(x: Any, axes: tuple[int, ...] | None, keepdims: bool) -> Any:
    """``log(sum(x))`` over ``axes``; an empty set gives -inf."""
    return _in_float(x, lambda v: il.log(_sum(v, axes, keepdims)))


@_register_reduce("ReduceLogSumExp")
def reduce_log_sum_exp(x: Any, axes: tuple[int, ...] | None, keepdims: bool) -> Any:
    """``log(sum(exp(x)))`` over ``axes`` without overflow; an empty set gives -inf."""
    if axes is None:
        return x  # log(exp(x)), exactly
    if _is_empty_set(x, axes):  # MLX's logsumexp of nothing does not return: said here
        shape = _reduced_shape(tuple(x.shape), axes, keepdims)
        return il.full(shape, -math.inf, dtype=_dtype(x))
    return _in_float(x, lambda v: il.logsumexp(v, axis=axes, keepdims=keepdims))


# --------------------------------------------------------------------------- ArgMax, ArgMin


def _arg_extreme(x: Any, axis: int, keepdims: int, select_last_index: int, largest: bool) -> Any:
    fn = il.argmax if largest else il.argmin
    axis = _axis(axis, len(x.shape), "ArgMax" if largest else "ArgMin")
    if not select_last_index:
        return _cast(fn(x, axis=axis, keepdims=bool(keepdims)), index_dtype())
    # the last occurrence is the first one of the reversed axis, counted from the end
    n = x.shape[axis]
    found = fn(il.flip(x, axis=axis), axis=axis, keepdims=bool(keepdims))
    return _cast(n - 1 - found, index_dtype())


@onnx_op("ArgMax")
def arg_max(x: Any, *, axis: int = 0, keepdims: int = 1, select_last_index: int = 0) -> Any:
    """Index (int64) of the largest value along ``axis``; ties give the first index, or the
    last one with ``select_last_index``."""
    return _arg_extreme(x, axis, keepdims, select_last_index, largest=True)


@onnx_op("ArgMin")
def arg_min(x: Any, *, axis: int = 0, keepdims: int = 1, select_last_index: int = 0) -> Any:
    """Index (int64) of the smallest value along ``axis``; ties as for ArgMax."""
    return _arg_extreme(x, axis, keepdims, select_last_index, largest=False)


# --------------------------------------------------------------------------- softmaxes


def _softmax_rule(node: Node) -> dict[str, Any]:
    """Before opset 13 the input is coerced to 2-D at ``axis`` (default 1) and normalised over
    the whole second part; from 13, over the one ``axis`` (default -1)."""
    old = node.opset < 13
    return {"axis": int(node.attr("axis", 1 if old else -1)), "coerce_2d": old}


def _along(x: Any, axis: int, coerce_2d: bool, op: str, fn) -> Any:
    """``fn(x, axis)`` on ONNX's axis: on the 2-D coercion (rows ``shape[:axis]``, columns
    ``shape[axis:]``) before opset 13."""
    rank = len(x.shape)
    if not coerce_2d:
        return fn(x, _axis(axis, rank, op))
    axis = axis + rank if axis < 0 else axis
    if not 0 <= axis <= rank:
        raise ValueError(f"{op}: axis {axis} is out of range for rank {rank}")
    rows = 1
    for d in x.shape[:axis]:
        rows *= d
    cols = 1
    for d in x.shape[axis:]:
        cols *= d
    return il.reshape(fn(il.reshape(x, (rows, cols)), 1), tuple(x.shape))


@onnx_op("Softmax", attrs=_softmax_rule)
def softmax(x: Any, *, axis: int = -1, coerce_2d: bool = False) -> Any:
    """``exp(x) / sum(exp(x))`` along ``axis``."""
    return _along(x, axis, coerce_2d, "Softmax", lambda v, a: il.nn.softmax(v, axis=a))


@onnx_op("LogSoftmax", attrs=_softmax_rule)
def log_softmax(x: Any, *, axis: int = -1, coerce_2d: bool = False) -> Any:
    """``x - log(sum(exp(x)))`` along ``axis``."""
    return _along(x, axis, coerce_2d, "LogSoftmax", lambda v, a: il.nn.log_softmax(v, axis=a))


def _hardmax(x: Any, axis: int) -> Any:
    first = il.argmax(x, axis=axis, keepdims=True)
    shape = [1] * len(x.shape)
    shape[axis] = x.shape[axis]
    positions = il.reshape(il.arange(x.shape[axis], dtype=_dtype(first)), tuple(shape))
    return il.astype(il.equal(positions, first), _dtype(x))


@onnx_op("Hardmax", attrs=_softmax_rule)
def hardmax(x: Any, *, axis: int = -1, coerce_2d: bool = False) -> Any:
    """1 at the first largest value along ``axis``, 0 elsewhere (not differentiable)."""
    return _along(x, axis, coerce_2d, "Hardmax", _hardmax)


# --------------------------------------------------------------------------- CumSum, CumProd


def _scan(x: Any, axis: Any, exclusive: int, reverse: int, op: str, fn) -> Any:
    axis = _axis(int(scalar(axis, op, "axis")), len(x.shape), op)
    if reverse:
        x = il.flip(x, axis=axis)
    y = fn(x, axis=axis, dtype=_dtype(x), include_initial=bool(exclusive))
    if exclusive:
        # include_initial prepends the identity: drop the last total to keep the length
        index = (slice(None),) * axis + (slice(0, x.shape[axis]),)
        y = y[index]
    if reverse:
        y = il.flip(y, axis=axis)
    return _cast(y, _dtype(x))


@onnx_op("CumSum", since=11)
def cum_sum(x: Any, axis: Any, *, exclusive: int = 0, reverse: int = 0) -> Any:
    """Running sum along ``axis`` (a known input); ``exclusive`` leaves each element out,
    ``reverse`` runs from the end."""
    return _scan(x, axis, exclusive, reverse, "CumSum", il.cumulative_sum)


@onnx_op("CumProd", since=26)
def cum_prod(x: Any, axis: Any, *, exclusive: int = 0, reverse: int = 0) -> Any:
    """Running product along ``axis``, as CumSum."""
    return _scan(x, axis, exclusive, reverse, "CumProd", il.cumulative_prod)


# --------------------------------------------------------------------------- TopK


def _top_k_rule(node: Node) -> dict[str, Any]:
    """``k`` is an attribute before opset 10; ``largest`` and ``sorted`` come in opset 11."""
    kw: dict[str, Any] = {
        "axis": int(node.attr("axis", -1)),
        "largest": int(node.attr("largest", 1)),
        "sorted": int(node.attr("sorted", 1)),
    }
    if node.opset < 10:
        if node.attr("k") is None:
            raise Refused("TopK before opset 10 needs the k attribute")
        kw["k_attr"] = int(node.attr("k"))
    return kw


@onnx_op("TopK", attrs=_top_k_rule)
def top_k(
    x: Any,
    k: Any = None,
    *,
    axis: int = -1,
    largest: int = 1,
    sorted: int = 1,  # noqa: A002 - ONNX's attribute name
    k_attr: int | None = None,
) -> Any:
    """The ``k`` largest (or smallest) values along ``axis`` and their int64 indices, always
    sorted; equal values keep the lower index first."""
    count = k_attr if k_attr is not None else int(scalar(k, "TopK", "k"))
    axis = _axis(axis, len(x.shape), "TopK")
    last = il.moveaxis(x, axis, -1) if axis != len(x.shape) - 1 else x
    if largest:
        values, indices = il.top_k(last, count)
    else:
        # a stable ascending sort keeps the lower index first among equal values
        order = il.argsort(last, axis=-1, stable=True)[..., :count]
        values, indices = il.take_along_axis(last, order, axis=-1), order
    if axis != len(x.shape) - 1:
        values, indices = il.moveaxis(values, -1, axis), il.moveaxis(indices, -1, axis)
    return values, _cast(indices, index_dtype())


# --------------------------------------------------------------------------- normalisations


def _lp_rule(node: Node) -> dict[str, Any]:
    p = int(node.attr("p", 2))
    if p not in (1, 2):
        raise Refused(f"LpNormalization: p must be 1 or 2, got {p}")
    return {"axis": int(node.attr("axis", -1)), "p": p}


@onnx_op("LpNormalization", attrs=_lp_rule)
def lp_normalization(x: Any, *, axis: int = -1, p: int = 2) -> Any:
    """``x / ||x||_p`` along ``axis``; 0 where the norm is 0."""
    axis = _axis(axis, len(x.shape), "LpNormalization")
    if p == 1:
        norm = il.sum(il.abs(x), axis=axis, keepdims=True)
    else:
        norm = il.sum(il.square(x), axis=axis, keepdims=True)
    # a zero norm only comes with an all-zero slice: dividing it by 1 gives the 0 ONNX asks
    # for, and keeps sqrt's infinite slope at 0 out of the gradient
    safe = il.where(il.equal(norm, 0), il.ones_like(norm), norm)
    return x / (safe if p == 1 else il.sqrt(safe))


@onnx_op("MeanVarianceNormalization", since=9)
def mean_variance_normalization(x: Any, *, axes: Any = (0, 2, 3)) -> Any:
    """``(x - mean) / (std + 1e-9)`` over ``axes`` (the variance as ``E[x^2] - E[x]^2``)."""
    reduced = tuple(
        sorted({_axis(int(a), len(x.shape), "MeanVarianceNormalization") for a in axes})
    )
    mean = il.mean(x, axis=reduced, keepdims=True)
    variance = il.mean(il.square(x), axis=reduced, keepdims=True) - il.square(mean)
    # rounding can make the variance of a constant slice slightly negative: clamp it at 0
    std = il.sqrt(il.maximum(variance, il.zeros_like(variance)))
    return (x - mean) / (std + 1e-9)


# --------------------------------------------------------------------------- losses


def _nll(log_prob: Any, target: Any, weight: Any, reduction: str, ignore_index: int | None) -> Any:
    """The negative log-likelihood of ``target``'s classes (axis 1 of ``log_prob``), weighted,
    with ``ignore_index`` targets giving 0 and left out of the mean."""
    if len(log_prob.shape) < 2:
        raise ValueError("NegativeLogLikelihoodLoss: the input must have shape (N, C, ...)")
    valid = None
    if ignore_index is not None:
        valid = il.not_equal(target, ignore_index)
        # an ignored target may be any value, even out of [0, C): gather class 0 instead
        target = il.where(valid, target, il.zeros_like(target))
    picked = il.take_along_axis(log_prob, il.expand_dims(target, axis=1), axis=1)
    loss = -il.squeeze(picked, axis=1)
    weights = None
    if weight is not None:
        weights = il.take(weight, target, axis=0)
    if valid is not None:
        loss = il.where(valid, loss, il.zeros_like(loss))
        weights = il.where(valid, weights, il.zeros_like(weights)) if weights is not None else None
        if weights is None:
            weights = il.astype(valid, _dtype(log_prob))
    if weight is not None:
        loss = loss * weights
    if reduction == "none":
        return loss
    if reduction == "sum":
        return il.sum(loss)
    if reduction != "mean":
        raise ValueError(f"NegativeLogLikelihoodLoss: unknown reduction {reduction!r}")
    if weights is None:
        return il.mean(loss)
    return il.sum(loss) / il.sum(weights)


def _loss_rule(node: Node) -> dict[str, Any]:
    reduction = node.attr("reduction", "mean")
    if isinstance(reduction, bytes):
        reduction = reduction.decode()
    if reduction not in ("none", "sum", "mean"):
        raise Refused(f"{node.op_type}: unknown reduction {reduction!r}")
    ignore = node.attr("ignore_index")
    kw = {"reduction": reduction, "ignore_index": None if ignore is None else int(ignore)}
    if node.op_type == "SoftmaxCrossEntropyLoss":
        kw["log_prob"] = sum(o is not None for o in node.outs) > 1
    return kw


@onnx_op("NegativeLogLikelihoodLoss", since=12, attrs=_loss_rule)
def negative_log_likelihood_loss(
    x: Any,
    target: Any,
    weight: Any = None,
    *,
    reduction: str = "mean",
    ignore_index: int | None = None,
) -> Any:
    """``-x[n, target[n, ...], ...]`` (times ``weight[target]``), reduced by ``reduction``: the
    weighted mean divides by the sum of the weights used."""
    return _nll(x, target, weight, reduction, ignore_index)


@onnx_op("SoftmaxCrossEntropyLoss", since=12, attrs=_loss_rule)
def softmax_cross_entropy_loss(
    scores: Any,
    labels: Any,
    weights: Any = None,
    *,
    reduction: str = "mean",
    ignore_index: int | None = None,
    log_prob: bool = False,
) -> Any:
    """NegativeLogLikelihoodLoss of ``log_softmax(scores)`` over the classes (axis 1); with a
    second output, also the log-probabilities."""
    logp = il.nn.log_softmax(scores, axis=1)
    loss = _nll(logp, labels, weights, reduction, ignore_index)
    return (loss, logp) if log_prob else loss
