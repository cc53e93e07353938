"""The revisions of the array API standard the namespace follows, and ``broadcast_shapes``.

ivy_like implements 2025.12. Earlier revisions differ from it, for code that runs on ivy_like,
only in three return types: ``broadcast_arrays``, ``meshgrid`` and the inspection namespace's
``devices()`` returned lists until 2025.12 made them tuples. The names 2025.12 added stay
available under an earlier revision (the standard lets a namespace have more names than it
lists), so following an earlier revision costs nothing but those three wrappers, and nothing
at all on the 2025.12 path: the generated functions are left as they are.

Two ways to follow an earlier revision, as the standard describes:

* ``x.__array_namespace__(api_version="2024.12")`` returns a namespace that follows it (a
  module whose names are ivy_like's but for those three), leaving ``ivy_like`` itself alone;
* ``ivy_like.set_array_api_version("2024.12")``, or ``IVY_LIKE_ARRAY_API_VERSION=2024.12`` in the
  environment when ivy_like is imported, makes ``ivy_like`` itself follow it, for code (such
  as the standard's test suite) that imports the namespace by name, as array-api-strict's
  ``api_version`` flag does.
"""

from __future__ import annotations

import functools
import os
import types
from collections.abc import Callable, Sequence
from typing import Any

from ._info import Info
from .core import backend as _backend
from .core.decided_errors import broadcast_shape, decided

VERSIONS = ("2021.12", "2022.12", "2023.12", "2024.12", "2025.12")
LATEST = VERSIONS[-1]
_TUPLES_SINCE = "2025.12"  # broadcast_arrays, meshgrid and devices() return tuples from here on


def broadcast_shapes(*shapes: Sequence[int | None]) -> tuple[int | None, ...]:
    """The shape that arrays of ``shapes`` broadcast to (array API 2025.12).

    A ``ValueError`` when the shapes do not broadcast; a ``TypeError`` naming the shape when
    one is not a sequence of non-negative ints. ``None``, a dimension of unknown size (a
    traced TensorFlow shape has them), takes the other shape's size, or stays ``None``
    against 1. No shape at all gives ``()``.

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.broadcast_shapes((2, 1), (3,))
    (2, 3)
    >>> ivy_like.broadcast_shapes((5, 1, 4), (1, 3, 1), ())
    (5, 3, 4)
    """
    named = []
    for i, shape in enumerate(shapes):
        if isinstance(shape, (str, bytes)) or not isinstance(shape, Sequence):
            raise decided(
                TypeError(f"broadcast_shapes: shapes[{i}] must be a tuple of ints, got {shape!r}")
            )
        for size in shape:
            if size is None or (type(size) is int and size >= 0):
                continue
            error = ValueError if type(size) is int else TypeError
            raise decided(
                error(
                    f"broadcast_shapes: shapes[{i}] = {tuple(shape)!r} has the entry {size!r}; "
                    "sizes are non-negative ints (or None: unknown)"
                )
            )
        named.append((f"shape {tuple(shape)}", tuple(shape)))
    return broadcast_shape("broadcast_shapes", named)


# -- the earlier revisions -----------------------------------------------------------------------
class _ListDevicesInfo(Info):
    """The inspection namespace as revisions before 2025.12 describe it."""

    def devices(self) -> list[str]:  # type: ignore[override]
        return list(super().devices())


def _info_before_tuples() -> _ListDevicesInfo:
    """The array API inspection namespace for the active backend (``devices()`` a list)."""
    return _ListDevicesInfo(_backend.current_backend())


def _as_list(fn: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(fn)
    def as_list(*args: Any, **kwargs: Any) -> Any:
        return list(fn(*args, **kwargs))

    return as_list


def _check(version: Any) -> str:
    if version not in VERSIONS:
        raise ValueError(
            f"api_version: ivy_like implements the array API revisions {', '.join(VERSIONS)}; "
            f"got {version!r}"
        )
    return version


class _Revisions:
    """The namespace module's state: its own functions (before any override) and the
    namespace views of earlier revisions, built on first use."""

    def __init__(self) -> None:
        self.namespace: types.ModuleType | None = None
        self.originals: dict[str, Any] = {}
        self.views: dict[str, types.ModuleType] = {}

    def bind(self, namespace: types.ModuleType) -> None:
        self.namespace = namespace
        names = ("broadcast_arrays", "meshgrid", "__array_namespace_info__")
        self.originals = {n: vars(namespace)[n] for n in names}
        self.originals["__array_api_version__"] = LATEST

    def overrides(self, version: str) -> dict[str, Any]:
        if version >= _TUPLES_SINCE:
            return dict(self.originals, __array_api_version__=version)
        return {
            "broadcast_arrays": _as_list(self.originals["broadcast_arrays"]),
            "meshgrid": _as_list(self.originals["meshgrid"]),
            "__array_namespace_info__": _info_before_tuples,
            "__array_api_version__": version,
        }

    def view(self, version: str) -> types.ModuleType:
        """``ivy_like`` as revision ``version`` describes it (``ivy_like`` itself when that is
        the revision it follows)."""
        namespace = self.namespace
        assert namespace is not None
        if version == namespace.__array_api_version__:
            return namespace
        if version not in self.views:
            view = types.ModuleType(f"{namespace.__name__}[{version}]", namespace.__doc__)
            vars(view).update(self.overrides(version))
            vars(view)["__getattr__"] = functools.partial(getattr, namespace)
            vars(view)["__dir__"] = lambda: sorted(set(dir(namespace)))
            self.views[version] = view
        return self.views[version]


REVISIONS = _Revisions()


def set_array_api_version(version: str) -> None:
    """Make ``ivy_like`` follow the array API revision ``version`` (``"2025.12"``, the
    default, back to ``"2021.12"``).

    Before 2025.12, ``broadcast_arrays``, ``meshgrid`` and ``__array_namespace_info__().devices()``
    return lists; from 2025.12 on, tuples. ``x.__array_namespace__(api_version=...)`` gives a
    namespace that follows a revision without changing ``ivy_like``; this function is for code
    that imports the namespace by name. ``IVY_LIKE_ARRAY_API_VERSION`` does the same at import.

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.set_array_api_version("2024.12")
    >>> ivy_like.__array_api_version__, type(ivy_like.meshgrid(ivy_like.arange(2)))
    ('2024.12', <class 'list'>)
    >>> ivy_like.set_array_api_version("2025.12")
    >>> type(ivy_like.meshgrid(ivy_like.arange(2)))
    <class 'tuple'>
    """
    namespace = REVISIONS.namespace
    assert namespace is not None
    vars(namespace).update(REVISIONS.overrides(_check(version)))


def namespace_for(api_version: str | None) -> types.ModuleType:
    """What ``Array.__array_namespace__(api_version=...)`` returns."""
    namespace = REVISIONS.namespace
    assert namespace is not None
    if api_version is None:
        return namespace
    return REVISIONS.view(_check(api_version))


def bind(namespace: types.ModuleType) -> None:
    """Called once by ``ivy_like/__init__.py`` when its functions exist."""
    REVISIONS.bind(namespace)
    chosen = os.environ.get("IVY_LIKE_ARRAY_API_VERSION")
    if chosen:
        try:
            set_array_api_version(chosen)
        except ValueError as err:
            raise ValueError(f"IVY_LIKE_ARRAY_API_VERSION: {err}") from None
