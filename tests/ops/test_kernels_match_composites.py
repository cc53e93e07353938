"""Every native kernel of a composite op gives its composite's values and gradients.

An op declared with a composite body runs that body on a backend without a kernel; a backend
that has a kernel (a fused or cheaper framework function) must give the same numbers. One test
checks every (op, backend) pair where ``spec.composite`` is true and the op is in
``backend.kernels``, on the inputs of ``CASES`` below: the kernel and ``backend.composite(key)``
get the same native arrays, and their dtypes, shapes, values and (on backends with autodiff)
the gradients of a weighted sum of their outputs must agree within the dtype's tolerance.
``test_every_kernel_of_a_composite_has_cases`` keeps the table complete: a new kernel for a
composite op fails it until its inputs are written here.
"""

from __future__ import annotations

import inspect
import re
from pathlib import Path
from typing import Any

import numpy as np

import ivy_like
from ivy_like.core.registry import OPS
from ivy_like.testing.pytest_plugin import selected_backends


def r(*shape: int, seed: int = 0, scale: float = 1.0, dtype: str = "float32") -> np.ndarray:
    """Standard normal numbers of ``shape`` (NumPy's generator, seeded)."""
    return (scale * np.random.default_rng(1000 + seed).standard_normal(shape)).astype(dtype)


def u(*shape: int, seed: int = 0, low: float = 0.05, high: float = 0.95) -> np.ndarray:
    """Uniform float32 numbers in ``[low, high)``: probabilities away from 0 and 1."""
    return np.random.default_rng(2000 + seed).uniform(low, high, shape).astype(np.float32)


def labels(n: int, classes: int, seed: int = 0) -> np.ndarray:
    return np.random.default_rng(3000 + seed).integers(0, classes, n).astype(np.int64)


def softmax(x: np.ndarray, axis: int = -1) -> np.ndarray:
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return (e / e.sum(axis=axis, keepdims=True)).astype(x.dtype)


def case(*args: Any, **kwargs: Any) -> tuple[tuple[Any, ...], dict[str, Any]]:
    return args, kwargs


def _with_zeros() -> np.ndarray:
    x = r(3, 4)
    x[x < 0.3] = 0
    return x


def _reductions(make: Any) -> list[Any]:
    return [make(reduction) for reduction in ("mean", "sum", "none")]


