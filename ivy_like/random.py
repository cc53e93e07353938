"""Random numbers with explicit seeds: ``ivy_like.random``.

There is no global random state: every function takes ``seed`` (a non-negative int), and the
same seed gives the same numbers on every call. Two sources:

* ``source="portable"`` (the default): the numbers are drawn with NumPy's
  ``Generator(PCG64(seed))``, cast to the requested dtype *in NumPy*, and then handed to the
  backend. The result is therefore bit-for-bit the same on every backend (given the dtype),
  which is what makes a model initialised with ``seed=0`` identical on JAX, PyTorch,
  TensorFlow and MLX. The cost is one host-to-backend copy, and under ``jax.jit`` the numbers
  are constants of the trace.
* ``source="native"``: the framework's own seeded generator (``jax.random.key``,
  ``torch.Generator().manual_seed``, ``tf.random.stateless_*``, ``mlx.core.random.key``,
  ``numpy.random.default_rng``). Deterministic per backend, but each backend draws different
  numbers.

Seeds for several independent streams come from :func:`split` (NumPy's ``SeedSequence``, so
the derived seeds are the same everywhere too). Results are ``ivy_like.Array`` on ``backend``
(default: the active backend), like the other creation functions; ``.data`` is the native
array.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from .core import backend as _backend
from .core import dtypes as _dtypes
from .core.array import Array

__all__ = ["bernoulli", "normal", "permutation", "randint", "split", "uniform"]

_MAX_SEED = 2**63


def _check_seed(seed: Any, who: str) -> int:
    if not isinstance(seed, (int, np.integer)) or isinstance(seed, bool):
        raise TypeError(f"{who}: seed must be an int, got {type(seed).__name__}")
    if not 0 <= int(seed) < _MAX_SEED:
        raise ValueError(f"{who}: seed must be in [0, 2**63), got {seed}")
    return int(seed)


def _check_shape(shape: Any, who: str) -> tuple[int, ...]:
    if isinstance(shape, (int, np.integer)) and not isinstance(shape, bool):
        shape = (int(shape),)
    if not isinstance(shape, Sequence) or not all(
        isinstance(s, (int, np.integer)) and not isinstance(s, bool) and s >= 0 for s in shape
    ):
        raise TypeError(f"{who}: shape must be a sequence of non-negative ints, got {shape!r}")
    return tuple(int(s) for s in shape)


def split(seed: int, n: int = 2) -> list[int]:
    """``n`` independent seeds derived from ``seed`` (NumPy's ``SeedSequence.spawn``).

    Examples
    --------
    >>> import ivy_like
    >>> a, b = ivy_like.random.split(0)
    >>> a != b and ivy_like.random.split(0) == [a, b]
    True
    """
    seed = _check_seed(seed, "split")
    if not isinstance(n, int) or isinstance(n, bool) or n < 1:
        raise ValueError(f"split: n must be a positive int, got {n!r}")
    children = np.random.SeedSequence(seed).spawn(n)
    return [int(c.generate_state(1, np.uint64)[0]) % _MAX_SEED for c in children]


def _resolve(backend: Any) -> Any:
    return _backend.current_backend() if backend is None else _backend.get_backend(backend)


def _float_dtype(b: Any, dtype: Any, who: str) -> tuple[Any, Any]:
    """(unified dtype, NumPy dtype) of a floating ``dtype`` (default: the backend's)."""
    unified = _dtypes.as_dtype(b.DEFAULT_FLOAT if dtype is None else dtype)
    if unified.kind != "f":
        raise TypeError(f"{who}: dtype must be a floating dtype, got {unified.name}")
    return unified, _numpy_dtype(unified, who)


def _numpy_dtype(unified: Any, who: str) -> Any:
    try:
        return np.dtype(unified.name)
    except TypeError:
        raise TypeError(
            f"{who}: dtype {unified.name} has no NumPy counterpart for portable numbers; "
            f"draw in float32 and cast, or use source='native'"
        ) from None


def _finish(b: Any, host: np.ndarray, unified: Any) -> Array:
    native = b.asarray(host, dtype=b.native_dtype(unified))
    return Array(native, b)


def _check_source(source: str, who: str) -> None:
    if source not in ("portable", "native"):
        raise ValueError(f"{who}: source must be 'portable' or 'native', got {source!r}")


def _native(b: Any, who: str) -> Any:
    table = _NATIVE.get(b.name)
    if table is None:
        reason = _NO_NATIVE.get(b.name, "ivy_like has no table of its generators")
        raise NotImplementedError(
            f"{who}: source='native' is not supported on the {b.name} backend: {reason} "
            f"(native is available on {', '.join(sorted(_NATIVE._makers))}); use "
            "source='portable'"
        )
    return table


# Backends whose own generators cannot serve source='native', and why.
_NO_NATIVE = {
    "mxnet": "MXNet's generators are seeded globally (mx.random.seed) and ivy_like never "
    "changes global random state, so an explicit per-call seed cannot be honoured",
}


def _floats(
    who: str,
    params: tuple[float, float],
    shape: Any,
    seed: Any,
    dtype: Any,
    backend: Any,
    source: str,
) -> Array:
    """``uniform``/``normal`` after their own parameter check: the same seed, shape and source
    checks, then NumPy's PCG64 (portable: the same numbers on every backend) or the
    framework's own generator (native)."""
    seed = _check_seed(seed, who)
    shape = _check_shape(shape, who)
    _check_source(source, who)
    b = _resolve(backend)
    unified, np_dtype = _float_dtype(b, dtype, who)
    if source == "native":
        return Array(_native(b, who)[who](shape, seed, *params, b.native_dtype(unified)), b)
    host = getattr(np.random.Generator(np.random.PCG64(seed)), who)(*params, shape)
    return _finish(b, host.astype(np_dtype), unified)


def uniform(
    shape: Any = (),
    *,
    seed: int,
    low: float = 0.0,
    high: float = 1.0,
    dtype: Any = None,
    backend: Any = None,
    source: str = "portable",
) -> Array:
    """Uniform numbers in ``[low, high)``.

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.random.uniform((3,), seed=0)
    ivy_like.array([0.6369617 , 0.26978672, 0.04097353])
    """
    if not float(high) > float(low):
        raise ValueError(f"uniform: high ({high}) must be greater than low ({low})")
    return _floats("uniform", (low, high), shape, seed, dtype, backend, source)


def normal(
    shape: Any = (),
    *,
    seed: int,
    mean: float = 0.0,
    std: float = 1.0,
    dtype: Any = None,
    backend: Any = None,
    source: str = "portable",
) -> Array:
    """Normal numbers with the given ``mean`` and standard deviation ``std``.

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.random.normal((2,), seed=0)
    ivy_like.array([ 0.12573022, -0.13210486])
    """
    if not float(std) >= 0:
        raise ValueError(f"normal: std must be non-negative, got {std}")
    return _floats("normal", (mean, std), shape, seed, dtype, backend, source)


def randint(
    low: int,
    high: int,
    shape: Any = (),
    *,
    seed: int,
    dtype: Any = None,
    backend: Any = None,
    source: str = "portable",
) -> Array:
    """Integers in ``[low, high)`` (default dtype: the backend's default int).

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.random.randint(0, 10, (4,), seed=0)
    ivy_like.array([8, 6, 5, 2])
    """
    seed = _check_seed(seed, "randint")
    shape = _check_shape(shape, "randint")
    _check_source(source, "randint")
    for name, value in (("low", low), ("high", high)):
        if not isinstance(value, (int, np.integer)) or isinstance(value, bool):
            raise TypeError(f"randint: {name} must be an int, got {value!r}")
    if not high > low:
        raise ValueError(f"randint: high ({high}) must be greater than low ({low})")
    b = _resolve(backend)
    unified = _dtypes.as_dtype(b.DEFAULT_INT if dtype is None else dtype)
    if unified.kind not in ("i", "u"):
        raise TypeError(f"randint: dtype must be an integer dtype, got {unified.name}")
    info = np.iinfo(_numpy_dtype(unified, "randint"))
    if low < info.min or high - 1 > info.max:
        raise ValueError(
            f"randint: [low, high) = [{low}, {high}) does not fit in {unified.name} "
            f"([{info.min}, {info.max}])"
        )
    if source == "native":
        fn = _native(b, "randint")["randint"]
        return Array(fn(shape, seed, int(low), int(high), b.native_dtype(unified)), b)
    host = np.random.Generator(np.random.PCG64(seed)).integers(low, high, shape)
    return _finish(b, host.astype(_numpy_dtype(unified, "randint")), unified)


def bernoulli(
    p: float,
    shape: Any = (),
    *,
    seed: int,
    backend: Any = None,
    source: str = "portable",
) -> Array:
    """Booleans that are True with probability ``p``.

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.random.bernoulli(0.5, (4,), seed=0)
    ivy_like.array([False,  True,  True,  True])
    """
    seed = _check_seed(seed, "bernoulli")
    shape = _check_shape(shape, "bernoulli")
    _check_source(source, "bernoulli")
    if not isinstance(p, (int, float)) or not 0.0 <= p <= 1.0:
        raise ValueError(f"bernoulli: p must be a probability in [0, 1], got {p!r}")
    b = _resolve(backend)
    if source == "native":
        return Array(_native(b, "bernoulli")["bernoulli"](shape, seed, float(p)), b)
    host = np.random.Generator(np.random.PCG64(seed)).random(shape) < p
    return Array(b.asarray(host), b)


def permutation(n: int, *, seed: int, backend: Any = None, source: str = "portable") -> Array:
    """A random permutation of ``range(n)`` (default int dtype).

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.random.permutation(5, seed=0)
    ivy_like.array([2, 4, 3, 0, 1])
    """
    seed = _check_seed(seed, "permutation")
    if not isinstance(n, int) or isinstance(n, bool) or n < 0:
        raise ValueError(f"permutation: n must be a non-negative int, got {n!r}")
    _check_source(source, "permutation")
    b = _resolve(backend)
    if source == "native":
        return Array(_native(b, "permutation")["permutation"](n, seed), b)
    host = np.random.Generator(np.random.PCG64(seed)).permutation(n)
    unified = _dtypes.as_dtype(b.DEFAULT_INT)
    return _finish(b, host.astype(_numpy_dtype(unified, "permutation")), unified)


# -- the frameworks' own generators (source="native") --------------------------------------------
def _numpy_table() -> dict[str, Callable[..., Any]]:
    def rng(seed: int) -> Any:
        return np.random.default_rng(seed)

    return {
        "uniform": lambda shape, seed, lo, hi, dt: rng(seed).uniform(lo, hi, shape).astype(dt),
        "normal": lambda shape, seed, m, s, dt: rng(seed).normal(m, s, shape).astype(dt),
        "randint": lambda shape, seed, lo, hi, dt: rng(seed).integers(lo, hi, shape).astype(dt),
        "bernoulli": lambda shape, seed, p: rng(seed).random(shape) < p,
        "permutation": lambda n, seed: rng(seed).permutation(n),
    }


def _torch_table() -> dict[str, Callable[..., Any]]:
    import torch

    def gen(seed: int) -> Any:
        return torch.Generator().manual_seed(seed)

    return {
        "uniform": lambda shape, seed, lo, hi, dt: (
            torch.rand(shape, generator=gen(seed), dtype=dt) * (hi - lo) + lo
        ),
        "normal": lambda shape, seed, m, s, dt: (
            torch.randn(shape, generator=gen(seed), dtype=dt) * s + m
        ),
        "randint": lambda shape, seed, lo, hi, dt: torch.randint(
            lo, hi, shape, generator=gen(seed), dtype=dt
        ),
        "bernoulli": lambda shape, seed, p: torch.rand(shape, generator=gen(seed)) < p,
        "permutation": lambda n, seed: torch.randperm(n, generator=gen(seed)),
    }


def _jax_table() -> dict[str, Callable[..., Any]]:
    import jax

    key = jax.random.key
    return {
        "uniform": lambda shape, seed, lo, hi, dt: jax.random.uniform(key(seed), shape, dt, lo, hi),
        "normal": lambda shape, seed, m, s, dt: jax.random.normal(key(seed), shape, dt) * s + m,
        "randint": lambda shape, seed, lo, hi, dt: jax.random.randint(key(seed), shape, lo, hi, dt),
        "bernoulli": lambda shape, seed, p: jax.random.bernoulli(key(seed), p, shape),
        "permutation": lambda n, seed: jax.random.permutation(key(seed), n),
    }


def _tensorflow_table() -> dict[str, Callable[..., Any]]:
    import tensorflow as tf

    def s(seed: int) -> list[int]:
        return [seed % 2**31, seed // 2**31]

    return {
        "uniform": lambda shape, seed, lo, hi, dt: tf.random.stateless_uniform(
            shape, s(seed), lo, hi, dt
        ),
        "normal": lambda shape, seed, m, sd, dt: tf.random.stateless_normal(
            shape, s(seed), m, sd, dt
        ),
        # stateless_uniform draws int32/int64 only: draw int64, cast (the range was checked)
        "randint": lambda shape, seed, lo, hi, dt: tf.cast(
            tf.random.stateless_uniform(shape, s(seed), lo, hi, tf.int64), dt
        ),
        "bernoulli": lambda shape, seed, p: tf.random.stateless_uniform(shape, s(seed)) < p,
        "permutation": lambda n, seed: tf.argsort(tf.random.stateless_uniform((n,), s(seed))),
    }


def _mlx_table() -> dict[str, Callable[..., Any]]:
    import mlx.core as mx

    key = mx.random.key

    def floating(dt: Any, who: str) -> Any:
        if dt == mx.float64:
            raise TypeError(
                f"{who}: MLX's own generator cannot draw float64; use source='portable'"
            )
        return dt

    return {
        "uniform": lambda shape, seed, lo, hi, dt: mx.random.uniform(
            lo, hi, shape, floating(dt, "uniform"), key=key(seed)
        ),
        "normal": lambda shape, seed, m, s, dt: mx.random.normal(
            shape, floating(dt, "normal"), m, s, key=key(seed)
        ),
        "randint": lambda shape, seed, lo, hi, dt: mx.random.randint(
            lo, hi, shape, dt, key=key(seed)
        ),
        "bernoulli": lambda shape, seed, p: mx.random.bernoulli(p, shape, key=key(seed)),
        "permutation": lambda n, seed: mx.random.permutation(n, key=key(seed)),
    }


class _Tables(dict):  # type: ignore[type-arg]
    """Backend name -> generator table, built on first use (imports only that framework)."""

    _makers = {
        "numpy": _numpy_table,
        "torch": _torch_table,
        "jax": _jax_table,
        "tensorflow": _tensorflow_table,
        "mlx": _mlx_table,
    }

    def get(self, name: str, default: Any = None) -> Any:  # type: ignore[override]
        if name not in self and name in self._makers:
            self[name] = self._makers[name]()
        return super().get(name, default)

    def __iter__(self) -> Any:
        return iter(self._makers)


_NATIVE = _Tables()
