"""ONNX handlers for products and the window functions: ``MatMul``, ``Gemm``, ``Einsum``,
``Det``, ``Trilu``, ``BlackmanWindow``, ``HannWindow`` and ``HammingWindow``.

Imported by :mod:`.reductions` (their family), which registers them with the table.
"""

from __future__ import annotations

import math
from typing import Any

import ivy_like as il

from .._table import ONNX_DTYPES, has_dtype, onnx_op, scalar


def _dtype(x: Any) -> Any:
    return il.as_dtype(x.dtype)


def _scaled(y: Any, factor: float) -> Any:
    """``y * factor`` in ``y``'s dtype (Gemm's alpha and beta are floats, also for integer
    matrices, where a whole factor stays exact)."""
    if factor == 1.0:
        return y
    if il.isdtype(_dtype(y), "real floating"):
        return y * factor
    if float(factor).is_integer():
        return y * int(factor)
    wide = il.float64 if has_dtype("float64") else il.float32
    return il.astype(il.astype(y, wide) * factor, _dtype(y))


@onnx_op("MatMul")
def mat_mul(a: Any, b: Any) -> Any:
    """NumPy's ``matmul``: batched, with 1-D operands promoted and their axis removed."""
    return il.matmul(a, b)


@onnx_op("Gemm")
def gemm(
    a: Any,
    b: Any,
    c: Any = None,
    *,
    alpha: float = 1.0,
    beta: float = 1.0,
    transA: int = 0,
    transB: int = 0,
    broadcast: int = 0,  # before opset 7; broadcasting C is also right for an equal shape
) -> Any:
    """``alpha * A' @ B' + beta * C``, ``A'`` and ``B'`` transposed when asked, ``C`` optional
    (from opset 11) and broadcast to the result."""
    if transA:
        a = il.matrix_transpose(a)
    if transB:
        b = il.matrix_transpose(b)
    y = _scaled(il.matmul(a, b), alpha)
    if c is None or beta == 0.0:
        return y
    return y + _scaled(c, beta)


@onnx_op("Einsum", since=12)
def einsum(*operands: Any, equation: str = "") -> Any:
    """Einstein summation as ``equation`` says (spaces allowed, implicit output sorted)."""
    if isinstance(equation, bytes):
        equation = equation.decode()
    return il.einsum(equation.replace(" ", ""), *operands)


@onnx_op("Det", since=11)
def det(x: Any) -> Any:
    """Determinant of the last two (square) axes."""
    return il.linalg.det(x)


@onnx_op("Trilu", since=14)
def trilu(x: Any, k: Any = None, *, upper: int = 1) -> Any:
    """The upper (or lower) triangle of the last two axes from diagonal ``k`` (a known
    input, default 0), zeros elsewhere."""
    diagonal = 0 if k is None else int(scalar(k, "Trilu", "k"))
    return il.triu(x, k=diagonal) if upper else il.tril(x, k=diagonal)


# --------------------------------------------------------------------------- windows

# the types a window can be written as: the numeric ones
_WINDOW_DTYPES = {
    k: v for k, v in ONNX_DTYPES.items() if v not in ("bool", "complex64", "complex128")
}


def _window(size: Any, periodic: int, output_datatype: int, op: str, terms) -> Any:
    """``sum(c * cos(m * 2 * pi * n / N))`` over ``terms`` ``(c, m)``, ``n`` in ``[0, size)``
    and ``N`` the size (periodic) or the size - 1 (symmetric), as ``output_datatype``."""
    name = _WINDOW_DTYPES.get(int(output_datatype))
    if name is None:
        raise TypeError(f"{op}: output_datatype {output_datatype} is not a numeric type")
    if not has_dtype(name):
        raise TypeError(f"{op}: the {il.current_backend().name} backend has no {name}")
    length = int(scalar(size, op, "size"))
    # computed in the widest float the backend has, then written as asked (as ONNX does)
    wide = il.float64 if has_dtype("float64") else il.float32
    n = il.arange(length, dtype=wide)
    period = length if periodic else length - 1
    angle = n * (2.0 * math.pi) / period if period else n * float("nan")
    y = il.zeros_like(n)
    for coefficient, multiple in terms:
        y = y + (coefficient if multiple == 0 else coefficient * il.cos(angle * multiple))
    return il.astype(y, il.as_dtype(name))


@onnx_op("BlackmanWindow", since=17)
def blackman_window(size: Any, *, periodic: int = 1, output_datatype: int = 1) -> Any:
    """``0.42 - 0.5 cos(2 pi n / N) + 0.08 cos(4 pi n / N)``."""
    return _window(
        size, periodic, output_datatype, "BlackmanWindow", ((0.42, 0), (-0.5, 1), (0.08, 2))
    )


@onnx_op("HannWindow", since=17)
def hann_window(size: Any, *, periodic: int = 1, output_datatype: int = 1) -> Any:
    """``0.5 - 0.5 cos(2 pi n / N)`` (that is ``sin(pi n / N) ** 2``)."""
    return _window(size, periodic, output_datatype, "HannWindow", ((0.5, 0), (-0.5, 1)))


@onnx_op("HammingWindow", since=17)
def hamming_window(size: Any, *, periodic: int = 1, output_datatype: int = 1) -> Any:
    """``25/46 - 21/46 cos(2 pi n / N)``."""
    alpha = 25.0 / 46.0
    return _window(size, periodic, output_datatype, "HammingWindow", ((alpha, 0), (alpha - 1.0, 1)))
