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

Floats are drawn in ``dtype``, by default the default floating dtype (float32 unless
:func:`ivy_like.set_default_dtype` chose another); bfloat16 is rounded on the host with
ml_dtypes where it is installed, so it too is the same on every backend.

Seeds for several independent streams come from :func:`split` (NumPy's ``SeedSequence``, so
the derived seeds are the same everywhere too). Results are ``ivy_like.Array`` on ``backend``
(default: the active backend), like the other creation functions; ``.data`` is the native
array.

**Array keys.** ``seed`` may also be a *key array*, made by :func:`key` (an int32 array of
shape ``(2,)``; any integer array of shape ``(2,)`` or ``()`` is one: ``k`` means ``[k, 0]``, and
only the low 32 bits of each word count). The numbers then come from a counter-based generator
written with integer array ops (below), on the key's backend, so a key may be an input of a
compiled function (``ivy_like.compile``, ``jax.jit``, ``tf.function``, ``mx.compile``,
``torch.compile``): a new key value draws new numbers without compiling again, which an int
seed (a constant of the compiled function) cannot do. A key gives the same numbers on every
backend: bit for bit for ``uniform``, ``randint``, ``bernoulli`` and ``permutation`` (integer
ops and exact float conversions), and within a few float32 ulps for ``normal`` (its ``log``,
``cos`` and ``sqrt`` are each framework's own). ``split(key, n)`` gives ``n`` new keys, in the
graph. As with JAX keys, use a key once: draw with it or split it, not both.

The generator: the ``i``-th 32-bit word of the stream of key ``(k0, k1)`` is a keyed
permutation of the counter ``i``, three rounds ``h = mix(h ^ r0)``, ``h = mix(h ^ r1)``,
``h = mix(h + r0 + r1)`` where ``mix`` is the ``lowbias32`` integer hash (xor-shift 16,
multiply by ``0x7feb352d``, xor-shift 15, multiply by ``0x846ca68b``, xor-shift 16; found by
C. Wellons' hash-prospector search) and the round keys ``(r0, r1) = mix(key ^ c)`` with
``c = 0x243f6a88`` for drawing and ``0x2b7e1516`` for splitting (the first hex digits of pi and
e), so splitting and drawing run through unrelated permutations. The words are int32 bit
patterns (logical shifts are an arithmetic shift and a mask) because torch has no uint32 shift
or add.
Not cryptographic; distinct counters give distinct words (each round is a bijection). Floats
take the top 24 bits of a word (``k * 2**-24``: exact in float32; 11 bits for float16, two
words for float64), ``normal`` is Box-Muller on two words, ``randint`` the top 31 bits modulo
``high - low`` (at most ``2**31``), ``bernoulli(p)`` compares the top 24 bits with
``round(p * 2**24)`` and ``permutation`` argsorts ``n`` distinct words.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from .core import backend as _backend
from .core import dtypes as _dtypes
from .core.array import Array
from .ops.nn import dropout as _dropout

__all__ = ["bernoulli", "key", "normal", "permutation", "randint", "split", "uniform"]

_MAX_SEED = 2**63


def _is_int_seed(seed: Any) -> bool:
    return isinstance(seed, (int, np.integer)) and not isinstance(seed, bool)


def _check_seed(seed: Any, who: str) -> int:
    if not _is_int_seed(seed):
        raise TypeError(
            f"{who}: seed must be an int, got {type(seed).__name__} (or a key array, see "
            "ivy_like.random.key)"
        )
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


def split(seed: Any, n: int = 2) -> list[Any]:
    """``n`` independent seeds derived from ``seed``: ints from an int (NumPy's
    ``SeedSequence.spawn``), key arrays from a key array (in the graph, so a compiled training
    step can advance its key: ``key, sub = split(key)``).

    Examples
    --------
    >>> import ivy_like
    >>> a, b = ivy_like.random.split(0)
    >>> a != b and ivy_like.random.split(0) == [a, b]
    True
    >>> key, sub = ivy_like.random.split(ivy_like.random.key(0))
    >>> key
    ivy_like.array([1561229401, -270449690])
    """
    if not isinstance(n, int) or isinstance(n, bool) or n < 1:
        raise ValueError(f"split: n must be a positive int, got {n!r}")
    if _is_key_array(seed):
        b, words = _key_words(seed, None, "split")
        children = b.reshape(_words(b, words, 2 * n, _SPLIT), (n, 2))
        return [Array(children[i], b) for i in range(n)]
    seed = _check_seed(seed, "split")
    children = np.random.SeedSequence(seed).spawn(n)
    return [int(c.generate_state(1, np.uint64)[0]) % _MAX_SEED for c in children]


def key(seed: int, *, backend: Any = None) -> Array:
    """The key array of an int ``seed``: int32 ``[low 32 bits, high 32 bits]`` of the seed, on
    ``backend`` (default: the active one). Pass it as ``seed=`` (``key=`` to dropout) where the
    numbers must change inside a compiled function; split it for new keys.

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.random.key(2**32 + 5)
    ivy_like.array([5, 1])
    >>> ivy_like.random.uniform((3,), seed=ivy_like.random.key(0))
    ivy_like.array([0.4023682 , 0.84192944, 0.54019094])
    """
    seed = _check_seed(seed, "key")
    b = _resolve(backend)
    words = np.array([seed & 0xFFFFFFFF, seed >> 32], np.uint32).view(np.int32)
    return Array(b.asarray(words, dtype=b.native_dtype(_dtypes.as_dtype("int32"))), b)


# -- the counter-based generator of key arrays (see the module docstring) -------------------------
# lowbias32's multipliers as int32 bit patterns; the round-key constants of drawing and
# splitting (the first digits of pi and e, as int32): the two never share a stream.
_M1, _M2 = 0x7FEB352D, 0x846CA68B - 2**32
_DRAW, _SPLIT = 0x243F6A88, 0x2B7E1516


def _is_key_array(seed: Any) -> bool:
    kind = _backend.kind_of(type(seed))
    return (
        kind is _backend.ARRAY_KIND
        or kind.__class__ is _backend.Backend
        or isinstance(seed, np.ndarray)
    )


def _key_words(seed: Any, backend: Any, who: str) -> tuple[Any, Any]:
    """(backend, int32 words of shape (2,)) of a key array; a NumPy key goes to ``backend``."""
    if isinstance(seed, Array):
        b, native = seed.backend, seed.data
    elif isinstance(seed, np.ndarray):
        b = _resolve(backend)
        native = b.asarray(seed)
    else:
        b, native = _backend.backend_of(seed), seed
    if backend is not None and _backend.get_backend(backend) is not b:
        raise ValueError(
            f"{who}: the key is a {b.name} array, but the numbers are wanted on "
            f"{_backend.get_backend(backend).name}; convert the key (ivy_like.asarray)"
        )
    shape = tuple(b.shape(native))
    unified = b.unified_dtype(b.dtype(native))
    if unified.kind not in ("i", "u"):
        raise TypeError(f"{who}: a key array must have an integer dtype, got {unified.name}")
    if shape not in ((), (2,)):
        raise ValueError(f"{who}: a key array has shape (2,) or (), got {shape}")
    i32 = b.native_dtype(_dtypes.as_dtype("int32"))
    if unified.name != "int32":
        native = b.astype(native, i32)  # the low 32 bits of each word
    if shape == ():
        word = b.reshape(native, (1,))
        native = b.concat([word, b.bitwise_xor(word, word)])  # k means [k, 0]
    return b, native


def _shift(b: Any, x: Any, s: int) -> Any:
    """Logical right shift of int32 bit patterns: arithmetic shift, then mask the sign copies."""
    return b.bitwise_and(b.bitwise_right_shift(x, s), (1 << (32 - s)) - 1)


def _mix(b: Any, x: Any) -> Any:
    """lowbias32: a bijection of 32-bit words (int32 products wrap on every backend)."""
    x = b.bitwise_xor(x, _shift(b, x, 16))
    x = b.multiply(x, _M1)
    x = b.bitwise_xor(x, _shift(b, x, 15))
    x = b.multiply(x, _M2)
    return b.bitwise_xor(x, _shift(b, x, 16))


def _device(b: Any, native: Any) -> Any:
    """Where to create the counters: the key's device; None (the default) on the CPU, so no
    device object enters a traced function there."""
    device = b.device(native)
    if isinstance(device, str) and device in ("", "cpu"):
        return None
    return b.scalar_device(native)  # a key spread over a mesh: the words on it, replicated


def _words(b: Any, key_words: Any, n: int, domain: int) -> Any:
    """The first ``n`` int32 words of the stream of ``key_words`` (shape (2,)) in ``domain``."""
    rounds = _mix(b, b.bitwise_xor(key_words, domain))
    r0, r1 = rounds[0:1], rounds[1:2]  # shape (1,): NumPy keeps arrays (0-d gives scalars)
    i32 = b.native_dtype(_dtypes.as_dtype("int32"))
    h = b.arange(0, n, 1, dtype=i32, device=_device(b, key_words))
    h = _mix(b, b.bitwise_xor(h, r0))
    h = _mix(b, b.bitwise_xor(h, r1))
    return _mix(b, b.add(h, b.add(r0, r1)))


def _unit(b: Any, words: Any, n: int, unified: Any) -> Any:
    """``n`` floats in [0, 1) with the significand bits of ``unified`` from ``words`` (2n
    words for float64): ``k * 2**-bits``, ``k`` the top ``bits`` of a word, exact in
    ``unified``; computed in (and returned as) float32, float64 for float64."""
    if unified.name == "float64":
        f64 = b.native_dtype(unified)
        hi = b.astype(_shift(b, words[:n], 6), f64)  # 26 + 27 = 53 bits
        lo = b.astype(_shift(b, words[n:], 5), f64)
        return b.multiply(b.add(b.multiply(hi, 2.0**27), lo), 2.0**-53)
    bits = _BITS[unified.name]
    f32 = b.native_dtype(_dtypes.as_dtype("float32"))
    return b.multiply(b.astype(_shift(b, words, 32 - bits), f32), 2.0**-bits)


# The significand bits of each float dtype a key draws: k * 2**-bits is exact in it.
_BITS = {"float32": 24, "float16": 11, "bfloat16": 8}


def _unified(b: Any, dtype: Any) -> Any:
    """The unified dtype of ``dtype``; a native one through its backend's own table, which a
    torch.compile trace can read (the shared cache of every framework's dtypes it cannot
    hash once it holds TensorFlow's)."""
    if isinstance(dtype, (str, _dtypes.Dtype)):
        return _dtypes.as_dtype(dtype)
    return b.unified_dtype(dtype)


def _wide(unified: Any) -> Any:
    """The dtype the floats are computed in: float64 for float64, else float32."""
    return unified if unified.name == "float64" else _dtypes.as_dtype("float32")


def _keyed_floats(
    who: str,
    params: tuple[float, float],
    shape: tuple[int, ...],
    seed: Any,
    dtype: Any,
    backend: Any,
) -> Array:
    b, key_words = _key_words(seed, backend, who)
    unified = _unified(b, _default_float(b) if dtype is None else dtype)
    if unified.name not in _BITS and unified.name != "float64":
        raise TypeError(f"{who}: dtype must be a floating dtype, got {unified.name}")
    wide = _wide(unified)
    n = math.prod(shape)
    per = 2 if wide.name == "float64" else 1  # words per float
    if who == "uniform":
        low, high = params
        u = _unit(b, _words(b, key_words, per * n, _DRAW), n, unified)
        x = b.add(b.multiply(u, high - low), low)
        x = b.astype(x, b.native_dtype(unified)) if unified is not wide else x
        # Rounding may reach high itself: the largest value below it instead (an array
        # towards low: torch's nextafter takes no Python scalar inside torch.compile).
        x = b.where(b.less(x, high), x, b.nextafter(x, b.full_like(x, low)))
    else:
        mean, std = params
        words = _words(b, key_words, 2 * per * n, _DRAW)
        u1 = 1.0 - _unit(b, words[: per * n], n, wide)  # (0, 1]: its log is finite
        u2 = _unit(b, words[per * n :], n, wide)
        radius = b.sqrt(b.multiply(b.log(u1), -2.0))
        z = b.multiply(radius, b.cos(b.multiply(u2, 2 * math.pi)))  # Box-Muller
        x = b.add(b.multiply(z, std), mean)
        x = b.astype(x, b.native_dtype(unified)) if unified is not wide else x
    return Array(b.reshape(x, shape), b)


def _keyed_bernoulli(p: float, shape: tuple[int, ...], seed: Any, backend: Any, who: str) -> Array:
    """``bernoulli`` (and dropout's mask) with a key array."""
    b, key_words = _key_words(seed, backend, who)
    n = math.prod(shape)
    top = _shift(b, _words(b, key_words, n, _DRAW), 8)
    # top 24 bits < round(p 2**24): integers, so the same mask on every backend
    return Array(b.reshape(b.less(top, round(p * 2**24)), shape), b)


def _keyed_randint(
    b: Any, key_words: Any, low: int, high: int, shape: tuple[int, ...], unified: Any
) -> Array:
    span = high - low
    if span > 2**31:
        raise ValueError(f"randint: with a key array, high - low must be at most 2**31, got {span}")
    n = math.prod(shape)
    top = _shift(b, _words(b, key_words, n, _DRAW), 1)  # 31 bits, non-negative
    # The modulo's bias is below span / 2**31 (5e-9 for span 10).
    offset = top if span == 2**31 else b.remainder(top, span)
    native = b.native_dtype(unified)
    if -(2**31) <= low and high <= 2**31:  # low + offset fits int32: add, then cast
        out = b.astype(b.add(offset, low), native)
    else:
        out = b.add(b.astype(offset, native), low)
    return Array(b.reshape(out, shape), b)


def _resolve(backend: Any) -> Any:
    return _backend.current_backend() if backend is None else _backend.get_backend(backend)


def _default_float(b: Any) -> Any:
    """The floating dtype of a draw without ``dtype=``: the one chosen with
    ``ivy_like.set_default_dtype``, else the backend's own (float32)."""
    chosen = _dtypes.chosen_default()
    return b.DEFAULT_FLOAT if chosen is None else chosen


def _float_dtype(b: Any, dtype: Any, who: str) -> tuple[Any, Any]:
    """(unified dtype, NumPy dtype) of a floating ``dtype`` (default: see _default_float)."""
    unified = _dtypes.as_dtype(_default_float(b) if dtype is None else dtype)
    if unified.kind != "f":
        raise TypeError(f"{who}: dtype must be a floating dtype, got {unified.name}")
    return unified, _numpy_dtype(unified, who)


def _numpy_dtype(unified: Any, who: str) -> Any:
    if unified.name == "bfloat16":
        # NumPy's bfloat16 is ml_dtypes' (a dependency of jax and tensorflow): the numbers are
        # rounded to it on the host, once, so every backend gets the same bits. Without it they
        # go as float32 and each backend rounds them (the same but for rare double roundings).
        try:
            import ml_dtypes
        except ImportError:
            return np.dtype("float32")
        return np.dtype(ml_dtypes.bfloat16)
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


def _check_keyed_source(source: str, who: str) -> None:
    _check_source(source, who)
    if source == "native":
        raise ValueError(
            f"{who}: source='native' takes an int seed; a key array always draws from the "
            "counter-based generator (the same numbers on every backend)"
        )


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


def _checked(seed: Any, shape: Any, source: str, who: str) -> tuple[bool, Any, Any]:
    """The checks a draw makes first, in this order: ``seed`` (an int, or a key array: then
    ``keyed``), ``shape``, and ``source`` (one a key array allows). Returns ``(keyed, seed,
    shape)``."""
    keyed = _is_key_array(seed)
    if not keyed:
        seed = _check_seed(seed, who)
    shape = _check_shape(shape, who)
    (_check_keyed_source if keyed else _check_source)(source, who)
    return keyed, seed, shape


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
    keyed, seed, shape = _checked(seed, shape, source, who)
    if keyed:
        return _keyed_floats(who, params, shape, seed, dtype, backend)
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
    keyed, seed, shape = _checked(seed, shape, source, "randint")
    for name, value in (("low", low), ("high", high)):
        if not isinstance(value, (int, np.integer)) or isinstance(value, bool):
            raise TypeError(f"randint: {name} must be an int, got {value!r}")
    if not high > low:
        raise ValueError(f"randint: high ({high}) must be greater than low ({low})")
    if keyed:
        b, key_words = _key_words(seed, backend, "randint")
    else:
        b = _resolve(backend)
    unified = _unified(b, b.DEFAULT_INT if dtype is None else dtype)
    if unified.kind not in ("i", "u"):
        raise TypeError(f"randint: dtype must be an integer dtype, got {unified.name}")
    signed = unified.kind == "i"
    lo, hi = (-(2 ** (unified.bits - 1)) if signed else 0), 2 ** (unified.bits - signed) - 1
    if low < lo or high - 1 > hi:
        raise ValueError(
            f"randint: [low, high) = [{low}, {high}) does not fit in {unified.name} ([{lo}, {hi}])"
        )
    if keyed:
        return _keyed_randint(b, key_words, int(low), int(high), shape, unified)
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
    keyed, seed, shape = _checked(seed, shape, source, "bernoulli")
    if not isinstance(p, (int, float)) or not 0.0 <= p <= 1.0:
        raise ValueError(f"bernoulli: p must be a probability in [0, 1], got {p!r}")
    if keyed:
        return _keyed_bernoulli(p, shape, seed, backend, "bernoulli")
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
    keyed = _is_key_array(seed)
    if not keyed:
        seed = _check_seed(seed, "permutation")
    if not isinstance(n, int) or isinstance(n, bool) or n < 0:
        raise ValueError(f"permutation: n must be a non-negative int, got {n!r}")
    (_check_keyed_source if keyed else _check_source)(source, "permutation")
    if keyed:
        b, key_words = _key_words(seed, backend, "permutation")
        # n distinct words (a keyed bijection of the counters): no ties, one order everywhere
        order = b.argsort(_words(b, key_words, n, _DRAW))
        return Array(b.astype(order, b.DEFAULT_INT), b)
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

# nn.dropout draws its masks here (its declaration sits below this module, so it cannot import it)
_dropout.RANDOM.update(seeded=bernoulli, keyed=_keyed_bernoulli, is_key=_is_key_array)