LOGITS, LABELS = r(5, 4, seed=1), labels(5, 4)
P, Y = u(4, 3), u(4, 3, seed=1, low=0.0, high=1.0)  # probabilities, soft targets
Z, W = r(4, 3, seed=2, scale=3.0), u(3, seed=3, low=0.5, high=2.0)  # logits, weights
LOG_P, Q = np.log(softmax(r(5, 4, seed=4))), softmax(r(5, 4, seed=5))
LOG_P3 = np.log(softmax(r(2, 3, 5, seed=6))).transpose(0, 2, 1).copy()  # (N, C, d1)
LABELS3, CLASS_W = np.array([[0, 2, 4], [2, 3, 2]]), u(5, seed=7, low=0.5, high=2.0)
# Inputs per op: each case is (positional args, keyword args), NumPy arrays where the op takes
# arrays (converted to the backend's native arrays before the call).
CASES: dict[str, list[tuple[tuple[Any, ...], dict[str, Any]]]] = {
    "count_nonzero": [
        case(_with_zeros()),
        case(_with_zeros(), axis=1, keepdims=True),
        case(_with_zeros() > 0, axis=0),
    ],
    "diff": [
        case(r(3, 5)),
        case(r(4, 3), axis=0, n=2),
        case(r(3, 5), prepend=r(3, 1, seed=1), append=r(3, 2, seed=2)),
        case(np.arange(6, dtype=np.int64)),
    ],
    "isin": [
        case(
            np.array([[1.0, np.nan, -0.0], [2.0, 3.0, np.inf]], np.float32),
            np.array([0.0, np.nan, 3.0, np.inf], np.float32),
        ),
        case(np.arange(-5, 5, dtype=np.int32).reshape(2, 5), np.array([3, -5, 7], np.int32)),
        case(np.arange(-5, 5, dtype=np.int32), np.array([3, -5, 7], np.int32), invert=True),
        # More pairs than ivy_like.ops.set_functions.ISIN_PAIRWISE_MAX: sorted and searched.
        case(
            np.round(r(20, 30, scale=9.0)),
            np.where(r(400, seed=1) > 1, np.nan, np.round(r(400, seed=2, scale=9.0))),
        ),
        case(np.array(2, np.int32), np.array([[1, 2]], np.int32)),
        case(np.zeros((0, 3), np.float32), np.ones(2, np.float32)),
        case(np.ones(3, np.float32), np.zeros(0, np.float32), invert=True),
        case(np.array([True, False]), np.array([True, True])),
    ],
    "reciprocal": [case(r(4, 3) + 3.0), case(r(5, dtype="float64") - 2.0)],
    "take_along_axis": [
        case(r(3, 4), np.array([[0, 3], [1, 1], [2, 0]], np.int64), axis=1),
        case(r(3, 4), np.array([[2, 0, 1, 2]], np.int64), axis=0),
        case(r(2, 3, 4), np.array([[[3], [0], [-1]], [[1], [2], [-4]]], np.int64), axis=-1),
    ],
    "nn.adaptive_avg_pool2d": [case(r(2, 3, 7, 5), (3, 2)), case(r(1, 2, 4, 4), 1)],
    "nn.adaptive_max_pool2d": [case(r(2, 3, 7, 5), (3, 2)), case(r(1, 2, 4, 4), 1)],
    "nn.avg_pool2d": [
        case(r(2, 3, 6, 6), 2),
        case(r(2, 3, 7, 7), 3, 2, 1),
        case(r(2, 6, 6, 3), 2, None, 0, "NHWC"),
        case(r(1, 2, 5, 7), (2, 3), (1, 2), (1, 1)),
    ],
    "nn.max_pool2d": [
        case(r(2, 3, 6, 6), 2),
        case(r(2, 3, 7, 7), 3, 2, 1),
        case(r(2, 6, 6, 3), 2, None, 0, "NHWC"),
        case(r(1, 2, 5, 7), (2, 3), (1, 2), (1, 1)),
    ],
    "nn.batch_norm": [
        *(
            case(r(*shape, seed=4), r(3, seed=1), u(3) + 0.5, r(3, seed=2), r(3, seed=3))
            for shape in ((4, 3), (2, 3, 5), (2, 3, 4, 4))
        ),
        case(r(6, 3), r(3, seed=1), u(3) + 0.5),
        case(r(2, 4, 4, 3), r(3, seed=1), u(3) + 0.5, None, None, 1e-3, -1),
    ],
    "nn.binary_cross_entropy": [
        *_reductions(lambda red: case(P, Y, reduction=red)),
        *_reductions(lambda red: case(P, Y, W, reduction=red)),
    ],
    "nn.binary_cross_entropy_with_logits": [
        *_reductions(lambda red: case(Z, Y, W, reduction=red, pos_weight=2.0 * W)),
        *_reductions(
            lambda red: case(np.vstack([Z, 0 * Z[:1]]), np.vstack([Y, Y[:1]]), reduction=red)
        ),
    ],
    "nn.conv_transpose2d": [
        case(r(2, 4, 5, 5), r(4, 3, 3, 3, seed=1), r(3, seed=2)),
        case(r(2, 4, 5, 5), r(4, 3, 3, 3, seed=1), None, 2, 1, 1),
        case(r(1, 4, 4, 4), r(4, 2, 2, 2, seed=1), r(4, seed=2), 1, 0, 0, 2),
    ],
    "nn.cosine_similarity": [
        case(r(4, 5), r(4, 5, seed=1)),
        case(r(4, 5), r(4, 5, seed=1), 0),
        case(r(2, 3, 4), r(1, 3, 4, seed=1), -1, 1e-6),
        case(Z[0], Z, 1),  # (3,) broadcast against (4, 3)
        case(0.1 * Z, Z, 0, 0.5),  # a norm below eps: clamped
    ],
    "nn.cross_entropy": [
        *(
            case(
                r(*shape, seed=1),
                labels(int(np.prod(shape[:-1])), 4).astype(dtype).reshape(shape[:-1]),
                red,
            )
            for shape in ((5, 4), (4,), (2, 3, 4), (0, 4))
            for dtype in ("int64", "int32", "int16", "int8", "uint8")
            for red in ("mean", "sum", "none")
        ),
        case(LOGITS, softmax(r(5, 4, seed=3))),
    ],
    "nn.group_norm": [
        case(r(2, 6, 4, 4), 3, r(6, seed=1), r(6, seed=2)),
        case(r(2, 4, 5), 2),
    ],
    "nn.gru_cell": [
        case(r(3, 4), r(3, 5, seed=1), r(15, 4, seed=2), r(15, 5, seed=3), r(15, seed=4)),
        case(
            r(3, 4),
            r(3, 5, seed=1),
            r(15, 4, seed=2),
            r(15, 5, seed=3),
            r(15, seed=4),
            r(15, seed=5),
        ),
    ],
    "nn.hardsigmoid": [case(r(4, 5, scale=4.0))],
    "nn.hardswish": [case(r(4, 5, scale=4.0))],
    "nn.hardtanh": [case(r(4, 5, scale=2.0)), case(r(4, 5, scale=2.0), -0.5, 1.5)],
    "nn.huber_loss": [
        *_reductions(lambda red: case(r(4, 3, scale=2.0), r(4, 3, seed=1), red)),
        *_reductions(lambda red: case(Z, 2.0 * Y, red, 0.7, W)),
    ],
    "nn.interpolate": [
        case(r(2, 3, 4, 5), (8, 10)),
        case(r(2, 3, 4, 5), None, 2, "bilinear", False),
        case(r(2, 3, 4, 5), (7, 9), None, "bilinear", True),
    ],
    "nn.kl_div": [
        *(case(LOG_P, Q, reduction=red) for red in ("mean", "sum", "none", "batchmean")),
        *(
            case(LOG_P, np.log(Q), reduction=red, log_target=True)
            for red in ("mean", "sum", "none", "batchmean")
        ),
    ],
    "nn.layer_norm": [
        *(
            case(r(*shape, seed=1), dims, *affine)
            for shape, dims, full in (
                ((4, 6), (6,), (6,)),
                ((2, 3, 4, 5), (4, 5), (4, 5)),
                ((3, 8), 8, (8,)),
            )
            for affine in ((r(*full, seed=2), r(*full, seed=3)), ())
        ),
        case(r(5, 6), [6], r(6, seed=1), None, 1e-3),
        case(r(3, 4), 4, r(1, seed=1)),  # a weight that broadcasts
    ],
    "nn.linear": [
        *(
            case(r(*shape), r(4, 3, seed=1), *bias)
            for shape in ((5, 3), (2, 4, 3), (0, 3), (3,))
            for bias in ((r(4, seed=2),), ())
        ),
        case(r(5, 3, dtype="float64"), r(4, 3, seed=1, dtype="float64")),
    ],
    "nn.log_softmax": [case(r(3, 5)), case(r(3, 5), 0)],
    "nn.softmax": [case(r(3, 5)), case(r(3, 5), 0)],
    "nn.lstm": [
        case(r(5, 2, 3), [r(16, 3, seed=1), r(16, 4, seed=2), r(16, seed=3), r(16, seed=4)]),
        case(
            r(2, 5, 3),
            [r(16, 3, seed=1), r(16, 4, seed=2)],
            r(1, 2, 4, seed=5),
            r(1, 2, 4, seed=6),
            bias=False,
            batch_first=True,
        ),
    ],
    "nn.lstm_cell": [
        case(
            r(3, 4),
            r(3, 5, seed=1),
            r(3, 5, seed=2),
            r(20, 4, seed=3),
            r(20, 5, seed=4),
            r(20, seed=5),
            r(20, seed=6),
        ),
        case(r(3, 4), r(3, 5, seed=1), r(3, 5, seed=2), r(20, 4, seed=3), r(20, 5, seed=4)),
    ],
    "nn.mse_loss": _reductions(lambda red: case(r(4, 3), r(4, 3, seed=1), red)),
    "nn.nll_loss": [
        *_reductions(lambda red: case(LOG_P, LABELS, reduction=red)),
        case(LOG_P, LABELS, u(4, seed=1), reduction="mean"),
        case(LOG_P, LABELS, ignore_index=int(LABELS[0]), reduction="sum"),
        *_reductions(lambda red: case(LOG_P3, LABELS3, CLASS_W, ignore_index=2, reduction=red)),
    ],
    "nn.relu": [case(r(4, 5))],
    "nn.relu6": [case(r(4, 5, scale=5.0))],
    "nn.sigmoid": [case(r(4, 5, scale=3.0))],
    "nn.silu": [case(r(4, 5, scale=3.0))],
    "nn.scaled_dot_product_attention": [
        *(
            case(r(*q, seed=1), r(*kv, seed=2), r(*kv, seed=3), None, causal, scale)
            for q, kv in (
                ((2, 4, 5, 8), (2, 4, 5, 8)),  # (batch, heads, length, dim), self-attention
                ((2, 4, 3, 8), (2, 4, 6, 8)),  # fewer queries than keys
                ((2, 4, 6, 8), (2, 4, 3, 8)),  # more queries than keys
                ((3, 5, 8), (3, 5, 8)),  # one head: (batch, length, dim)
                ((3, 2, 8), (3, 7, 8)),
            )
            for causal in (False, True)
            for scale in (None, 0.3)
        ),
        *(
            case(r(2, 3, 5, 4), r(2, 3, 6, 4, seed=1), r(2, 3, 6, 4, seed=2), mask, causal, scale)
            for mask in (
                (u(5, 6, seed=4) > 0.4) | np.eye(5, 6, dtype=bool),
                np.array([[True, False, True, True, False, True]]),
                r(2, 1, 5, 6, seed=5),
            )
            for causal in (False, True)
            for scale in (None, 0.3)
        ),
    ],
    "nn.smooth_l1_loss": [
        *_reductions(lambda red: case(Z, 2.0 * Y, reduction=red, beta=0.5)),
        *_reductions(lambda red: case(Z, 2.0 * Y, reduction=red, beta=0.0)),
    ],
}
# Tolerances by the result's dtype: a fused kernel sums in another order (a few ulp), and a
# gradient goes through a few more operations than the value.
VALUE_TOL = {
    "float16": {"rtol": 2e-3, "atol": 2e-3},
    "bfloat16": {"rtol": 2e-2, "atol": 2e-2},
    "float32": {"rtol": 2e-5, "atol": 2e-6},
    "float64": {"rtol": 1e-12, "atol": 1e-12},
}
GRAD_TOL = {
    "float16": {"rtol": 1e-2, "atol": 1e-2},
    "bfloat16": {"rtol": 5e-2, "atol": 5e-2},
    "float32": {"rtol": 2e-4, "atol": 2e-5},
    "float64": {"rtol": 1e-10, "atol": 1e-10},
}


