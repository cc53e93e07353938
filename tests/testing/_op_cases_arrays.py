"""The array ops' examples for ``test_check_ops.py``: creation, manipulation, indexing,
searching, set functions, sorting, statistics, utility, general and math.

The float arguments are small float32 arrays whose values are all distinct and away from 0:
no ties for ``max``, ``sort``, ``argmax``, ``top_k`` or ``segment_max`` (whose derivative does
not exist at a tie) and no zero factor for ``prod``, in the example and in the batch's
variants (reversed, random signs and scales). Integer arguments (indices, segment ids) stay
in range and keep every segment non-empty in the variants (reversed, or rolled by one); the
set functions get integers with duplicates to merge, in every variant. Shapes, axes and other
Python arguments are keywords where the op takes them so (bound to the function, so not
arguments of ``compile``); positional-only ones (``astype``'s dtype, ``tile``'s repetitions,
``moveaxis``'s axes, ``repeat``'s repeats) are positional, as users pass them. Creation ops
that take a shape and no array are the op itself on a literal shape.

Ops that return indices give them in the backend's default integer dtype (int32 for JAX
without 64-bit mode and for MLX, int64 elsewhere), which backends may choose: their cases
compare the indices as int32.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from _op_case import Case, case, op_function

import ivy_like

# Distinct values of both signs, none near 0: no ties in any row or column, in the example or
# in its variants.
M34 = np.array(
    [[0.52, -1.31, 0.87, 0.24], [-0.66, 1.12, -0.18, 0.95], [0.39, -0.74, 1.46, -0.33]],
    dtype=np.float32,
)
M23 = np.array([[0.61, -0.27, 1.18], [-0.92, 0.45, 0.73]], dtype=np.float32)
T234 = np.arange(1, 25, dtype=np.float32).reshape(2, 3, 4) / 10 - 1.25  # distinct, none 0
V3 = np.array([0.37, -0.58, 0.71], dtype=np.float32)
V2 = np.array([0.93, -1.26], dtype=np.float32)
# Exact zeros among the values: random signs and scales keep them, reversing moves them.
SPARSE = np.array([[0.0, 1.5, -2.0], [3.1, 0.0, 0.0]], dtype=np.float32)
BOOLS = np.array([[True, False, True], [True, True, False]])
# Repeated integers: every set function has duplicates to merge, in every variant.
REPEATED = np.array([3, 1, 3, 2, 1, 5], dtype=np.int32)
SEGMENT_IDS = np.array([0, 0, 1, 2, 2], dtype=np.int32)  # rolled: [2, 0, 0, 1, 2], all present
SEGMENT_DATA = np.array(
    [[0.41, -1.2], [1.37, 0.28], [-0.85, 0.66], [0.12, -0.47], [-1.05, 1.53]], dtype=np.float32
)

_EMPTY = (
    "an empty array's values are whatever memory held: ones_like keeps the shape and dtype "
    "that the op decides and replaces the values"
)
_INDICES = (
    "the indices' dtype is the backend's default integer (int32 on JAX without 64-bit mode "
    "and on MLX, int64 elsewhere): the case compares them as int32"
)
_STOP_GRADIENT = (
    "stop_gradient's values are x's but its derivative is 0 by definition, so finite "
    "differences (which see the identity) cannot check it; transpose still checks that vjp "
    "and jvp agree"
)
_VARIABLE = (
    "variable makes a new trainable leaf holding a copy of x (a leaf tensor on torch, a "
    "tf.Variable on TensorFlow, x itself on JAX): its derivative with respect to x is not "
    "part of what it means, so only its value is checked"
)
_NO_DERIVATIVE_CHECKS = ("agree", "compile", "vmap", "mutation", "lazy")


def _int32(x: Any) -> Any:
    integral = ivy_like.isdtype(ivy_like.as_dtype(x.dtype), "integral")
    return ivy_like.astype(x, ivy_like.int32) if integral else x


def _indices_as_int32(key: str) -> Callable[..., Any]:
    """Op ``key`` with its integer outputs (indices, counts) cast to int32."""
    op = op_function(key)

    def f(*args: Any, **kwargs: Any) -> Any:
        out = op(*args, **kwargs)
        return tuple(_int32(o) for o in out) if isinstance(out, tuple) else _int32(out)

    f.__qualname__ = f.__name__ = f"{key}_as_int32"
    return f


def _indices(key: str, *args: Any, **kwargs: Any) -> Case:
    return case(*args, f=_indices_as_int32(key), why=_INDICES, **kwargs)


CASES: dict[str, Case] = {
    # -- creation ---------------------------------------------------------------------------
    "arange": case(0.5, 3.0, 0.25),  # steps exact in binary: 10 values on every backend
    "asarray": case(M34),
    "empty": case(f=lambda: ivy_like.ones_like(ivy_like.empty((2, 3))), why=_EMPTY),
    "empty_like": case(M34, f=lambda x: ivy_like.ones_like(ivy_like.empty_like(x)), why=_EMPTY),
    "eye": case(3, 4, k=1),
    "from_dlpack": case(M34),
    "full": case((2, 3), 0.75),
    "full_like": case(M34, fill_value=0.75),
    "linspace": case(-1.0, 2.0, 7),
    "meshgrid": case(V3, V2, indexing="ij"),
    "ones": case((2, 3)),
    "ones_like": case(M34),
    "tril": case(M34, k=1),
    "triu": case(M34, k=-1),
    "zeros": case((2, 3)),
    "zeros_like": case(M34),
    # -- manipulation -----------------------------------------------------------------------
    # A float cast. Its output is float16 whatever the input's dtype, so finite differences
    # (in float64) cannot check its derivative (not applicable); transpose still runs.
    "astype": case(M34, ivy_like.float16),
    "broadcast_arrays": case(V3[None, :], V2[:, None]),
    "broadcast_to": case(V2[:, None], shape=(3, 2, 4)),
    "concat": case((M34, M23.T), axis=1),
    "expand_dims": case(M34, axis=1),
    "flip": case(M34, axis=0),
    "moveaxis": case(T234, 0, -1),
    "pad": case(M34, pad_width=((1, 0), (0, 2)), constant_values=0.5),
    "permute_dims": case(T234, axes=(2, 0, 1)),
    "repeat": case(M34, 2, axis=1),
    "reshape": case(M34, shape=(2, 6)),
    "roll": case(M34, shift=(1, -1), axis=(0, 1)),
    "squeeze": case(M34[:, None, :], axis=1),
    "stack": case((V3, M23[0], M23[1]), axis=1),
    "tile": case(V2[:, None], (2, 3)),
    "unstack": case(M34, axis=1),
    # -- indexing ---------------------------------------------------------------------------
    "take": case(M34, np.array([2, 0, 3], dtype=np.int32), axis=1),
    "take_along_axis": case(M34, np.array([[3, 0], [1, 2], [2, 2]], dtype=np.int32), axis=1),
    # -- searching --------------------------------------------------------------------------
    "argmax": _indices("argmax", M34, axis=1),
    "argmin": _indices("argmin", M34, axis=0),
    "count_nonzero": _indices("count_nonzero", SPARSE, axis=1),
    "nonzero": _indices("nonzero", SPARSE),
    "searchsorted": _indices(
        "searchsorted",
        np.array([-1.1, -0.2, 0.45, 0.8, 1.9], dtype=np.float32),
        np.array([[0.5, -0.7], [2.3, -1.6]], dtype=np.float32),
    ),
    # -- set functions ----------------------------------------------------------------------
    "isin": case(REPEATED, np.array([1, 5, 7], dtype=np.int32)),
    "unique_all": _indices("unique_all", REPEATED),
    "unique_counts": _indices("unique_counts", REPEATED),
    "unique_inverse": _indices("unique_inverse", REPEATED),
    "unique_values": case(REPEATED),
    # -- sorting ----------------------------------------------------------------------------
    "argsort": _indices("argsort", M34, axis=1),
    "sort": case(M34, axis=0),
    # -- statistical ------------------------------------------------------------------------
    "cumulative_prod": case(M34, axis=1),
    "cumulative_sum": case(M34, axis=0),
    "max": case(M34, axis=1),
    "mean": case(M34, axis=0),
    "min": case(M34, axis=0),
    "prod": case(M34, axis=1),
    "std": case(M34, axis=1),
    "sum": case(M34, axis=0),
    "var": case(M34, axis=1, correction=1),
    # -- utility ----------------------------------------------------------------------------
    "all": case(BOOLS, axis=0),
    "any": case(~BOOLS, axis=1),
    "diff": case(M34, axis=1),
    # -- general ----------------------------------------------------------------------------
    "stop_gradient": case(M34, checks=(*_NO_DERIVATIVE_CHECKS, "transpose"), why=_STOP_GRADIENT),
    "variable": case(M34, checks=_NO_DERIVATIVE_CHECKS, why=_VARIABLE),
    # -- math -------------------------------------------------------------------------------
    "einsum": case("ij,jk->ik", M23, M34),
    "logsumexp": case(M34, axis=1),
    "one_hot": case(np.array([2, 0, 1, 3], dtype=np.int32), num_classes=4),
    # Index 1 twice: both of its updates add up.
    "scatter_add": case(SEGMENT_DATA[:, 0], np.array([1, 3, 1], dtype=np.int32), V3),
    "segment_max": case(SEGMENT_DATA, SEGMENT_IDS, num_segments=3),
    "segment_sum": case(SEGMENT_DATA, SEGMENT_IDS, num_segments=3),
    "top_k": _indices("top_k", M34, k=2),
}

# The output's shape depends on the values (how many are nonzero, or distinct).
_VALUE_SHAPED = {
    ("jax", "compile"): (
        "the output's shape depends on the values, which jax.jit traces without "
        "(ConcretizationTypeError)"
    ),
    ("jax", "vmap"): (
        "the output's shape depends on the values, which jax.vmap traces without "
        "(ConcretizationTypeError)"
    ),
    ("torch", "vmap"): (
        "the output's shape depends on the values: torch.vmap has no batching rule for ops of "
        "dynamic shape (nonzero, unique)"
    ),
    ("mlx", "compile"): (
        "the output's shape depends on the values: the MLX kernel reads the count with eval, "
        "which mx.compile forbids ('Attempting to eval an array during function "
        "transformations')"
    ),
    ("mlx", "vmap"): (
        "the output's shape depends on the values: the MLX kernel reads the count with eval, "
        "which mx.vmap forbids ('Attempting to eval an array during function "
        "transformations')"
    ),
}
_MLX_NO_JVP = {
    "cumulative_prod": "MLX has no JVP rule for cumprod ('JVP is not implemented for "
    "cumulative prod/min/max')",
    "segment_max": "MLX has no JVP rule for the scatter_max that segment_max is ('[scatter] "
    "JVP not yet implemented')",
}
KNOWN: dict[tuple[str, str, str], str] = {
    **{
        (b, key, check): why
        for key in ("nonzero", "unique_all", "unique_counts", "unique_inverse", "unique_values")
        for (b, check), why in _VALUE_SHAPED.items()
    },
    **{
        ("mlx", key, check): why
        for key, why in _MLX_NO_JVP.items()
        for check in ("jvp", "jvp2", "transpose")
    },
    ("mlx", "prod", "jvp2"): (
        "MLX's JVP rule of prod goes through cumprod, which has no JVP rule: forward over "
        "forward raises 'JVP is not implemented for cumulative prod/min/max'"
    ),
    **{
        ("mlx", key, "jvp2"): (
            f"MLX's JVP rule of {key} gathers at the arg{key} without stopping the gradient of "
            "the indices: forward over forward raises '[gather_axis] Cannot calculate JVP "
            "with respect to indices'"
        )
        for key in ("max", "min")
    },
    ("tensorflow", "segment_max", "jvp2"): (
        "nested tf.autodiff.ForwardAccumulators fail on unsorted_segment_max, whose gradient "
        "is IndexedSlices: \"AttributeError: 'IndexedSlices' object has no attribute '_id'\" "
        "in plain TensorFlow 2.21"
    ),
    ("mlx", "searchsorted", "vmap"): (
        "mx.searchsorted cannot be vmapped over the sorted sequence ('[searchsorted] Cannot "
        "vmap over the sorted sequence, only over the values being searched for')"
    ),
    ("torch", "variable", "vmap"): (
        "variable calls requires_grad_, which torch.func transforms refuse ('You are "
        "attempting to call Tensor.requires_grad_() ... inside of a function being "
        "transformed by a functorch transform')"
    ),
    ("tensorflow", "variable", "compile"): (
        "a tf.Variable created inside tf.function from a traced value cannot be lifted out of "
        "the graph (UnliftableError)"
    ),
    ("tensorflow", "variable", "vmap"): (
        "tf.vectorized_map traces with tf.function, which creates a tf.Variable only on its "
        "first call ('tf.function only supports singleton tf.Variables')"
    ),
}
