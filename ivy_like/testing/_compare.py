"""Leafwise comparison of results across backends."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

import numpy as np

from ..core import backend as _backend
from ..core.array import Array

# (rtol, atol) per floating width: loose enough for different kernels, tight enough to catch
# real disagreements (float32 transcendental functions differ by a few ulp across frameworks).
_TOLERANCES = {16: (1e-2, 1e-3), 32: (1e-5, 1e-6), 64: (1e-10, 1e-12)}


class BackendMismatch(AssertionError):
    """Raised by :func:`assert_backends_agree`; the message says which backend, where, how much.

    Examples
    --------
    >>> from ivy_like.testing import BackendMismatch
    >>> issubclass(BackendMismatch, AssertionError)  # pytest reports it as a failed assertion
    True
    """

    __module__ = "ivy_like.testing"  # tracebacks name the public module, not this private one


def default_tolerance(dtype: Any) -> tuple[float, float]:
    """``(rtol, atol)`` for comparing values of ``dtype``; exact (0, 0) for bool and ints.

    Examples
    --------
    >>> import numpy as np
    >>> from ivy_like.testing import default_tolerance
    >>> default_tolerance(np.float32), default_tolerance(np.int64)
    ((1e-05, 1e-06), (0.0, 0.0))
    """
    dt = np.dtype(dtype)
    if dt.kind in "fc":
        bits = dt.itemsize * 8 // (2 if dt.kind == "c" else 1)
        return _TOLERANCES.get(bits, _TOLERANCES[32])
    return (0.0, 0.0)


def _leaves(x: Any, path: str = "") -> Iterator[tuple[str, Any]]:
    if isinstance(x, dict):  # Containers are dicts too
        for key in sorted(x, key=str):
            yield from _leaves(x[key], f"{path}/{key}" if path else str(key))
    elif isinstance(x, (list, tuple)) and not all(
        isinstance(v, (bool, int, float, complex)) for v in x
    ):
        for i, item in enumerate(x):
            yield from _leaves(item, f"{path}[{i}]")
    else:
        yield path or "<result>", x


def _as_numpy(x: Any) -> Any:
    if isinstance(x, Array):
        return x.to_numpy()
    kind = _backend.kind_of(type(x))
    if isinstance(kind, _backend.Backend):
        return kind.to_numpy(x)
    return np.asarray(x) if kind == _backend.NEUTRAL else x


def assert_close(
    actual: Any,
    expected: Any,
    *,
    rtol: float | None = None,
    atol: float | None = None,
    check_dtype: bool = True,
    label: str = "",
) -> None:
    """Assert two results (arrays of any backend, scalars, or trees of them) are equal.

    Shapes must match exactly and, with ``check_dtype``, dtypes too; values within dtype-aware
    tolerances; NaN positions must match (a NaN is never equal to a number, never mapped to 0).

    Examples
    --------
    >>> import ivy_like
    >>> from ivy_like.testing import assert_close
    >>> assert_close(ivy_like.array([1., float("nan")]), [1., float("nan")], check_dtype=False)
    """
    got = dict(_leaves(actual))
    want = dict(_leaves(expected))
    if list(got) != list(want):
        raise AssertionError(f"{label}structure differs: {sorted(got)} != {sorted(want)}")
    for path, a in got.items():
        b = want[path]
        a_np, b_np = np.asarray(_as_numpy(a)), np.asarray(_as_numpy(b))
        where = f"{label}{path}"
        if a_np.shape != b_np.shape:
            raise AssertionError(f"{where}: shape {a_np.shape} != {b_np.shape}")
        if check_dtype and a_np.dtype != b_np.dtype:
            raise AssertionError(f"{where}: dtype {a_np.dtype} != {b_np.dtype}")
        if a_np.dtype.kind not in "biufc" or b_np.dtype.kind not in "biufc":
            if not np.array_equal(a_np, b_np):
                raise AssertionError(f"{where}: {a_np!r} != {b_np!r}")
            continue
        r, t = default_tolerance(np.promote_types(a_np.dtype, b_np.dtype))
        r = r if rtol is None else rtol
        t = t if atol is None else atol
        a64 = a_np.astype(np.complex128 if a_np.dtype.kind == "c" else np.float64)
        b64 = b_np.astype(np.complex128 if b_np.dtype.kind == "c" else np.float64)
        nan_a, nan_b = np.isnan(a64), np.isnan(b64)
        if not np.array_equal(nan_a, nan_b):
            idx = np.argwhere(nan_a != nan_b)[0]
            raise AssertionError(
                f"{where}: NaN positions differ, first at index {tuple(idx)}: "
                f"{a64[tuple(idx)]} vs {b64[tuple(idx)]}"
            )
        ok = np.isclose(a64, b64, rtol=r, atol=t, equal_nan=True)
        if not ok.all():
            idx = tuple(np.argwhere(~ok)[0])
            err = np.asarray(np.abs(a64 - b64))
            err[np.isnan(err)] = 0
            raise AssertionError(
                f"{where}: {int((~ok).sum())} of {ok.size} values differ (rtol={r}, atol={t}); "
                f"first at index {idx}: {a64[idx]} vs {b64[idx]}; max abs diff {err.max():.3g}"
            )


def _convert_inputs(x: Any, backend: _backend.Backend) -> Any:
    """NumPy arrays, Arrays and native arrays of any backend -> arrays of ``backend``."""
    if isinstance(x, dict):
        return type(x)({k: _convert_inputs(v, backend) for k, v in x.items()})
    if isinstance(x, (list, tuple)) and not isinstance(x, Array):
        return type(x)(_convert_inputs(v, backend) for v in x)
    kind = _backend.kind_of(type(x))
    if kind == "array":
        return Array(backend.asarray(x.to_numpy()), backend)
    if isinstance(kind, _backend.Backend) or (
        kind == _backend.NEUTRAL and not isinstance(x, (bool, int, float, complex))
    ):
        return backend.asarray(np.asarray(_as_numpy(x)))
    return x


def assert_backends_agree(
    fn: Callable[..., Any],
    *args: Any,
    backends: Sequence[str] | None = None,
    reference: str | None = None,
    rtol: float | None = None,
    atol: float | None = None,
    check_dtype: bool = True,
    **kwargs: Any,
) -> dict[str, Any]:
    """Run ``fn(*args, **kwargs)`` on every backend and compare each result to the reference.

    Inputs (NumPy arrays, native arrays, ``Array``s, and dicts/lists/Containers of them) are
    converted to each backend, and ``fn`` runs with that backend active. The reference is
    ``reference`` when given, else numpy when it is among the backends (NumPy is the oracle),
    else the first backend listed. Raises :class:`BackendMismatch` naming the
    backend, the leaf and the size of the difference; returns ``{backend: result}``.

    Examples
    --------
    >>> import numpy as np
    >>> import ivy_like
    >>> from ivy_like.testing import assert_backends_agree
    >>> x = np.array([1., 2., 3.], dtype=np.float32)
    >>> results = assert_backends_agree(lambda a: ivy_like.sum(a * a), x, backends=["numpy"])
    >>> float(results["numpy"])
    14.0
    """
    names = list(backends) if backends is not None else _backend.available_backends()
    if not names:
        raise ValueError("assert_backends_agree: no backends to compare")
    ref_name = reference or ("numpy" if "numpy" in names else names[0])
    if ref_name not in names:
        names.insert(0, ref_name)
    results: dict[str, Any] = {}
    for name in names:
        b = _backend.get_backend(name)
        with _backend.use_backend(b):
            results[name] = fn(*_convert_inputs(args, b), **_convert_inputs(kwargs, b))
    for name in names:
        if name == ref_name:
            continue
        try:
            assert_close(
                results[name],
                results[ref_name],
                rtol=rtol,
                atol=atol,
                check_dtype=check_dtype,
                label=f"backend {name!r} vs {ref_name!r}: ",
            )
        except AssertionError as err:
            raise BackendMismatch(str(err)) from None
    return results