def _kernel_pairs(names: list[str]) -> list[tuple[str, str]]:
    """(op key, backend name) for every kernel of a composite op on the backends ``names``."""
    pairs = []
    for name in names:
        b = ivy_like.get_backend(name)
        for key, spec in sorted(OPS.items()):
            if spec.composite and spec.backend_name in b.kernels:
                pairs.append((key, name))
    return pairs


def pytest_generate_tests(metafunc: Any) -> None:
    if {"key", "backend_name"} <= set(metafunc.fixturenames):
        pairs = _kernel_pairs(selected_backends(metafunc.config))
        metafunc.parametrize("key, backend_name", pairs, ids=[f"{k}-{n}" for k, n in pairs])


def test_every_kernel_of_a_composite_has_cases():
    pairs = _kernel_pairs(ivy_like.available_backends())
    assert pairs, "no backend has a kernel for a composite op: the test below checks nothing"
    missing = sorted({key for key, _ in pairs} - set(CASES))
    assert not missing, f"kernels of composite ops without inputs in CASES: {missing}"
    # A stale entry is one no backend has a kernel for. A backend that is not installed here
    # cannot be loaded: its kernel is looked for in the source, the op's name in its family's
    # file (a definition, an alias, or a name in a table of aliases).
    stale = sorted(
        key for key in set(CASES) - {key for key, _ in pairs} if not _kernel_in_uninstalled(key)
    )
    assert not stale, f"CASES for ops that no backend has a kernel for: {stale}"


