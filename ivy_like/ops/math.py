"""Ops beyond the array API standard that users of ``jax.numpy``, ``keras.ops`` and ``torch``
reach for: ``einsum``, ``one_hot``, ``logsumexp``, ``top_k``, ``scatter_add``,
``segment_sum`` and ``segment_max``. (``pad`` is a manipulation function, in
``manipulation.py``.)

Decided once for every backend, with NumPy's and JAX's meaning:

* ``einsum`` reads its subscripts as NumPy does: spaces ignored, ``...`` for broadcast
  dimensions, a label of size 1 broadcasting across operands, the implicit output in
  alphabetical (ASCII) order; mixed dtypes promote.
* ``one_hot`` compares each index with ``0 .. num_classes - 1``, as ``jax.nn.one_hot`` does: an
  index outside that range (a negative one included: it does not count from the end) gives a row
  of zeros. The indices must be integers (jax would also compare floats; a float index is
  rarely meant).
* ``top_k`` compares values as ``sort`` does: ties keep the lower index first (as in
  ``jax.lax.top_k``), -0.0 equals 0.0 and every NaN is the largest value (``jax.lax.top_k``
  puts -0.0 below 0.0, and a NaN whose sign bit is set, as ``inf - inf`` gives, below -inf); the
  indices have the backend's default integer dtype (as ``argsort``).
* ``scatter_add`` is ``x.at[indices].add(updates)`` of JAX: negative indices count from the end,
  indices outside ``[-n, n)`` are dropped (no backend reads index values on the host, so it works
  unchanged under ``jax.jit``, ``tf.function`` and ``torch.compile``), ``updates`` are cast to
  ``x``'s dtype.
* ``segment_sum``/``segment_max`` are ``jax.ops.segment_sum``/``segment_max``: ids outside
  ``[0, num_segments)`` (negative ones too) are dropped, an empty segment is 0 for the sum and
  the lowest value of the dtype for the max (-inf for floats, the minimum for integers); NaN
  propagates through the max.

Bad arguments get one error type on every backend, naming the argument: each op declares its
argument rules here, beside it (``@op(check=...)``), and they run before any kernel (einsum
subscripts that do not fit, ``k`` beyond the last axis, shapes that do not match, indices that
are not integers), with the generic helpers of :mod:`ivy_like.core.decided_errors`.
"""

from __future__ import annotations

import functools
from typing import Any

from ..core.decided_errors import (
    NUMERIC,
    REAL,
    REAL_FLOAT,
    Shape,
    axis_in_range,
    decided,
    int_error,
    integer_array_error,
    kind_error,
    leading_axis_error,
    shape_of,
)
from ..core.registry import op

_LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"


def _einsum_fault(subscripts: str, what: str) -> Exception:
    return decided(ValueError(f"einsum: subscripts {subscripts!r}: {what}"))


def _einsum_term(subscripts: str, term: str, where: str) -> tuple[str, str, bool]:
    """(labels before '...', labels after it, whether it has one) of one term."""
    head, dots, tail = term.partition("...")
    for c in head + tail:
        if c not in _LETTERS:
            what = "a '.' outside '...'" if c == "." else f"{c!r}"
            raise _einsum_fault(
                subscripts,
                f"{where} holds {what}; labels are letters a-z and A-Z, with at "
                "most one '...' per term",
            )
    return head, tail, bool(dots)


