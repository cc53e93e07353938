"""The first difference between two results, as data: where, how large, and a sentence.

:func:`~ivy_like.testing.assert_close` raises on the first difference; the checks of
:func:`~ivy_like.testing.check_function` need the largest one and its index to put in a
table, under the same rules: shapes and dtypes equal, NaN in the same places, values within
the dtype's tolerances (the sign of a zero is not compared: frameworks differ on it where
the standard leaves it open).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ._compare import _as_numpy, _leaves, default_tolerance


@dataclass(frozen=True)
class Difference:
    """``where``: the place for the table's cell (``"(1, 2)"``, ``"[0] (1, 2)"``);
    ``size``: the largest difference (None when it is not one of values: a shape, a dtype);
    ``message``: the sentence for the report."""

    message: str
    size: float | None = None
    where: str | None = None


_PYTHON = (bool, int, float, complex, str, type(None))


def numpy_leaves(result: Any) -> dict[str, Any]:
    """``{path: NumPy array or Python value}`` of a result of any backend (trees included).
    Python numbers stay numbers: a constant of the result (a count, a flag) is not an array,
    and ``vmap`` does not batch it."""
    out: dict[str, Any] = {}
    for path, leaf in _leaves(result):
        if isinstance(leaf, _PYTHON) and not isinstance(leaf, np.generic):  # np.float64 is a float
            out[path] = leaf
            continue
        value = _as_numpy(leaf)
        out[path] = np.asarray(value) if isinstance(value, np.generic) else value
    return out


def label(path: str) -> str:
    """A leaf's path as the report writes it: nothing for a lone result."""
    return "" if path == "<result>" else path


def _at(path: str, index: tuple[int, ...]) -> str:
    where = label(path)
    return f"{where} {index}" if where else str(index)


def first_difference(
    got: dict[str, Any],
    want: dict[str, Any],
    *,
    rtol: float | None = None,
    atol: float | None = None,
    check_dtype: bool = True,
) -> Difference | None:
    """The first leaf of ``got`` that differs from ``want`` (both from :func:`numpy_leaves`),
    with its largest difference among the values out of tolerance; None when they agree."""
    if list(got) != list(want):
        return Difference(f"the structure differs: {sorted(got)} vs {sorted(want)}")
    for path, a in got.items():
        b = want[path]
        name = f"output {label(path)}".rstrip()
        if isinstance(a, _PYTHON) != isinstance(b, _PYTHON):
            # A Python number against a 0-d array (jax.jit returns its constants as arrays):
            # the value counts, not the type the framework gives it.
            array, number = (a, b) if isinstance(b, _PYTHON) else (b, a)
            if isinstance(array, np.ndarray) and array.shape == () and array.item() == number:
                continue
            return Difference(f"{name}: {a!r} vs {b!r}")
        if not isinstance(a, np.ndarray) or not isinstance(b, np.ndarray):
            if isinstance(a, np.ndarray) or isinstance(b, np.ndarray) or a != b:
                return Difference(f"{name}: {a!r} vs {b!r}")
            continue
        if a.shape != b.shape:
            return Difference(f"{name}: shape {a.shape} vs {b.shape}")
        if check_dtype and a.dtype != b.dtype:
            return Difference(f"{name}: dtype {a.dtype} vs {b.dtype}")
        found = values_difference(a, b, rtol=rtol, atol=atol, name=name, path=path)
        if found is not None:
            return found
    return None


def values_difference(
    a: np.ndarray,
    b: np.ndarray,
    *,
    rtol: float | None = None,
    atol: float | None = None,
    name: str = "output",
    path: str = "<result>",
) -> Difference | None:
    """``a`` against the expected ``b`` (same shape): NaN positions, then tolerances."""
    if a.dtype.kind not in "biufc" or b.dtype.kind not in "biufc":
        if np.array_equal(a, b):
            return None
        idx = tuple(int(i) for i in np.argwhere(a != b)[0]) if a.shape else ()
        return Difference(f"{name} at {idx}: {a[idx]!r} vs {b[idx]!r}", None, _at(path, idx))
    r, t = default_tolerance(np.promote_types(a.dtype, b.dtype))
    r = r if rtol is None else rtol
    t = t if atol is None else atol
    wide = np.complex128 if "c" in (a.dtype.kind, b.dtype.kind) else np.float64
    a64, b64 = a.astype(wide), b.astype(wide)
    nan_a, nan_b = np.isnan(a64), np.isnan(b64)
    if not np.array_equal(nan_a, nan_b):
        idx = tuple(int(i) for i in np.argwhere(nan_a != nan_b)[0])
        return Difference(
            f"{name} at {idx}: {_num(a64[idx])} where {_num(b64[idx])} was expected "
            f"({int((nan_a != nan_b).sum())} NaN position(s) differ)",
            float("nan"),
            _at(path, idx),
        )
    with np.errstate(invalid="ignore", over="ignore"):
        ok = np.isclose(a64, b64, rtol=r, atol=t, equal_nan=True)
        if ok.all():
            return None
        err = np.abs(a64 - b64)
    # inf - inf is NaN: a same-signed infinity is equal (isclose said so), another is inf
    err = np.where(np.isnan(err), np.inf, err)
    err = np.where(ok, -1.0, err)
    idx = tuple(int(i) for i in np.unravel_index(int(np.argmax(err)), err.shape))
    size = float(err[idx])
    return Difference(
        f"{name} at {idx}: {_num(a64[idx])} where {_num(b64[idx])} was expected; "
        f"{int((~ok).sum())} of {ok.size} value(s) out of tolerance (rtol {r:g}, atol {t:g}), "
        f"largest difference {size:.3g}",
        size,
        _at(path, idx),
    )


def _num(value: Any) -> str:
    """A value for a sentence: 6 significant digits (the report is for people)."""
    if isinstance(value, (complex, np.complexfloating)):
        return f"{complex(value):.6g}"
    return f"{float(value):.6g}"