def _kernel_in_uninstalled(key: str) -> bool:
    spec = OPS[key]
    folder = Path(ivy_like.__file__).parent / "backends"
    name = re.escape(spec.backend_name)
    for backend in set(ivy_like.registered_backends()) - set(ivy_like.available_backends()):
        source = folder / backend / f"{spec.family}.py"
        if source.exists() and re.search(rf"\b{name}\b", source.read_text()):
            return True
    return False


def _native(b: Any, value: Any) -> Any:
    if isinstance(value, np.ndarray):
        return b.asarray(value)
    if isinstance(value, list) and value and isinstance(value[0], np.ndarray):
        return [b.asarray(v) for v in value]
    return value


def _outputs(result: Any) -> list[Any]:
    return list(result) if isinstance(result, (tuple, list)) else [result]


def _dtype(b: Any, a: Any) -> str:
    return str(b.unified_dtype(a.dtype))


def _float(b: Any, a: Any) -> bool:
    return _dtype(b, a) in VALUE_TOL


def _assert_same(
    b: Any, got: Any, expected: Any, tol: dict[str, dict[str, float]], what: str
) -> None:
    got, expected = _outputs(got), _outputs(expected)
    assert len(got) == len(expected), what
    for i, (g, e) in enumerate(zip(got, expected, strict=True)):
        where = f"{what}, output {i}"
        assert _dtype(b, g) == _dtype(b, e), where
        assert tuple(g.shape) == tuple(e.shape), where
        g_np, e_np = ivy_like.to_numpy(g), ivy_like.to_numpy(e)
        if _float(b, e):
            np.testing.assert_allclose(
                g_np.astype(np.float64),
                e_np.astype(np.float64),
                equal_nan=True,
                err_msg=where,
                **tol[_dtype(b, e)],
            )
        else:
            np.testing.assert_array_equal(g_np, e_np, err_msg=where)


