"""The losses of the nn family, with ``torch.nn.functional``'s names, arguments and numbers:
``cross_entropy``, ``mse_loss``, ``binary_cross_entropy`` (and ``_with_logits``),
``nll_loss``, ``huber_loss``, ``smooth_l1_loss`` and ``kl_div``.

Arguments that torch takes positionally only after its deprecated ``size_average``/``reduce``
are keyword-only here, so that every call that is valid here means the same in torch. The
argument checks are declared with each op (``check=``) and run before any kernel, so a bad
argument is the same error on every backend; ``cross_entropy`` and ``mse_loss`` check in their
bodies instead, since their fast kernels (torch's) hand every argument they do not take, bad
ones included, to the composite, and so pay nothing for the checks. The arithmetic is ivy_like functions rather
than operators on the native arrays: MXNet's own operators fail on 0-d arrays (the loss of a
1-D ``nll_loss`` input, any loss of 0-d inputs).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any

from ...core.registry import op
from ._helpers import NN, dims, int_shape, is_float, is_int, optional_dims


def _reduction(value: Any, reduction: str, who: str, weight: Any = None) -> Any:
    """``value`` (times ``weight``, when given) reduced as ``reduction`` says."""
    il = sys.modules["ivy_like"]  # the namespace, built after these declarations
    if weight is not None:
        value = il.multiply(value, weight)
    if reduction == "mean":
        return il.mean(value)
    if reduction == "sum":
        return il.sum(value)
    if reduction == "none":
        return value
    raise ValueError(f"{who}: reduction must be 'mean', 'sum' or 'none', got {reduction!r}")


@op(arrays=("logits", "labels"), **NN)
def cross_entropy(logits: Any, labels: Any, reduction: str = "mean"):
    """Softmax cross-entropy with the classes on the last axis of ``logits``.

    ``labels`` holds integer class indices (the shape of ``logits`` without its last axis),
    or floating class probabilities of the shape of ``logits``. ``reduction``: ``"mean"``,
    ``"sum"`` or ``"none"``. A class index outside ``[0, classes)`` is a ``ValueError`` naming
    its position and value in eager code on every backend; in traced code (``jax.jit``,
    ``tf.function``, ``mx.compile``) the values are unknown, nothing is checked, and such a
    label matches no class: its loss is 0 (``torch.compile``: torch's own RuntimeError from
    the compiled bounds check).

    Examples
    --------
    >>> import ivy_like
    >>> logits = ivy_like.array([[0., 0.], [0., 0.]])
    >>> ivy_like.nn.cross_entropy(logits, ivy_like.array([0, 1]))
    ivy_like.array(0.6931472)
    """
    il = sys.modules["ivy_like"]  # the namespace, built after these declarations
    logp = il.nn.log_softmax(logits, axis=-1)
    lshape, tshape = int_shape(logits), int_shape(labels)
    if tshape == lshape and is_float(labels):
        losses = -il.sum(labels * logp, axis=-1)
    elif tshape == lshape[:-1]:
        if not is_int(labels):
            raise TypeError(
                f"cross_entropy: labels of shape {tshape} are class indices and must be "
                f"integers, got dtype {labels.dtype}"
            )
        classes = il.to_native(il.arange(lshape[-1]))  # creation gives an Array
        _check_labels(il, labels, classes, lshape[-1])
        hit = il.equal(il.expand_dims(labels, axis=-1), classes)
        losses = -il.sum(il.where(hit, logp, il.zeros_like(logp)), axis=-1)
    else:
        raise ValueError(
            f"cross_entropy: labels of shape {tshape} do not fit logits of shape {lshape} "
            f"(expected {lshape[:-1]} class indices or {lshape} probabilities)"
        )
    return _reduction(losses, reduction, "cross_entropy")


def _check_labels(
    il: Any,
    labels: Any,
    classes: Any,
    n: int,
    who: str = "cross_entropy",
    names: tuple[str, str] = ("labels", "logits"),
) -> None:
    """Class indices outside ``[0, n)`` are a ValueError where their values can be read.

    ``take`` reads them: every backend bounds-checks the index values it can read (eager
    code, on the failure path of the framework's own check or from one min/max on the host)
    and passes traced ones on unchecked, which is the rule wanted here. Negative labels are
    first replaced by ``n``, out of take's range (take counts ``-n..-1`` from the end). Three
    ops for 1-D int32/int64 labels: measured +5 µs on NumPy, +6 on torch, +25-28 on MLX,
    +37-45 on TensorFlow and +34-70 on JAX (eager, two runs on a shared 2-core machine) for
    64 labels and 10 classes.
    """
    flat = labels if len(int_shape(labels)) == 1 else il.reshape(labels, (-1,))
    if il.as_dtype(labels.dtype).bits < 32:  # so that n fits (300 in int8 would wrap to 44)
        flat = il.astype(flat, il.int32)
    try:
        il.take(classes, il.where(flat < 0, n, flat))
    except IndexError:
        try:
            values = il.to_numpy(labels)
        except RuntimeError:  # inside torch.func.vmap: each example has its own labels
            values = None
        raise ValueError(label_error(values, n, who, names)) from None


def label_error(
    values: Any,
    n: int,
    who: str = "cross_entropy",
    names: tuple[str, str] = ("labels", "logits"),
    ignore_index: int | None = None,
) -> str:
    """The message for the first label of ``values`` (a NumPy array, or None when they
    cannot be read) outside ``[0, n)``; ``names`` are those of the labels and of the scores
    (``ignore_index``: a label value that is allowed anyway)."""
    labels, scores = names
    classes = f"a class index of {scores} with {n} classes (0 to {n - 1})"
    if values is None:
        return f"{who}: {labels} hold a value that is not {classes}"
    flat = values.reshape(-1).tolist()
    i = next(i for i, v in enumerate(flat) if not 0 <= v < n and v != ignore_index)
    return f"{who}: {_element(labels, values.shape, i)} is {flat[i]}, not {classes}"


def _element(name: str, shape: Sequence[int], i: int) -> str:
    """``name[2, 1]``: the element at flat (C order) position ``i`` of an array of ``shape``."""
    position = []
    for size in reversed(shape):
        i, rest = divmod(i, size)
        position.append(str(rest))
    return f"{name}[{', '.join(reversed(position))}]" if position else name


@op(arrays=("input", "target"), **NN)
def mse_loss(input: Any, target: Any, reduction: str = "mean"):  # noqa: A002 - PyTorch's name
    """Mean squared error ``(input - target) ** 2``, reduced by ``reduction``.

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.nn.mse_loss(ivy_like.array([1., 2.]), ivy_like.array([1., 4.]))
    ivy_like.array(2.)
    """
    if int_shape(input) != int_shape(target):
        raise ValueError(
            f"mse_loss: input and target must have the same shape, got {int_shape(input)} and "
            f"{int_shape(target)} (broadcasting in a loss is almost always a bug)"
        )
    diff = input - target
    return _reduction(diff * diff, reduction, "mse_loss")


_REDUCTIONS = ("mean", "sum", "none")


def _one_of(values: Sequence[str]) -> str:
    quoted = [repr(v) for v in values]
    return ", ".join(quoted[:-1]) + " or " + quoted[-1]


def check_reduction(who: str, reduction: Any, allowed: Sequence[str] = _REDUCTIONS) -> None:
    """``reduction`` must be one of ``allowed`` (torch's names)."""
    if reduction not in allowed:
        raise ValueError(f"{who}: reduction must be {_one_of(allowed)}, got {reduction!r}")


def _broadcasts_to(shape: Sequence[int], target: Sequence[int]) -> bool:
    """True when an array of ``shape`` broadcasts to ``target`` without changing it."""
    return len(shape) <= len(target) and all(
        a in (1, b) for a, b in zip(reversed(shape), reversed(target))
    )


def check_loss(
    who: str,
    input: Any,  # noqa: A002 - PyTorch's name
    target: Any,
    reduction: Any,
    reductions: Sequence[str] = _REDUCTIONS,
    **weights: Any,
) -> None:
    """The checks of an elementwise loss: ``reduction``, one shape for ``input`` and
    ``target``, and weights (arrays, or None) that broadcast to it.

    Examples
    --------
    >>> import ivy_like
    >>> x = ivy_like.zeros((2, 3))
    >>> ivy_like.nn.huber_loss(x, x, weight=ivy_like.ones((3, 1)))
    Traceback (most recent call last):
    ...
    ValueError: huber_loss: weight of shape (3, 1) does not broadcast to the shape of input (2, 3)
    """
    check_reduction(who, reduction, reductions)
    input_shape, target_shape = dims(input), dims(target)
    if input_shape != target_shape:
        raise ValueError(
            f"{who}: input and target must have the same shape, got {input_shape} and "
            f"{target_shape} (broadcasting in a loss is almost always a bug)"
        )
    for name, weight in weights.items():
        shape = optional_dims(weight)
        if shape is not None and not _broadcasts_to(shape, input_shape):
            raise ValueError(
                f"{who}: {name} of shape {shape} does not broadcast to the shape of input "
                f"{input_shape}"
            )


def check_number(who: str, name: str, value: Any, positive: bool = False) -> None:
    """``value`` must be a real number ``>= 0`` (``> 0`` when ``positive``)."""
    if (
        not isinstance(value, (int, float))
        or isinstance(value, bool)
        or not (value > 0 if positive else value >= 0)
    ):
        kind = "positive" if positive else "non-negative"
        raise ValueError(f"{who}: {name} must be a {kind} number, got {value!r}")


def probability_error(who: str, values: dict[str, Any]) -> str:
    """The message for the first value outside ``[0, 1]`` (or NaN) among ``values``
    (name -> NumPy array, in the order they are checked)."""
    for name, array in values.items():
        flat = array.reshape(-1).tolist()
        for i, v in enumerate(flat):
            if not 0.0 <= v <= 1.0:
                return (
                    f"{who}: {_element(name, array.shape, i)} is {v}, not a probability in [0, 1]"
                )
    return f"{who}: input and target must hold probabilities in [0, 1]"


def _check_probabilities(il: Any, input: Any, target: Any, who: str) -> None:  # noqa: A002
    """Values of ``input`` or ``target`` outside ``[0, 1]`` (NaN too) are a ValueError, as
    torch's check, where they can be read. As in :func:`_check_labels`, ``take``'s bounds
    check reads them: a one-element flag, 1 when a value is bad, is taken at itself, which is
    out of range exactly then. Eager code is checked on every backend, traced code
    (``jax.jit``, ``tf.function``, ``mx.compile``) passes unchecked. ``x * (1 - x) >= 0``
    holds exactly on ``[0, 1]`` and is False for NaN.
    """
    inside = il.logical_and(
        il.greater_equal(il.multiply(input, il.subtract(1.0, input)), 0.0),
        il.greater_equal(il.multiply(target, il.subtract(1.0, target)), 0.0),
    )
    flag = il.reshape(il.astype(il.logical_not(il.all(inside)), il.int32), (1,))
    try:
        il.take(flag, flag)
    except IndexError:
        values = {"input": il.to_numpy(input), "target": il.to_numpy(target)}
        raise ValueError(probability_error(who, values)) from None


def _safe_log(il: Any, x: Any, inside: Any, log: Any) -> Any:
    """``max(log(x), -100)`` where ``inside``, else -100 (torch's clamp of a log of 0), with a
    finite gradient everywhere: the log never sees a value outside its domain."""
    safe = log(il.where(inside, x, 0.5))
    return il.where(inside, il.clip(safe, min=-100.0), -100.0)


def _check_bce(input: Any, target: Any, weight: Any, *, reduction: Any) -> None:  # noqa: A002
    check_loss("binary_cross_entropy", input, target, reduction, weight=weight)


@op(arrays=("input", "target", "weight"), check=_check_bce, **NN)
def binary_cross_entropy(
    input: Any,  # noqa: A002 - PyTorch's name
    target: Any,
    weight: Any = None,
    *,
    reduction: str = "mean",
):
    """Binary cross-entropy of probabilities ``input`` against ``target`` (both in
    ``[0, 1]``): ``-weight * (target * log(input) + (1 - target) * log(1 - input))``, each log
    clamped at -100 as in PyTorch. ``weight`` broadcasts to the shape of ``input``.

    A value outside ``[0, 1]`` (or NaN) is a ``ValueError`` naming its position, in eager code
    on every backend; traced code (``jax.jit``, ``tf.function``, ``mx.compile``) is not
    checked and such a value gives NaN. At an input of exactly 0 or 1 the loss is clamped
    (100 per element at most) and the gradient is finite, but it is not torch's there.

    Examples
    --------
    >>> import ivy_like
    >>> p = ivy_like.array([0.5, 0.9, 0.2])
    >>> y = ivy_like.array([1., 1., 0.])
    >>> loss = ivy_like.nn.binary_cross_entropy(p, y, reduction="none")
    >>> [round(float(v), 4) for v in loss.to_numpy()]
    [0.6931, 0.1054, 0.2231]
    """
    il = sys.modules["ivy_like"]  # the namespace, built after these declarations
    who = "binary_cross_entropy"
    _check_probabilities(il, input, target, who)
    log_p = _safe_log(il, input, il.greater(input, 0.0), il.log)
    log_q = _safe_log(il, il.negative(input), il.less(input, 1.0), il.log1p)  # log(1 - input)
    likelihood = il.add(il.multiply(target, log_p), il.multiply(il.subtract(1.0, target), log_q))
    return _reduction(il.negative(likelihood), reduction, who, weight)


def _softplus(il: Any, z: Any) -> Any:
    """``log(1 + exp(z))`` without overflow and with the exact gradient ``sigmoid(z)``
    everywhere, 0 included (``max(z, 0) + log1p(exp(-|z|))`` has ties at 0 that backends
    split differently, and TensorFlow's ``logaddexp`` gives 0 for the gradient there)."""
    up = il.greater(z, 0.0)
    return il.add(il.where(up, z, 0.0), il.log1p(il.exp(il.where(up, il.negative(z), z))))


def _check_bce_logits(input: Any, target: Any, weight: Any, **options: Any) -> None:  # noqa: A002
    """``options``: ``reduction`` and ``pos_weight``, the keyword-only parameters."""
    check_loss("binary_cross_entropy_with_logits", input, target, weight=weight, **options)


@op(arrays=("input", "target", "weight", "pos_weight"), check=_check_bce_logits, **NN)
def binary_cross_entropy_with_logits(
    input: Any,  # noqa: A002 - PyTorch's name
    target: Any,
    weight: Any = None,
    *,
    reduction: str = "mean",
    pos_weight: Any = None,
):
    """Binary cross-entropy of ``sigmoid(input)`` against ``target``, computed from the
    logits without overflow: ``weight * ((1 - target) * input + (1 + (pos_weight - 1) *
    target) * log(1 + exp(-input)))``. ``pos_weight`` weighs the positive term (one per class
    on the last axis, or any shape that broadcasts to ``input``), ``weight`` each element.

    Examples
    --------
    >>> import ivy_like
    >>> z = ivy_like.array([0., 2., -1.])
    >>> y = ivy_like.array([1., 1., 0.])
    >>> loss = ivy_like.nn.binary_cross_entropy_with_logits(z, y, reduction="none")
    >>> [round(float(v), 4) for v in loss.to_numpy()]
    [0.6931, 0.1269, 0.3133]
    """
    il = sys.modules["ivy_like"]  # the namespace, built after these declarations
    minus_log_sigmoid = _softplus(il, il.negative(input))  # -log(sigmoid(input))
    if pos_weight is not None:
        log_weight = il.add(1.0, il.multiply(il.subtract(pos_weight, 1.0), target))
        minus_log_sigmoid = il.multiply(log_weight, minus_log_sigmoid)
    losses = il.add(il.multiply(il.subtract(1.0, target), input), minus_log_sigmoid)
    return _reduction(losses, reduction, "binary_cross_entropy_with_logits", weight)


def _check_nll(
    input: Any,  # noqa: A002 - PyTorch's name
    target: Any,
    weight: Any,
    *,
    ignore_index: Any,
    reduction: Any,
) -> None:
    """``target`` holds class indices of ``input``'s axis 1 (axis 0 for a 1-D ``input``).

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.nn.nll_loss(ivy_like.zeros((4, 3)), ivy_like.zeros(3, dtype="int64"))
    Traceback (most recent call last):
    ...
    ValueError: nll_loss: target of shape (3,) does not fit input of shape (4, 3) (expected (4,): the shape of input without its class axis 1)
    """
    check_reduction("nll_loss", reduction)
    input_shape, target_shape, weight_shape = dims(input), dims(target), optional_dims(weight)
    if not input_shape:
        raise ValueError("nll_loss: input must have at least 1 dimension (the classes), got 0")
    axis = 0 if len(input_shape) == 1 else 1
    expected = input_shape[:axis] + input_shape[axis + 1 :]
    if target_shape != expected:
        raise ValueError(
            f"nll_loss: target of shape {target_shape} does not fit input of shape "
            f"{input_shape} (expected {expected}: the shape of input without its class axis "
            f"{axis})"
        )
    if not is_int(target):
        raise TypeError("nll_loss: target holds class indices and must have an integer dtype")
    if weight_shape is not None and weight_shape != (input_shape[axis],):
        raise ValueError(
            f"nll_loss: weight must have shape ({input_shape[axis]},) (one per class), got "
            f"{weight_shape}"
        )


@op(arrays=("input", "target", "weight"), check=_check_nll, **NN)
def nll_loss(
    input: Any,  # noqa: A002 - PyTorch's name
    target: Any,
    weight: Any = None,
    *,
    ignore_index: int = -100,
    reduction: str = "mean",
):
    """Negative log-likelihood of class indices ``target`` under log-probabilities ``input``.

    PyTorch's layout: the classes are axis 1 of ``input`` (``(N, C)`` or ``(N, C, d1, ...)``;
    a 1-D ``input`` is one example with a 0-d ``target``), which is where
    ``log_softmax(x, axis=1)`` puts them. ``cross_entropy`` takes them on the last axis
    instead; for 2-D inputs the two agree. ``weight`` (one per class) weighs each term, and
    ``"mean"`` divides by the sum of the weights of the targets counted (``1`` each without
    ``weight``). Targets equal to ``ignore_index`` count nothing (0 under ``"none"``).

    A class index outside ``[0, C)`` is a ``ValueError`` naming its position and value, in
    eager code on every backend; in traced code it is not checked and counts nothing.

    Examples
    --------
    >>> import ivy_like
    >>> logp = ivy_like.log(ivy_like.array([[0.5, 0.25, 0.25], [0.1, 0.1, 0.8]]))
    >>> ivy_like.nn.nll_loss(logp, ivy_like.array([0, 2]), reduction="none")
    ivy_like.array([0.6931472 , 0.22314353])
    >>> ivy_like.nn.nll_loss(logp, ivy_like.array([0, -100]))   # the second is ignored
    ivy_like.array(0.6931472)
    """
    il = sys.modules["ivy_like"]  # the namespace, built after these declarations
    shape = int_shape(input)
    axis = 0 if len(shape) == 1 else 1
    n = shape[axis]
    classes = il.to_native(il.arange(n))  # creation gives an Array
    valid = il.not_equal(target, ignore_index)
    _check_labels(il, il.where(valid, target, 0), classes, n, "nll_loss", ("target", "input"))
    trailing = (1,) * (len(shape) - axis - 1)  # classes broadcast along axis 1 of input
    hit = il.equal(il.expand_dims(target, axis=axis), il.reshape(classes, (n, *trailing)))
    picked = il.sum(il.where(hit, input, 0.0), axis=axis)
    if weight is None:
        counted = il.astype(valid, input.dtype)
    else:
        w = il.sum(il.where(hit, il.reshape(weight, (n, *trailing)), 0.0), axis=axis)
        counted = il.where(valid, w, 0.0)
    losses = il.negative(il.multiply(picked, counted))
    if reduction == "mean":
        return il.divide(il.sum(losses), il.sum(counted))
    return _reduction(losses, reduction, "nll_loss")


def _check_huber(
    input: Any,  # noqa: A002 - PyTorch's name
    target: Any,
    reduction: Any,
    delta: Any,
    weight: Any,
) -> None:
    check_loss("huber_loss", input, target, reduction, weight=weight)
    check_number("huber_loss", "delta", delta, positive=True)


@op(arrays=("input", "target", "weight"), check=_check_huber, **NN)
def huber_loss(
    input: Any,  # noqa: A002 - PyTorch's name
    target: Any,
    reduction: str = "mean",
    delta: float = 1.0,
    weight: Any = None,
):
    """Huber loss: ``0.5 * d**2`` where ``|d| < delta``, else ``delta * (|d| - 0.5 * delta)``,
    for ``d = input - target``, times ``weight`` (any shape that broadcasts to ``input``).
    ``delta`` must be positive. The argument order is torch's, all of them positional.

    Examples
    --------
    >>> import ivy_like
    >>> x = ivy_like.array([0.5, 3.0, -2.0])
    >>> ivy_like.nn.huber_loss(x, ivy_like.zeros(3), reduction="none")
    ivy_like.array([0.125, 2.5  , 1.5  ])
    """
    il = sys.modules["ivy_like"]  # the namespace, built after these declarations
    delta = float(delta)
    diff = il.subtract(input, target)
    size = il.abs(diff)
    square = il.multiply(0.5, il.multiply(diff, diff))
    losses = il.where(
        il.less(size, delta), square, il.multiply(delta, il.subtract(size, delta / 2))
    )
    return _reduction(losses, reduction, "huber_loss", weight)


def _check_smooth_l1(input: Any, target: Any, *, reduction: Any, beta: Any) -> None:  # noqa: A002
    check_loss("smooth_l1_loss", input, target, reduction)
    check_number("smooth_l1_loss", "beta", beta)


@op(arrays=("input", "target"), check=_check_smooth_l1, **NN)
def smooth_l1_loss(
    input: Any,  # noqa: A002 - PyTorch's name
    target: Any,
    *,
    reduction: str = "mean",
    beta: float = 1.0,
):
    """Smooth L1 loss: ``0.5 * d**2 / beta`` where ``|d| < beta``, else ``|d| - 0.5 * beta``,
    for ``d = input - target`` (``huber_loss / beta``; ``beta=0`` is the L1 loss).

    Examples
    --------
    >>> import ivy_like
    >>> x = ivy_like.array([0.5, 3.0, -2.0])
    >>> ivy_like.nn.smooth_l1_loss(x, ivy_like.zeros(3), reduction="none", beta=2.0)
    ivy_like.array([0.0625, 2.    , 1.    ])
    """
    il = sys.modules["ivy_like"]  # the namespace, built after these declarations
    beta = float(beta)
    diff = il.subtract(input, target)
    size = il.abs(diff)
    if beta == 0.0:
        losses = size
    else:
        square = il.multiply(0.5 / beta, il.multiply(diff, diff))
        losses = il.where(il.less(size, beta), square, il.subtract(size, beta / 2))
    return _reduction(losses, reduction, "smooth_l1_loss")


def _check_kl_div(input: Any, target: Any, *, reduction: Any, log_target: Any) -> None:  # noqa: A002
    check_loss("kl_div", input, target, reduction, ("mean", "sum", "none", "batchmean"))


@op(arrays=("input", "target"), check=_check_kl_div, **NN)
def kl_div(
    input: Any,  # noqa: A002 - PyTorch's name
    target: Any,
    *,
    reduction: str = "mean",
    log_target: bool = False,
):
    """Kullback-Leibler divergence ``target * (log(target) - input)`` pointwise, with
    ``input`` log-probabilities and ``target`` probabilities (log-probabilities with
    ``log_target=True``); a target of 0 contributes 0.

    ``reduction="batchmean"`` (sum divided by the size of axis 0) is the divergence of
    distributions over the trailing axes; ``"mean"`` (torch's default, kept) divides by the
    number of elements instead, as torch does (where it also warns).

    Examples
    --------
    >>> import ivy_like
    >>> logq = ivy_like.log(ivy_like.array([[0.5, 0.5], [0.9, 0.1]]))
    >>> p = ivy_like.array([[0.5, 0.5], [0.5, 0.5]])
    >>> round(float(ivy_like.nn.kl_div(logq, p, reduction="batchmean")), 6)
    0.255413
    """
    il = sys.modules["ivy_like"]  # the namespace, built after these declarations
    if log_target:
        losses = il.multiply(il.exp(target), il.subtract(target, input))
    else:
        # xlogy(target, target): 0 where target is 0 (with a finite gradient there)
        zero = il.equal(target, 0.0)
        entropy = il.where(zero, 0.0, il.multiply(target, il.log(il.where(zero, 1.0, target))))
        losses = il.subtract(entropy, il.multiply(target, input))
    if reduction == "batchmean":
        total = il.sum(losses)
        shape = int_shape(input)
        # a float: NumPy's float32 scalar divided by an int gives float64 through il.divide
        return il.divide(total, float(shape[0])) if shape else total
    return _reduction(losses, reduction, "kl_div")
