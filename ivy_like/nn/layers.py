"""Layers: configuration objects with ``init(key) -> Container`` and ``apply(params, x)``.

A layer holds no arrays. ``init`` draws its parameters from an explicit seed (``key``, an int;
see :mod:`ivy_like.random`), with PyTorch's default initialisers and parameter names and
layouts (``Linear.weight`` is ``(out, in)``, ``Conv2d.weight`` OIHW); ``apply`` is a pure
function of the parameters and the input, so it works under ``ivy_like.grad``, ``jax.jit``,
``torch.func`` and ``tf.function``. Parameter-free layers return an empty Container.

Because the parameters come from the portable generator, ``init(key)`` gives bit-identical
parameters on every backend. They are made in ``init``'s ``dtype``, by default the default
floating dtype (float32 unless :func:`ivy_like.set_default_dtype` chose another).
"""

from __future__ import annotations

import math
from contextvars import ContextVar
from typing import Any

import ivy_like as il

from .. import random as _random

__all__ = [
    "AvgPool2d",
    "BatchNorm2d",
    "Conv1d",
    "Conv2d",
    "Dropout",
    "Embedding",
    "Flatten",
    "GELU",
    "Layer",
    "LayerNorm",
    "Linear",
    "LogSoftmax",
    "MaxPool2d",
    "ReLU",
    "SiLU",
    "Sigmoid",
    "Softmax",
    "Tanh",
]


def _container(**leaves: Any) -> Any:
    return il.Container(leaves)


def _positive_int(value: Any, name: str, who: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise ValueError(f"{who}: {name} must be a positive int, got {value!r}")
    return value


class Layer:
    """Base class: a parameter-free layer whose ``apply`` is ``forward``.

    ``uses_key`` is True for layers whose ``apply`` takes a ``key`` (dropout and containers
    of layers): :class:`~ivy_like.nn.Sequential` hands them one.

    Examples
    --------
    >>> import ivy_like
    >>> class Double(ivy_like.nn.Layer):
    ...     def apply(self, params, x):
    ...         return 2 * x
    >>> Double().apply(Double().init(0), ivy_like.array([1.0, 2.0]))
    ivy_like.array([2., 4.])
    """

    uses_key = False

    def init(self, key: int, *, backend: Any = None, dtype: Any = None) -> Any:
        """The layer's parameters as a Container (empty for this layer).

        Examples
        --------
        >>> import ivy_like
        >>> ivy_like.nn.ReLU().init(0)
        {}
        """
        return il.Container()

    def apply(self, params: Any, x: Any) -> Any:
        """The layer's output for ``x`` with ``params`` (a pure function of both).

        Examples
        --------
        >>> import ivy_like
        >>> layer = ivy_like.nn.Linear(2, 1, bias=False)
        >>> layer.apply({"weight": ivy_like.array([[1.0, -1.0]])}, ivy_like.array([[3.0, 1.0]]))
        ivy_like.array([[2.]])
        """
        raise NotImplementedError(
            f"{type(self).__name__} subclasses Layer but does not define apply(params, x)"
        )

    def _config(self) -> dict[str, Any]:
        return {k: v for k, v in vars(self).items() if not k.startswith("_")}

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self._config().items())
        return f"{type(self).__name__}({args})"

    def __eq__(self, other: object) -> bool:
        return type(self) is type(other) and self._config() == other._config()  # type: ignore[attr-defined]

    __hash__ = None  # type: ignore[assignment]


# -- parameter shapes -------------------------------------------------------------------------
class _Shape:
    """A parameter's shape, standing in for its array while ``_param_shapes`` runs ``init``."""

    __slots__ = ("shape",)

    def __init__(self, shape: tuple[int, ...]) -> None:
        self.shape = tuple(shape)


# True while _param_shapes runs a layer's init: the initialisers below then make no arrays, so
# the structure of a large model is read without drawing its parameters.
_SHAPES_ONLY: ContextVar[bool] = ContextVar("ivy_like_nn_shapes_only", default=False)


def _param_shapes(layer: Layer) -> dict[str, tuple[int, ...]]:
    """Key chain -> shape of each parameter ``layer.init`` makes, read from ``init`` itself.

    The built-in initialisers make no array while this runs; a custom layer whose ``init``
    draws arrays by other means still works (its arrays are made, then only their shapes kept).
    """
    token = _SHAPES_ONLY.set(True)
    try:
        params = layer.init(0)
    finally:
        _SHAPES_ONLY.reset(token)
    flat = il.Container(params).cont_flatten_key_chains() if params else {}
    return {kc: tuple(leaf.shape) for kc, leaf in flat.items()}


