"""Ops beyond the array API standard that users of ``jax.numpy``, ``keras.ops`` and ``torch``
reach for (issue 24): ``einsum``, ``one_hot``, ``logsumexp``, ``top_k``, ``scatter_add``,
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

Bad arguments get one error type on every backend, naming the argument
(:mod:`ivy_like.core.decided_errors`): einsum subscripts that do not fit, ``k`` beyond the last
axis, shapes that do not match, indices that are not integers.
"""

from __future__ import annotations

from typing import Any

from ..core.decided_errors import (
    REAL,
    REAL_FLOAT,
    axis_in_range,
    decided,
    einsum_operands,
    int_error,
    leading_axis_error,
    one_hot_args,
    scatter_add_args,
    segment_args,
    shape_of,
)
from ..core.registry import op


@op(sequences=("operands",), shape_rule=einsum_operands)
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


@op(arrays=("indices",), dtypes=("dtype",), shape_rule=one_hot_args)
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


@op(arrays=("x", "indices", "updates"), shape_rule=scatter_add_args)
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


@op(arrays=("data", "segment_ids"), shape_rule=segment_args)
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


@op(arrays=("data", "segment_ids"), shape_rule=segment_args)
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