def einsum_labels(
    subscripts: Any, shapes: list[Shape | None]
) -> tuple[list[str], str, dict[str, int]]:
    """NumPy's reading of ``einsum`` subscripts for operands of ``shapes``: each operand's labels
    and the output's, with every ``...`` written out as letters the subscripts do not use (the
    operands' ``...`` dimensions align from the right, so one letter per broadcast dimension),
    and the size of every label (the largest: a size of 1 broadcasts across operands, as in
    NumPy). Raises the decided ``TypeError``/``ValueError`` for subscripts that are not a str,
    that NumPy refuses, or that do not fit the shapes (None: a shape that cannot be read)."""
    if not isinstance(subscripts, str):
        raise decided(
            TypeError(
                f"einsum: subscripts must be a str such as 'ij,jk->ik', got "
                f"{type(subscripts).__name__}"
            )
        )
    text = subscripts.replace(" ", "")
    if text.count("->") > 1:
        raise _einsum_fault(subscripts, "more than one '->'")
    inputs, arrow, output = text.partition("->")
    terms = inputs.split(",")
    if len(terms) != len(shapes):
        raise decided(
            ValueError(
                f"einsum: subscripts {subscripts!r} name {len(terms)} operand(s), got "
                f"{len(shapes)} operands"
            )
        )
    parsed = [_einsum_term(subscripts, t, f"the term {t!r}") for t in terms]
    used = {c for head, tail, _ in parsed for c in head + tail}
    spare = [c for c in _LETTERS if c not in used]
    ranks: list[int] = []  # '...' dimensions of each operand
    for i, ((head, tail, dots), shape) in enumerate(zip(parsed, shapes)):
        n = len(head) + len(tail)
        ndim = n if shape is None else len(shape)
        if ndim < n or (ndim > n and not dots):
            raise decided(
                ValueError(
                    f"einsum: the term {terms[i]!r} of subscripts {subscripts!r} has {n} "
                    f"label(s) but operands[{i}] has {ndim} dimension(s)"
                )
            )
        ranks.append(ndim - n)
    extra = max(ranks, default=0)
    if extra > len(spare):
        raise _einsum_fault(subscripts, "too many dimensions for the 52 labels")
    ellipsis = "".join(spare[:extra])
    labels = [head + ellipsis[extra - r :] + tail for (head, tail, _), r in zip(parsed, ranks)]
    sizes: dict[str, int] = {}
    seen: dict[str, int] = {}  # the operand each label's size was read from
    for i, (term, shape) in enumerate(zip(labels, shapes)):
        if shape is None:
            continue
        own: dict[str, Any] = {}
        for label, size in zip(term, shape):
            if label in own and size != own[label] and None not in (size, own[label]):
                raise decided(
                    ValueError(
                        f"einsum: label {label!r} repeats in operands[{i}] with sizes "
                        f"{own[label]} and {size} (a repeated label takes a diagonal)"
                    )
                )
            own[label] = size
            if size is None or size == 1:
                continue
            known = sizes.get(label, 1)
            if known != 1 and known != size:
                raise decided(
                    ValueError(
                        f"einsum: label {label!r} has size {known} in operands[{seen[label]}] "
                        f"and {size} in operands[{i}]"
                    )
                )
            sizes[label], seen[label] = size, i
        for label in term:
            sizes.setdefault(label, 1)
    if arrow:
        head, tail, dots = _einsum_term(subscripts, output, "the output")
        if extra and not dots:
            raise _einsum_fault(
                subscripts,
                f"the operands' '...' stand for {extra} dimension(s), but the output has no '...'",
            )
        out = head + ellipsis + tail
        for label in head + tail:
            if label not in used:
                raise _einsum_fault(subscripts, f"the output label {label!r} is in no input")
            if (head + tail).count(label) > 1:
                raise _einsum_fault(subscripts, f"the output label {label!r} repeats")
    else:  # implicit: '...', then the labels that appear once, in alphabetical (ASCII) order
        counts = "".join(head + tail for head, tail, _ in parsed)
        out = ellipsis + "".join(sorted(c for c in set(counts) if counts.count(c) == 1))
    for label in out:
        sizes.setdefault(label, 1)
    return labels, out, sizes


@functools.lru_cache(maxsize=1024)
def einsum_checked(
    subscripts: str, shapes: tuple[Shape, ...]
) -> tuple[tuple[str, ...], str, dict[str, int]]:
    """:func:`einsum_labels`, remembered per subscripts and shapes: einsum's check runs on
    every call, and the same call pays a dict lookup after the first (kernels that rewrite the
    subscripts, MLX's for integers, read the labels from here too)."""
    labels, output, sizes = einsum_labels(subscripts, list(shapes))
    return tuple(labels), output, sizes


def _check_einsum(subscripts: Any, *operands: Any) -> None:
    """The subscripts are a str that fits the operands' shapes as NumPy reads it: JAX takes
    digits as labels, and JAX, torch and MLX sum the ``...`` dimensions away where NumPy
    refuses an output without ``...``."""
    if type(subscripts) is str:
        shapes = tuple(map(shape_of, operands))
        try:
            einsum_checked(subscripts, shapes)
        except TypeError:
            # torch.export's sizes (SymInt) cannot be hashed: checked without the memo. A
            # TypeError of the check itself is raised again from here.
            einsum_labels(subscripts, list(shapes))
    else:
        einsum_labels(subscripts, [shape_of(o) for o in operands])  # the decided TypeError