def _uniform(key: int, shape: tuple[int, ...], bound: float, backend: Any, dtype: Any) -> Any:
    if _SHAPES_ONLY.get():
        return _Shape(shape)
    return _random.uniform(
        shape, seed=key, low=-bound, high=bound, backend=backend, dtype=dtype
    ).data


def _normal(key: int, shape: tuple[int, ...], backend: Any, dtype: Any) -> Any:
    if _SHAPES_ONLY.get():
        return _Shape(shape)
    return _random.normal(shape, seed=key, backend=backend, dtype=dtype).data


def _filled(shape: tuple[int, ...], value: float, backend: Any, dtype: Any) -> Any:
    if _SHAPES_ONLY.get():
        return _Shape(shape)
    b = il.current_backend() if backend is None else il.get_backend(backend)
    with il.use_backend(b):
        # A float fill without dtype= is the default floating dtype (ivy_like.set_default_dtype)
        return il.full(shape, float(value), dtype=dtype).data


class Linear(Layer):
    """``y = x @ weight.T + bias`` with ``weight`` ``(out_features, in_features)``.

    Initialised as PyTorch does: both uniform in ``±1/sqrt(in_features)``.

    Examples
    --------
    >>> import ivy_like
    >>> layer = ivy_like.nn.Linear(3, 2)
    >>> params = layer.init(0)
    >>> params.cont_shapes
    {
        weight: (2, 3),
        bias: (2,)
    }
    >>> layer.apply(params, ivy_like.ones((4, 3))).shape
    (4, 2)
    """

    def __init__(self, in_features: int, out_features: int, bias: bool = True) -> None:
        self.in_features = _positive_int(in_features, "in_features", "Linear")
        self.out_features = _positive_int(out_features, "out_features", "Linear")
        self.bias = bool(bias)

    def init(self, key: int, *, backend: Any = None, dtype: Any = None) -> Any:
        kw, kb = _random.split(key)
        bound = 1.0 / math.sqrt(self.in_features)
        params = _container(
            weight=_uniform(kw, (self.out_features, self.in_features), bound, backend, dtype)
        )
        if self.bias:
            params["bias"] = _uniform(kb, (self.out_features,), bound, backend, dtype)
        return params

    def apply(self, params: Any, x: Any) -> Any:
        return il.nn.linear(x, params["weight"], params.get("bias"))


