"""Models: a pure function (``apply``) plus a Container of parameters (``params``).

``m = MLP([64, 32, 10], seed=0, backend="torch")`` creates ``m.params`` on that backend (default:
the active one) from the seed, identically on every backend. ``m.apply(params, x)`` is pure, so
``ivy_like.value_and_grad(loss)(m.params, ...)``, ``jax.jit(m.apply)`` and the optimizers in
:mod:`ivy_like.optimizers` all work on it; ``m(x)`` is ``m.apply(m.params, x)``, run on the
backend of ``x`` (the parameters are moved there, once, if they live elsewhere; NumPy inputs
follow the active backend, as they do for every op).

A :class:`Sequential`'s parameters are keyed by the layer's index as a string, exactly like
a PyTorch ``nn.Sequential``'s ``state_dict`` (``"0/weight"`` is ``"0.weight"``); layers without
parameters have no key.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

import ivy_like as il

from .. import random as _random
from .layers import (
    GELU,
    Conv2d,
    Flatten,
    Layer,
    LayerNorm,
    Linear,
    MaxPool2d,
    ReLU,
    Sigmoid,
    SiLU,
    Tanh,
    _param_shapes,
)

__all__ = ["MLP", "Model", "Sequential", "SmallCNN", "TransformerBlock"]


def _check_params(who: str, expected: dict[str, tuple[int, ...]], params: Any) -> None:
    """Given ``params`` must have the key chains and shapes the model's ``init`` makes.

    Checked when the model is built, so a wrong set of weights is a ValueError naming the
    parameter there, not a shape error deep inside the first forward pass.
    """
    flat = il.Container(params).cont_flatten_key_chains() if params else {}
    for kc, shape in expected.items():
        if kc not in flat:
            raise ValueError(f"{who}: params has no {kc!r} (expected shape {shape})")
        got = getattr(flat[kc], "shape", None)
        got = None if got is None else tuple(got)
        if got != shape:
            raise ValueError(f"{who}: params {kc!r} has shape {got}, expected {shape}")
    extra = [kc for kc in flat if kc not in expected]
    if extra:
        raise ValueError(
            f"{who}: params has {extra[0]!r}, which the model does not have "
            f"(its parameters: {', '.join(expected) or 'none'})"
        )


class Model(Layer):
    """A layer that owns its parameters: ``params``, ``apply``, ``__call__``.

    Subclasses define ``init(key, backend=, dtype=)`` and ``apply(params, x)`` and call
    :meth:`_create` at the end of ``__init__``.

    Examples
    --------
    >>> import ivy_like
    >>> class Scale(ivy_like.nn.Model):
    ...     def __init__(self, seed=0, backend=None):
    ...         self._create(seed, backend, None, None)
    ...     def init(self, key, *, backend=None, dtype=None):
    ...         return ivy_like.Container(s=ivy_like.random.uniform((2,), seed=key,
    ...                                                            backend=backend).data)
    ...     def apply(self, params, x):
    ...         return x * params["s"]
    >>> m = Scale(seed=0, backend="numpy")
    >>> m(ivy_like.array([1.0, 1.0]))
    ivy_like.array([0.6369617 , 0.26978672])
    """

    params: Any

    def _create(self, seed: int, backend: Any, dtype: Any, params: Any) -> None:
        self.seed = seed
        b = il.current_backend() if backend is None else il.get_backend(backend)
        if params is None:
            params = self.init(seed, backend=b, dtype=dtype)
        else:
            _check_params(type(self).__name__, _param_shapes(self), params)
        self.params = params
        self._moved: tuple[Any, Any, Any] | None = None

    def _config(self) -> dict[str, Any]:
        return {k: v for k, v in vars(self).items() if not k.startswith("_") and k != "params"}

    def params_on(self, backend: Any) -> Any:
        """``params`` on ``backend`` (converted once and cached while ``params`` is unchanged).

        Examples
        --------
        >>> import ivy_like
        >>> m = ivy_like.nn.MLP([2, 2], backend="numpy")
        >>> m.params_on("numpy") is m.params
        True
        """
        b = il.get_backend(backend)
        leaves = self.params.cont_flatten_key_chains() if self.params else {}
        first = next(iter(leaves.values()), None)
        if first is None or il.backend_of(first) is b:
            return self.params
        moved = self._moved
        if moved is not None and moved[0] is self.params and moved[1] is b:
            return moved[2]
        converted = self.params.cont_to_backend(b)
        self._moved = (self.params, b, converted)
        return converted

    def __call__(self, x: Any, **kwargs: Any) -> Any:
        if isinstance(x, np.ndarray):
            b = il.current_backend()
        else:
            b = il.backend_of(x)
        return self.apply(self.params_on(b), x, **kwargs)


class Sequential(Model):
    """Layers applied in order; parameters keyed ``"0"``, ``"1"``, ... as in PyTorch.

    ``apply(params, x, key=None)``: a ``key`` (int seed) switches dropout on, each dropout layer
    getting its own seed derived from it.

    Examples
    --------
    >>> import ivy_like
    >>> from ivy_like import nn
    >>> m = nn.Sequential([nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2)], seed=0)
    >>> m.params.cont_all_key_chains()
    ['0/weight', '0/bias', '2/weight', '2/bias']
    >>> m(ivy_like.ones((3, 4))).shape
    (3, 2)
    """

    uses_key = True

    def __init__(
        self,
        layers: Sequence[Layer],
        *,
        seed: int = 0,
        backend: Any = None,
        dtype: Any = None,
        params: Any = None,
    ) -> None:
        layers = list(layers)
        for i, layer in enumerate(layers):
            if not isinstance(layer, Layer):
                raise TypeError(
                    f"Sequential: layers[{i}] is a {type(layer).__name__}, not an ivy_like.nn layer"
                )
        self.layers = layers
        self._create(seed, backend, dtype, params)

    def init(self, key: int, *, backend: Any = None, dtype: Any = None) -> Any:
        keys = _random.split(key, len(self.layers)) if self.layers else []
        params = il.Container()
        for i, (layer, k) in enumerate(zip(self.layers, keys)):
            p = layer.init(k, backend=backend, dtype=dtype)
            if p:
                params[str(i)] = p
        return params

    def apply(self, params: Any, x: Any, *, key: Any = None) -> Any:
        keys = _random.split(key, len(self.layers)) if key is not None and self.layers else None
        empty: dict[str, Any] = {}
        for i, layer in enumerate(self.layers):
            p = params[str(i)] if str(i) in params else empty
            if layer.uses_key:
                # uses_key: this layer's apply takes key=, which the base Layer.apply does not.
                key_i = None if keys is None else keys[i]
                x = layer.apply(p, x, key=key_i)  # type: ignore[call-arg]
            else:
                x = layer.apply(p, x)
        return x

    def __len__(self) -> int:
        return len(self.layers)

    def __getitem__(self, i: int) -> Layer:
        return self.layers[i]

    def __repr__(self) -> str:
        inner = "".join(f"\n  ({i}): {layer!r}" for i, layer in enumerate(self.layers))
        return f"{type(self).__name__}({inner}\n)"


_ACTIVATIONS = {"relu": ReLU, "gelu": GELU, "silu": SiLU, "sigmoid": Sigmoid, "tanh": Tanh}


class MLP(Sequential):
    """``Linear`` layers of ``sizes`` with ``activation`` between them (none after the last).

    Examples
    --------
    >>> import ivy_like
    >>> m = ivy_like.nn.MLP([64, 32, 10], seed=0)
    >>> [type(layer).__name__ for layer in m.layers]
    ['Linear', 'ReLU', 'Linear']
    >>> m(ivy_like.ones((5, 64))).shape
    (5, 10)
    """

    def __init__(
        self,
        sizes: Sequence[int],
        activation: str = "relu",
        *,
        seed: int = 0,
        backend: Any = None,
        dtype: Any = None,
        params: Any = None,
    ) -> None:
        sizes = list(sizes)
        if len(sizes) < 2:
            raise ValueError(f"MLP: sizes needs at least an input and an output size, got {sizes}")
        if activation not in _ACTIVATIONS:
            raise ValueError(
                f"MLP: activation must be one of {sorted(_ACTIVATIONS)}, got {activation!r}"
            )
        layers: list[Layer] = []
        for i, (a, b) in enumerate(zip(sizes, sizes[1:])):
            layers.append(Linear(a, b))
            if i < len(sizes) - 2:
                layers.append(_ACTIVATIONS[activation]())
        self.sizes = sizes
        self.activation = activation
        super().__init__(layers, seed=seed, backend=backend, dtype=dtype, params=params)


class SmallCNN(Sequential):
    """Two 3x3 conv + ReLU + 2x2 max-pool stages, then a linear classifier (NCHW inputs).

    Examples
    --------
    >>> import ivy_like
    >>> cnn = ivy_like.nn.SmallCNN(in_channels=1, num_classes=10, image_size=8, seed=0)
    >>> cnn(ivy_like.ones((2, 1, 8, 8))).shape
    (2, 10)
    """

    def __init__(
        self,
        in_channels: int = 1,
        num_classes: int = 10,
        image_size: int = 8,
        channels: Sequence[int] = (8, 16),
        *,
        seed: int = 0,
        backend: Any = None,
        dtype: Any = None,
        params: Any = None,
    ) -> None:
        if image_size % 4:
            raise ValueError(f"SmallCNN: image_size must be a multiple of 4, got {image_size}")
        c1, c2 = channels
        self.in_channels, self.num_classes, self.image_size = in_channels, num_classes, image_size
        self.channels = tuple(channels)
        side = image_size // 4
        layers: list[Layer] = [
            Conv2d(in_channels, c1, 3, padding=1),
            ReLU(),
            MaxPool2d(2),
            Conv2d(c1, c2, 3, padding=1),
            ReLU(),
            MaxPool2d(2),
            Flatten(),
            Linear(c2 * side * side, num_classes),
        ]
        super().__init__(layers, seed=seed, backend=backend, dtype=dtype, params=params)


class TransformerBlock(Model):
    """A pre-norm transformer encoder block on ``(batch, length, d_model)`` inputs::

        x = x + W_o · attention(LN1(x))          (multi-head, scaled dot product)
        x = x + ff2(gelu(ff1(LN2(x))))

    Parameters: ``ln1``, ``attn/{q,k,v,o}`` (Linear, PyTorch layout), ``ln2``, ``ff1``,
    ``ff2``. ``causal=True`` masks later positions.

    Examples
    --------
    >>> import ivy_like
    >>> block = ivy_like.nn.TransformerBlock(d_model=8, num_heads=2, seed=0)
    >>> block(ivy_like.ones((2, 5, 8))).shape
    (2, 5, 8)
    """

    def __init__(
        self,
        d_model: int,
        num_heads: int,
        d_ff: int | None = None,
        *,
        causal: bool = False,
        eps: float = 1e-5,
        seed: int = 0,
        backend: Any = None,
        dtype: Any = None,
        params: Any = None,
    ) -> None:
        if d_model % num_heads:
            raise ValueError(
                f"TransformerBlock: d_model ({d_model}) must be divisible by num_heads "
                f"({num_heads})"
            )
        self.d_model, self.num_heads = d_model, num_heads
        self.d_ff = 4 * d_model if d_ff is None else d_ff
        self.causal, self.eps = causal, eps
        self._parts = {
            "ln1": LayerNorm(d_model, eps),
            "attn/q": Linear(d_model, d_model),
            "attn/k": Linear(d_model, d_model),
            "attn/v": Linear(d_model, d_model),
            "attn/o": Linear(d_model, d_model),
            "ln2": LayerNorm(d_model, eps),
            "ff1": Linear(d_model, self.d_ff),
            "ff2": Linear(self.d_ff, d_model),
        }
        self._create(seed, backend, dtype, params)

    def init(self, key: int, *, backend: Any = None, dtype: Any = None) -> Any:
        params = il.Container()
        keys = _random.split(key, len(self._parts))
        for (name, part), k in zip(self._parts.items(), keys):
            params[name] = part.init(k, backend=backend, dtype=dtype)
        return params

    def _heads(self, t: Any, batch: int, length: int) -> Any:
        t = il.reshape(t, (batch, length, self.num_heads, self.d_model // self.num_heads))
        return il.permute_dims(t, (0, 2, 1, 3))

    def apply(self, params: Any, x: Any) -> Any:
        shape = tuple(int(s) for s in x.shape)
        if len(shape) != 3 or shape[-1] != self.d_model:
            raise ValueError(
                f"TransformerBlock: x must be (batch, length, {self.d_model}), got {shape}"
            )
        batch, length, _ = shape
        parts, p = self._parts, params
        h = parts["ln1"].apply(p["ln1"], x)
        q, k, v = (
            self._heads(parts[f"attn/{n}"].apply(p["attn"][n], h), batch, length) for n in "qkv"
        )
        att = il.nn.scaled_dot_product_attention(q, k, v, is_causal=self.causal)
        att = il.reshape(il.permute_dims(att, (0, 2, 1, 3)), (batch, length, self.d_model))
        x = x + parts["attn/o"].apply(p["attn"]["o"], att)
        h = parts["ln2"].apply(p["ln2"], x)
        return x + parts["ff2"].apply(p["ff2"], il.nn.gelu(parts["ff1"].apply(p["ff1"], h)))
