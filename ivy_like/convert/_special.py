"""erf and erfc composed of ivy_like ops, for the converters (ivy_like has no erf op): a
jaxpr's ``erf``/``erfc`` primitives and ATen's ``erf``/``erfc`` map here.

The fit is accurate to float32's precision (relative error below 1.2e-7) and differentiable
everywhere, with the right slope at 0.
"""

from __future__ import annotations

from typing import Any

import ivy_like as il

# erfc(|x|) = t * exp(-x^2 + P(t)), t = 1 / (1 + |x|/2): Chebyshev fit with relative error
# below 1.2e-7 everywhere (Numerical Recipes' erfc); ivy_like has no erf op.
_ERFC = (
    -1.26551223,
    1.00002368,
    0.37409196,
    0.09678418,
    -0.18628806,
    0.27886807,
    -1.13520398,
    1.48851587,
    -0.82215223,
    0.17087277,
)


def _erfc_abs(x: Any, negative: Any) -> Any:
    # |x| as a where rather than abs, whose gradient at 0 is 0: erf'(0) is 2/sqrt(pi)
    z = il.where(negative, il.negative(x), x)
    t = il.reciprocal(il.add(il.multiply(z, 0.5), 1.0))
    poly = _ERFC[-1]
    for c in reversed(_ERFC[:-1]):
        poly = il.add(il.multiply(t, poly), c)
    return il.multiply(t, il.exp(il.subtract(poly, il.square(z))))


def erfc(x: Any) -> Any:
    negative = il.less(x, 0)
    e = _erfc_abs(x, negative)
    return il.where(negative, il.subtract(2.0, e), e)


def erf(x: Any) -> Any:
    negative = il.less(x, 0)
    e = _erfc_abs(x, negative)
    return il.where(negative, il.subtract(e, 1.0), il.subtract(1.0, e))