def _grads(b: Any, fn: Any, args: tuple, kwargs: dict, argnums: tuple, weights: list) -> Any:
    """The gradients of ``sum(output * weights)`` over ``fn``'s floating outputs with respect
    to the arguments at ``argnums``."""

    def loss(*diff: Any) -> Any:
        full = list(args)
        for i, a in zip(argnums, diff, strict=True):
            full[i] = a
        outs = _outputs(fn(*full, **kwargs))
        return sum(ivy_like.sum(o * w) for o, w in zip(outs, weights, strict=True) if _float(b, o))

    wrt = tuple(range(len(argnums)))
    return ivy_like.grad(loss, argnums=wrt)(*(args[i] for i in argnums))


def _as_dispatched(key: str, args: tuple, kwargs: dict) -> tuple[tuple, dict]:
    """The arguments as the generated function hands them to a kernel: every parameter given,
    defaults filled in, keyword-only ones by name (a kernel may be the framework's own function,
    ``torch.softmax``, whose parameters have no defaults)."""
    bound = inspect.signature(OPS[key].declaration).bind(*args, **kwargs)
    bound.apply_defaults()
    positional, named = [], {}
    for p in OPS[key].params:
        if p.name == "out":
            continue
        if p.kind is p.KEYWORD_ONLY:
            named[p.name] = bound.arguments[p.name]
        elif p.kind is p.VAR_POSITIONAL:
            positional.extend(bound.arguments.get(p.name, ()))
        else:
            positional.append(bound.arguments[p.name])
    return tuple(positional), named


def test_kernel_matches_its_composite(key, backend_name):
    b = ivy_like.get_backend(backend_name)
    kernel, composite = b.kernels[OPS[key].backend_name], b.composite(key)
    for index, (np_args, np_kwargs) in enumerate(CASES[key]):
        what = f"{key} on {backend_name}, case {index}"
        args = tuple(_native(b, a) for a in np_args)
        kwargs = {k: _native(b, v) for k, v in np_kwargs.items()}
        args, kwargs = _as_dispatched(key, args, kwargs)
        with ivy_like.use_backend(b):
            expected = composite(*args, **kwargs)
            _assert_same(b, kernel(*args, **kwargs), expected, VALUE_TOL, what)
            # Gradients with respect to every floating array argument, the weights fixed
            # random numbers of each output's shape.
            argnums = tuple(
                i for i, a in enumerate(args) if isinstance(a, b.array_types) and _float(b, a)
            )
            if (
                not b.has_autodiff
                or not argnums
                or not any(_float(b, e) for e in _outputs(expected))
            ):
                continue
            weights = [
                b.asarray(r(*e.shape, seed=7 + i).astype(ivy_like.to_numpy(e).dtype))
                for i, e in enumerate(_outputs(expected))
            ]
            _assert_same(
                b,
                _grads(b, kernel, args, kwargs, argnums, weights),
                _grads(b, composite, args, kwargs, argnums, weights),
                GRAD_TOL,
                f"{what}, gradients",
            )