@op(sequences=("operands",), check=_check_einsum)
def einsum(subscripts: Any, *operands: Any):
    """Einstein summation over ``operands`` as ``subscripts`` say (NumPy's ``einsum``).

    Examples
    --------
    >>> import ivy_like
    >>> a = ivy_like.array([[1., 2.], [3., 4.]])
    >>> ivy_like.einsum("ij,jk->ik", a, a)
    ivy_like.array([[ 7., 10.],
                    [15., 22.]])
    >>> ivy_like.einsum("ii", a), ivy_like.einsum("...j->...", a)
    (ivy_like.array(5.), ivy_like.array([3., 7.]))
    """


def _check_one_hot(indices: Any, num_classes: Any, dtype: Any = None) -> None:
    """Integer ``indices`` (jax would compare floats too) and an int ``num_classes`` >= 0 (NumPy
    takes a float to ``arange``)."""
    error = integer_array_error("one_hot", "indices", indices) or int_error(
        "one_hot", "num_classes", num_classes
    )
    if error is not None:
        raise error


@op(arrays=("indices",), dtypes=("dtype",), check=_check_one_hot)
def one_hot(indices: Any, num_classes: Any, dtype: Any = None):
    """Rows of ``num_classes`` values, 1 at each index and 0 elsewhere (float32 by default).

    The result has shape ``indices.shape + (num_classes,)``. An index outside ``[0,
    num_classes)`` gives a row of zeros, as ``jax.nn.one_hot`` does (-1 included).

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.one_hot(ivy_like.array([0, 2, -1]), 3)
    ivy_like.array([[1., 0., 0.],
                    [0., 0., 1.],
                    [0., 0., 0.]])
    """


@op(arrays=("x",), dtype_category=REAL_FLOAT, shape_rule=axis_in_range)
def logsumexp(x: Any, axis: Any = None, keepdims: bool = False):
    """``log(sum(exp(x)))`` over ``axis``, computed without overflow (the largest value is taken
    out first).

    A reduction over only ``-inf`` values, or over no values, is ``-inf``; ``inf`` gives
    ``inf`` and NaN gives NaN.

    Examples
    --------
    >>> import ivy_like
    >>> x = ivy_like.array([[1000., 1000.], [0., float("-inf")]])
    >>> ivy_like.logsumexp(x, axis=1), ivy_like.logsumexp(ivy_like.full(2, float("-inf")))
    (ivy_like.array([1000.6932,    0.    ]), ivy_like.array(-inf))
    """


def _check_top_k(x: Any, k: Any) -> None:
    """``k`` is an int in ``[0, n]``, ``n`` the size of the last axis of ``x``: NumPy and torch
    would slice past the end, JAX takes ``1.0`` for ``1``."""
    shape = shape_of(x)
    if type(k) is int and shape and (shape[-1] is None or 0 <= k <= shape[-1]):
        return  # the common case, checked in one line
    error = int_error("top_k", "k", k) or leading_axis_error(
        "top_k", "x", shape, "top_k works along the last axis"
    )
    if error is not None:
        raise error
    if shape is not None and shape[-1] is not None and k > shape[-1]:
        n = shape[-1]
        raise decided(
            ValueError(f"top_k: k must be at most {n}, the size of x's last axis, got {k}")
        )


@op(arrays=("x",), n_outputs=2, dtype_category=REAL, check=_check_top_k)
def top_k(x: Any, k: Any):
    """The ``k`` largest values along the last axis, largest first, and their indices.

    Equal values keep the lower index first, as in ``jax.lax.top_k``; values compare as in
    ``sort`` (-0.0 equals 0.0, NaN is the largest value). ``k`` beyond the size of the last axis
    is a ``ValueError``.

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.top_k(ivy_like.array([1., 3., 2., 3.]), 3)
    (ivy_like.array([3., 3., 2.]), ivy_like.array([1, 3, 2]))
    """