class _ConvNd(Layer):
    _n = 2

    def __init__(
        self,
        in_channels: int,
        out_channels: int,
        kernel_size: Any,
        stride: Any = 1,
        padding: Any = 0,
        dilation: Any = 1,
        groups: int = 1,
        bias: bool = True,
    ) -> None:
        who = type(self).__name__
        self.in_channels = _positive_int(in_channels, "in_channels", who)
        self.out_channels = _positive_int(out_channels, "out_channels", who)
        ks = (kernel_size,) * self._n if isinstance(kernel_size, int) else tuple(kernel_size)
        if len(ks) != self._n or not all(isinstance(k, int) and k > 0 for k in ks):
            raise ValueError(f"{who}: kernel_size must be a positive int or {self._n} of them")
        self.kernel_size = ks
        self.stride = stride
        self.padding = padding
        self.dilation = dilation
        self.groups = _positive_int(groups, "groups", who)
        if in_channels % groups or out_channels % groups:
            raise ValueError(f"{who}: in_channels and out_channels must be divisible by groups")
        self.bias = bool(bias)

    def init(self, key: int, *, backend: Any = None, dtype: Any = None) -> Any:
        kw, kb = _random.split(key)
        fan_in = self.in_channels // self.groups * math.prod(self.kernel_size)
        bound = 1.0 / math.sqrt(fan_in)
        shape = (self.out_channels, self.in_channels // self.groups, *self.kernel_size)
        params = _container(weight=_uniform(kw, shape, bound, backend, dtype))
        if self.bias:
            params["bias"] = _uniform(kb, (self.out_channels,), bound, backend, dtype)
        return params

    def apply(self, params: Any, x: Any) -> Any:
        fn = il.nn.conv2d if self._n == 2 else il.nn.conv1d
        return fn(
            x,
            params["weight"],
            params.get("bias"),
            self.stride,
            self.padding,
            self.dilation,
            self.groups,
        )


class Conv2d(_ConvNd):
    """2-D convolution on NCHW inputs; ``weight`` is OIHW ``(out, in/groups, kh, kw)``.

    Examples
    --------
    >>> import ivy_like
    >>> conv = ivy_like.nn.Conv2d(1, 4, 3, padding=1)
    >>> conv.apply(conv.init(0), ivy_like.ones((2, 1, 8, 8))).shape
    (2, 4, 8, 8)
    """


class Conv1d(_ConvNd):
    """1-D convolution on NCW inputs; ``weight`` is ``(out, in/groups, k)``.

    Examples
    --------
    >>> import ivy_like
    >>> conv = ivy_like.nn.Conv1d(2, 3, 5)
    >>> conv.apply(conv.init(0), ivy_like.ones((1, 2, 10))).shape
    (1, 3, 6)
    """

    _n = 1


class MaxPool2d(Layer):
    """Maximum over windows of NCHW inputs (``stride`` defaults to ``kernel_size``).

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.nn.MaxPool2d(2).apply({}, ivy_like.ones((1, 1, 4, 4))).shape
    (1, 1, 2, 2)
    """

    def __init__(self, kernel_size: Any, stride: Any = None, padding: Any = 0) -> None:
        self.kernel_size = kernel_size
        self.stride = stride
        self.padding = padding

    def apply(self, params: Any, x: Any) -> Any:
        return il.nn.max_pool2d(x, self.kernel_size, self.stride, self.padding)


class AvgPool2d(MaxPool2d):
    """Mean over windows of NCHW inputs (zero padding counted, as PyTorch's default).

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.nn.AvgPool2d(2).apply({}, ivy_like.ones((1, 1, 4, 4))).shape
    (1, 1, 2, 2)
    """

    def apply(self, params: Any, x: Any) -> Any:
        return il.nn.avg_pool2d(x, self.kernel_size, self.stride, self.padding)


class LayerNorm(Layer):
    """Normalise over the trailing ``normalized_shape``; ``weight`` ones, ``bias`` zeros.

    Examples
    --------
    >>> import ivy_like
    >>> ln = ivy_like.nn.LayerNorm(4)
    >>> ln.init(0).cont_shapes
    {
        weight: (4,),
        bias: (4,)
    }
    """

    def __init__(self, normalized_shape: Any, eps: float = 1e-5) -> None:
        shape = (normalized_shape,) if isinstance(normalized_shape, int) else normalized_shape
        self.normalized_shape = tuple(
            _positive_int(s, "normalized_shape", "LayerNorm") for s in shape
        )
        self.eps = float(eps)

    def init(self, key: int, *, backend: Any = None, dtype: Any = None) -> Any:
        return _container(
            weight=_filled(self.normalized_shape, 1.0, backend, dtype),
            bias=_filled(self.normalized_shape, 0.0, backend, dtype),
        )

    def apply(self, params: Any, x: Any) -> Any:
        return il.nn.layer_norm(
            x, self.normalized_shape, params["weight"], params["bias"], self.eps
        )


class BatchNorm2d(Layer):
    """Batch normalisation of NCHW inputs at inference, from ``running_mean``/``running_var``.

    Examples
    --------
    >>> import ivy_like
    >>> bn = ivy_like.nn.BatchNorm2d(3)
    >>> sorted(bn.init(0))
    ['bias', 'running_mean', 'running_var', 'weight']
    """

    def __init__(self, num_features: int, eps: float = 1e-5) -> None:
        self.num_features = _positive_int(num_features, "num_features", "BatchNorm2d")
        self.eps = float(eps)

    def init(self, key: int, *, backend: Any = None, dtype: Any = None) -> Any:
        c = (self.num_features,)
        return _container(
            weight=_filled(c, 1.0, backend, dtype),
            bias=_filled(c, 0.0, backend, dtype),
            running_mean=_filled(c, 0.0, backend, dtype),
            running_var=_filled(c, 1.0, backend, dtype),
        )

    def apply(self, params: Any, x: Any) -> Any:
        return il.nn.batch_norm(
            x,
            params["running_mean"],
            params["running_var"],
            params["weight"],
            params["bias"],
            self.eps,
        )


class Embedding(Layer):
    """Lookup table ``weight`` ``(num_embeddings, embedding_dim)``, initialised N(0, 1).

    Examples
    --------
    >>> import ivy_like
    >>> emb = ivy_like.nn.Embedding(10, 4)
    >>> emb.apply(emb.init(0), ivy_like.array([[1, 2, 3]])).shape
    (1, 3, 4)
    """

    def __init__(self, num_embeddings: int, embedding_dim: int) -> None:
        self.num_embeddings = _positive_int(num_embeddings, "num_embeddings", "Embedding")
        self.embedding_dim = _positive_int(embedding_dim, "embedding_dim", "Embedding")

    def init(self, key: int, *, backend: Any = None, dtype: Any = None) -> Any:
        shape = (self.num_embeddings, self.embedding_dim)
        return _container(weight=_normal(key, shape, backend, dtype))

    def apply(self, params: Any, x: Any) -> Any:
        return il.nn.embedding(x, params["weight"])


class Dropout(Layer):
    """Dropout with probability ``p``: the identity without a ``key`` (inference); with an
    int ``key`` a mask drawn from it (the same on every backend).

    Examples
    --------
    >>> import ivy_like
    >>> d = ivy_like.nn.Dropout(0.5)
    >>> d.apply({}, ivy_like.ones(4))
    ivy_like.array([1., 1., 1., 1.])
    """

    uses_key = True

    def __init__(self, p: float = 0.5) -> None:
        if not isinstance(p, (int, float)) or not 0.0 <= p < 1.0:
            raise ValueError(f"Dropout: p must be a probability in [0, 1), got {p!r}")
        self.p = float(p)

    def apply(self, params: Any, x: Any, *, key: Any = None) -> Any:
        return il.nn.dropout(x, self.p, key)


class ReLU(Layer):
    """``max(x, 0)``.

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.nn.ReLU().apply({}, ivy_like.array([-1., 1.]))
    ivy_like.array([0., 1.])
    """

    def apply(self, params: Any, x: Any) -> Any:
        return il.nn.relu(x)


class GELU(Layer):
    """Gaussian error linear unit (``approximate="none"`` or ``"tanh"``).

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.nn.GELU().apply({}, ivy_like.array([0.]))
    ivy_like.array([0.])
    """

    def __init__(self, approximate: str = "none") -> None:
        if approximate not in ("none", "tanh"):
            raise ValueError(f"GELU: approximate must be 'none' or 'tanh', got {approximate!r}")
        self.approximate = approximate

    def apply(self, params: Any, x: Any) -> Any:
        return il.nn.gelu(x, self.approximate)


class SiLU(Layer):
    """``x * sigmoid(x)``.

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.nn.SiLU().apply({}, ivy_like.array([0.]))
    ivy_like.array([0.])
    """

    def apply(self, params: Any, x: Any) -> Any:
        return il.nn.silu(x)


class Sigmoid(Layer):
    """The logistic function.

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.nn.Sigmoid().apply({}, ivy_like.array([0.]))
    ivy_like.array([0.5])
    """

    def apply(self, params: Any, x: Any) -> Any:
        return il.nn.sigmoid(x)


class Tanh(Layer):
    """Hyperbolic tangent.

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.nn.Tanh().apply({}, ivy_like.array([0.]))
    ivy_like.array([0.])
    """

    def apply(self, params: Any, x: Any) -> Any:
        return il.tanh(x)


class Softmax(Layer):
    """Softmax along ``axis``.

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.nn.Softmax().apply({}, ivy_like.array([1., 1.]))
    ivy_like.array([0.5, 0.5])
    """

    def __init__(self, axis: int = -1) -> None:
        self.axis = axis

    def apply(self, params: Any, x: Any) -> Any:
        return il.nn.softmax(x, self.axis)


class LogSoftmax(Softmax):
    """Log-softmax along ``axis``.

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.nn.LogSoftmax().apply({}, ivy_like.array([0., 0.]))
    ivy_like.array([-0.6931472, -0.6931472])
    """

    def apply(self, params: Any, x: Any) -> Any:
        return il.nn.log_softmax(x, self.axis)


class Flatten(Layer):
    """Flatten the axes from ``start_dim`` on (batch kept).

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.nn.Flatten().apply({}, ivy_like.ones((2, 3, 4))).shape
    (2, 12)
    """

    def __init__(self, start_dim: int = 1) -> None:
        self.start_dim = start_dim

    def apply(self, params: Any, x: Any) -> Any:
        # The first axis is -1 and the others are read as they are (never int(): under an
        # export with a dynamic batch a size is symbolic, None or, in MLX's shapeless trace, the
        # example's): a graph that names the example's batch size would serve only that size.
        lead, tail = tuple(x.shape[: self.start_dim]), tuple(x.shape[self.start_dim :])
        if not lead:
            return il.reshape(x, (-1,))
        if all(isinstance(s, int) for s in lead[1:] + tail):
            return il.reshape(x, (-1, *lead[1:], math.prod(tail)))
        return il.reshape(x, (*lead, -1))
