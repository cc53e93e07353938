"""``Mesh``: named axes over the devices (or processes) of one backend, and the backend's
``distributed.py`` that carries it out (the one-device hooks for a backend without one)."""

from __future__ import annotations

import importlib
import math
from collections.abc import Mapping
from contextvars import ContextVar
from types import ModuleType, SimpleNamespace
from typing import Any

from ..backends._common import distributed as _one_device
from ..core import backend as _backend
from ..core.backend import Backend

_HOOKS: dict[str, Any] = {}
# The mesh of the spmd function running now (set per shard, in the shard's own thread).
CURRENT: ContextVar[Mesh | None] = ContextVar("ivy_like_mesh", default=None)


def hooks_of(backend: Backend) -> Any:
    """The backend's distributed hooks: its ``distributed.py``, with the one-device hooks for
    any name it does not define (all of them for numpy, MXNet and plugins without the file)."""
    hooks = _HOOKS.get(backend.name)
    if hooks is None:
        module: ModuleType | None = None
        package = backend.module.__name__
        if hasattr(backend.module, "__path__") and importlib.util.find_spec(
            f"{package}.distributed"
        ):
            module = importlib.import_module(f"{package}.distributed")
        names = {k: v for k, v in vars(_one_device).items() if not k.startswith("_")}
        if module is not None:
            names.update({k: v for k, v in vars(module).items() if not k.startswith("_")})
        hooks = _HOOKS[backend.name] = SimpleNamespace(**names)
    return hooks


class Mesh:
    """Named axes over the devices of the active backend (JAX devices, TensorFlow's logical
    devices) or over its processes (torch.distributed, MLX distributed: started by
    ``python -m ivy_like launch -n N`` or the framework's own launcher).

    ``Mesh({"data": 2, "model": 4})``; ``Mesh()`` is one axis ``"data"`` over everything there
    is. A mesh of 1 works everywhere, with no launcher.

    Raises
    ------
    ValueError
        An axis size that is not a positive integer, or more devices than there are.

    Examples
    --------
    >>> import ivy_like
    >>> from ivy_like import distributed as dist
    >>> with ivy_like.use_backend("numpy"):
    ...     mesh = dist.Mesh({"data": 1})
    >>> mesh
    Mesh({'data': 1}, backend='numpy')
    >>> mesh.size, mesh.axis_names
    (1, ('data',))
    """

    __slots__ = ("backend", "hooks", "native", "shape")

    def __init__(self, axes: Mapping[str, int] | None = None, *, backend: Any = None) -> None:
        b = _backend.get_backend(backend) if backend is not None else _backend.current_backend()
        hooks = hooks_of(b)
        available = hooks.device_count()
        if axes is None:
            axes = {"data": available}
        if not isinstance(axes, Mapping) or not axes:
            raise TypeError(f"Mesh: axes must be a dict of axis name -> size, got {axes!r}")
        for name, size in axes.items():
            if not isinstance(name, str) or not name:
                raise TypeError(f"Mesh: axis names are non-empty strings, got {name!r}")
            if isinstance(size, bool) or not isinstance(size, int) or size < 1:
                raise ValueError(f"Mesh: axis {name!r} has size {size!r}; sizes are integers ≥ 1")
        total = math.prod(axes.values())
        if total > available:
            hint = (
                "start more processes (python -m ivy_like launch -n N script.py)"
                if hooks.process_count() > 1 or b.name in ("torch", "mlx")
                else "make more devices visible"
            )
            raise ValueError(
                f"Mesh: {dict(axes)} needs {total} devices; {b.name} has {available} here: {hint}"
            )
        self.backend = b
        self.hooks = hooks
        self.shape: dict[str, int] = dict(axes)
        self.native = hooks.make_mesh(tuple(axes.values()), tuple(axes))

    @property
    def axis_names(self) -> tuple[str, ...]:
        return tuple(self.shape)

    @property
    def size(self) -> int:
        return math.prod(self.shape.values())

    @property
    def process_index(self) -> int:
        return int(self.hooks.process_index())

    @property
    def process_count(self) -> int:
        return int(self.hooks.process_count())

    def axis_size(self, axes: tuple[str, ...]) -> int:
        return math.prod(self.shape[a] for a in axes)

    def __repr__(self) -> str:
        return f"Mesh({self.shape}, backend={self.backend.name!r})"


def current(who: str) -> Mesh:
    """The mesh of the spmd function running now; a collective called elsewhere is an error."""
    mesh = CURRENT.get()
    if mesh is None:
        raise RuntimeError(
            f"{who}: collectives run inside a function given to dist.spmd or "
            f"dist.data_parallel, once per shard"
        )
    return mesh