def _check_scatter_add(x: Any, indices: Any, updates: Any) -> None:
    """``x`` numeric and at least 1-D, integer ``indices`` (a bool index would be read as a
    mask), numeric ``updates`` broadcasting to the rows they select: ``indices.shape +
    x.shape[1:]``."""
    shape = shape_of(x)
    error = (
        leading_axis_error("scatter_add", "x", shape, "indices select along axis 0")
        or kind_error("scatter_add", "x", x, NUMERIC)
        or integer_array_error("scatter_add", "indices", indices)
        or kind_error("scatter_add", "updates", updates, NUMERIC)
    )
    if error is not None:
        raise error
    rows, given = shape_of(indices), shape_of(updates)
    if shape is None or rows is None or given is None:
        return
    target = rows + shape[1:]
    fits = len(given) <= len(target) and all(
        g == 1 or g == t or None in (g, t) for g, t in zip(reversed(given), reversed(target))
    )
    if not fits:
        raise decided(
            ValueError(
                f"scatter_add: updates of shape {given} do not broadcast to {target}, the shape "
                f"of the rows they add to (indices' shape {rows}, then x's shape after axis 0)"
            )
        )


@op(arrays=("x", "indices", "updates"), check=_check_scatter_add)
def scatter_add(x: Any, indices: Any, updates: Any):
    """A copy of ``x`` with ``updates`` added at the rows ``indices`` (along axis 0); repeated
    indices add up, as ``x.at[indices].add(updates)`` in JAX. ``x`` itself is never changed.

    ``updates`` must broadcast to ``indices.shape + x.shape[1:]`` and is cast to ``x``'s dtype.
    Negative indices count from the end; indices outside ``[-n, n)`` are dropped, as in JAX.

    Examples
    --------
    >>> import ivy_like
    >>> x = ivy_like.zeros(4)
    >>> ivy_like.scatter_add(x, ivy_like.array([0, 0, -1]), ivy_like.array([1., 2., 5.]))
    ivy_like.array([3., 0., 0., 5.])
    """


def _check_segments(where: str, data: Any, segment_ids: Any, num_segments: Any) -> None:
    """``num_segments`` an int >= 0, ``data`` at least 1-D and numeric (real for
    ``segment_max``), ``segment_ids`` an integer array of one id per row of ``data``."""
    shape = shape_of(data)
    error = (
        int_error(where, "num_segments", num_segments)
        or leading_axis_error(where, "data", shape, "segment_ids label its rows")
        or kind_error(where, "data", data, REAL if where == "segment_max" else NUMERIC)
        or integer_array_error(where, "segment_ids", segment_ids)
    )
    if error is not None:
        raise error
    ids = shape_of(segment_ids)
    if shape is None or ids is None:
        return
    if len(ids) != 1 or (ids[0] != shape[0] and None not in (ids[0], shape[0])):
        raise decided(
            ValueError(
                f"{where}: segment_ids must be 1-D with one id per row of data (shape "
                f"({shape[0]},)), got shape {ids}"
            )
        )


def _check_segment_sum(data: Any, segment_ids: Any, num_segments: Any) -> None:
    _check_segments("segment_sum", data, segment_ids, num_segments)


def _check_segment_max(data: Any, segment_ids: Any, num_segments: Any) -> None:
    _check_segments("segment_max", data, segment_ids, num_segments)


@op(arrays=("data", "segment_ids"), check=_check_segment_sum)
def segment_sum(data: Any, segment_ids: Any, num_segments: Any):
    """Sums of the rows of ``data`` that share a segment id, as ``jax.ops.segment_sum``.

    ``segment_ids`` holds one integer per row of ``data``; the result has shape
    ``(num_segments,) + data.shape[1:]``. An empty segment sums to 0; ids outside ``[0,
    num_segments)`` are dropped.

    Examples
    --------
    >>> import ivy_like
    >>> data = ivy_like.array([1., 2., 3., 4.])
    >>> ivy_like.segment_sum(data, ivy_like.array([0, 0, 2, -1]), 3)
    ivy_like.array([3., 0., 3.])
    """


@op(arrays=("data", "segment_ids"), check=_check_segment_max)
def segment_max(data: Any, segment_ids: Any, num_segments: Any):
    """Maxima of the rows of ``data`` that share a segment id, as ``jax.ops.segment_max``.

    An empty segment is the lowest value of the dtype (-inf for floats, the minimum for
    integers); NaN propagates; ids outside ``[0, num_segments)`` are dropped.

    Examples
    --------
    >>> import ivy_like
    >>> data = ivy_like.array([1., 5., 3., 4.])
    >>> ivy_like.segment_max(data, ivy_like.array([0, 0, 2, 2]), 3)
    ivy_like.array([  5., -inf,   4.])
    """
