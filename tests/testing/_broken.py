"""Functions with one deliberate bug each, for the tests of ``check_function``: each must
fail the check that exists for its bug, on every backend where that check applies, and pass
the others."""

import numpy as np

import ivy_like

# Values that keep every function below smooth at the example (no zero, no tie) while the
# batch's variants change the sign of the sum (the compile check needs a branch to flip).
X = np.array([0.5, -1.25, 2.0, 0.75], dtype=np.float32)


@ivy_like.custom_function
def wrong_gradient(x):
    """sin, with derivative rules that are each other's transpose but twice too large."""
    return ivy_like.sin(x)


@wrong_gradient.vjp
def _wrong_gradient_vjp(primals, cotangent, output):
    (x,) = primals
    return cotangent * ivy_like.cos(x) * 2.0


@wrong_gradient.jvp
def _wrong_gradient_jvp(primals, tangents):
    (x,), (t,) = primals, tangents
    return t * ivy_like.cos(x) * 2.0


def python_branch(x):
    """A Python ``if`` on a value: under compile (and vmap) the value is not known."""
    if ivy_like.sum(x) > 0:
        return x * 2.0
    return x * x


def writes_into_its_input(x, counts):
    """Counts its calls in ``counts``, an argument (Arrays: rebound on immutable backends)."""
    ivy_like.add(counts, 1, out=counts)
    return ivy_like.tanh(x) * 3.0


@ivy_like.custom_function
def centred(x):
    """x - mean(x), with a vmap rule that takes the mean over the whole batch."""
    return x - ivy_like.mean(x)


@centred.vmap
def _centred_vmap(inputs, axes):
    (x,), (axis,) = inputs, axes
    return x - ivy_like.mean(x), axis  # the bug: the batch axis is reduced too


def negative_zero_on(backend_name):
    """x plus 1 where x is -0.0, except on ``backend_name``, which tests ``x < 0`` for the
    sign (False for -0.0) where the others test the sign bit."""

    def f(x):
        if ivy_like.backend_of(x).name == backend_name:
            negative = x < 0
        else:
            # stop_gradient: the sign bit has no derivative (MLX would try to differentiate
            # the bit view signbit reads)
            negative = ivy_like.signbit(ivy_like.stop_gradient(x))
        return x + ivy_like.where(
            negative & (x == 0), ivy_like.ones_like(x), ivy_like.zeros_like(x)
        )

    f.__name__ = f.__qualname__ = f"negative_zero_on_{backend_name}"
    return f


X_WITH_NEGATIVE_ZERO = np.array([0.5, -0.0, 2.0, -0.75], dtype=np.float32)


@ivy_like.custom_function
def inconsistent_rules(x):
    """sin, with a right vjp rule and a jvp rule twice too large: reverse and forward mode
    disagree (JAX uses the jvp rule in both modes, so there they agree, both wrong)."""
    return ivy_like.sin(x)


@inconsistent_rules.vjp
def _inconsistent_vjp(primals, cotangent, output):
    return cotangent * ivy_like.cos(primals[0])


@inconsistent_rules.jvp
def _inconsistent_jvp(primals, tangents):
    return tangents[0] * ivy_like.cos(primals[0]) * 2.0


@ivy_like.custom_function
def misshapen_tangent(x):
    """sin, with a jvp rule whose tangent is one element short (a rule of the wrong shape)."""
    return ivy_like.sin(x)


@misshapen_tangent.jvp
def _misshapen_tangent_jvp(primals, tangents):
    (x,), (t,) = primals, tangents
    return (t * ivy_like.cos(x))[1:]
