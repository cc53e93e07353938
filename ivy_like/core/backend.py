"""Backends: discovery through entry points, lazy loading, the active backend, type resolution.

A backend is a plain module (``ivy_like.backends.torch`` ...) exposing the same function names.
It is loaded the first time it is needed and wrapped once in a :class:`Backend`, whose attributes
are the module's functions plus composite fallbacks for ops the module does not define.

The active backend lives in a ``ContextVar``: each thread and each asyncio task sees its own.
Loading is thread-safe: one thread builds a backend under a lock while the others wait, and it
is published only complete (hooks run); finding a loaded backend takes no lock.
Array types are resolved with a cache keyed by ``type(x)``; on a miss only frameworks already in
``sys.modules`` are consulted, so resolving a type never imports a framework.
"""

from __future__ import annotations

import contextlib
import contextvars
import importlib
import importlib.util
import os
import sys
import threading
import warnings
from collections.abc import Callable, Iterable, Iterator, Sequence
from types import ModuleType
from typing import TYPE_CHECKING, Any

from . import dtypes as _dtypes
from . import tracing as _tracing
from .codegen import checked_kernel
from .registry import OPS

__all__ = [
    "Backend",
    "BackendError",
    "NoAutodiffError",
    "available_backends",
    "backend_of",
    "current_backend",
    "get_backend",
    "registered_backends",
    "set_backend",
    "unset_backend",
    "use_backend",
]

ENTRY_POINT_GROUP = "ivy_like.backends"

# Used only when ivy_like runs from a source tree that was never installed (no entry points).
_BUILTIN_BACKENDS = {
    "numpy": "ivy_like.backends.numpy",
    "jax": "ivy_like.backends.jax",
    "torch": "ivy_like.backends.torch",
    "tensorflow": "ivy_like.backends.tensorflow",
    "mlx": "ivy_like.backends.mlx",
    "mxnet": "ivy_like.backends.mxnet",
}
_INSTALL_HINTS = {
    "numpy": "pip install numpy",
    "jax": "pip install jax",
    "torch": "pip install torch",
    "tensorflow": "pip install tensorflow-cpu",
    "mlx": "pip install 'mlx[cpu]' (Linux) or pip install mlx (macOS)",
    "mxnet": "pip install mxnet==1.9.1 'numpy<1.24' (in an environment without TensorFlow)",
}


class BackendError(ImportError, ValueError):
    """An unknown backend name, or a backend whose framework cannot be imported.

    Examples
    --------
    >>> import ivy_like
    >>> try:
    ...     ivy_like.get_backend("nosuch")
    ... except ivy_like.BackendError as err:
    ...     print(str(err).split(";")[0])
    backend: unknown backend 'nosuch'
    """


class NoAutodiffError(NotImplementedError):
    """A gradient was asked of a backend without automatic differentiation (numpy).

    Examples
    --------
    >>> import ivy_like
    >>> with ivy_like.use_backend("numpy"):
    ...     try:
    ...         ivy_like.grad(lambda x: ivy_like.sum(x * x))(ivy_like.array([1.]))
    ...     except ivy_like.NoAutodiffError as err:
    ...         print(str(err).split(";")[0])
    grad: the numpy backend has no automatic differentiation
    """


# Built-in backends whose frameworks differentiate; named in the numpy error without importing.
_AUTODIFF_BUILTINS = ("jax", "torch", "tensorflow", "mlx")


def _same_device(device: Any) -> Any:
    return device


# Files of a backend package that hold hooks rather than op kernels: the gradient primitives
# (grad, jac) and the transform primitives (vjp, jvp, vmap, compile, checkpoint, custom rules).
_HOOK_FILES = ("gradients", "transforms", "control_flow")


def _family_files(module: ModuleType, specs: list[Any]) -> dict[str, ModuleType]:
    """The backend's file per op family (``<backend>/elementwise.py``...) and its
    ``gradients.py`` and ``transforms.py``, imported now. A plugin that is one plain module has no files: its ops are
    read from the module itself."""
    if not hasattr(module, "__path__"):
        return {}
    files: dict[str, ModuleType] = {}
    for family in sorted({spec.family for spec in specs} | set(_HOOK_FILES)):
        qualified = f"{module.__name__}.{family}"
        if importlib.util.find_spec(qualified) is not None:
            files[family] = importlib.import_module(qualified)
    return files


def _collect_kernels(
    module: ModuleType, files: dict[str, ModuleType], specs: list[Any]
) -> dict[str, Any]:
    """Every op's native kernel: the name ``spec.backend_name`` in the file of the op's family
    (or in the module itself, for a one-module plugin). Nothing else is read: a helper or an
    imported name that happens to share an op's name elsewhere is not taken for the op."""
    kernels: dict[str, Any] = {}
    for spec in specs:
        name = spec.backend_name
        source = files.get(spec.family) if files else module
        value = getattr(source, name, None) if source is not None else None
        if value is not None:
            kernels[name] = value
    return kernels


class Backend:
    """One loaded backend: the module's functions as attributes, plus facts about it.

    ``name``: registry name; ``module``: the backend module; ``version``: the framework's
    version; ``array_types``: the native array types; ``has_autodiff`` and ``mutable_arrays``:
    capability flags; ``unsupported``: op name -> reason.

    Examples
    --------
    >>> import ivy_like
    >>> b = ivy_like.get_backend("numpy")
    >>> b.name, b.has_autodiff, b.mutable_arrays
    ('numpy', False, True)
    >>> b.array_types[0]
    <class 'numpy.ndarray'>
    """

    def __init__(self, name: str, module: ModuleType, specs: Iterable[Any] | None = None) -> None:
        self.name = name
        self.module = module
        self.version: str = getattr(module, "VERSION", "unknown")
        self.array_types: tuple[type, ...] = tuple(module.ARRAY_TYPES)
        self.has_autodiff: bool = bool(getattr(module, "HAS_AUTODIFF", False))
        self.mutable_arrays: bool = bool(getattr(module, "MUTABLE_ARRAYS", False))
        specs = list(OPS.values() if specs is None else specs)  # every op declared so far
        files = _family_files(module, specs)
        self.unsupported: dict[str, str] = {}
        # Ops whose kernel runs the op's declared check itself, on its own slow path only,
        # because its fast path is the framework's call and the framework refuses what the
        # check would (op name -> why): TensorFlow's solve tries MatrixSolve before reading a
        # dtype, which would cost it more than the call.
        self.checks_in_kernel: dict[str, str] = {}
        for file in (module, *files.values()):
            self.unsupported.update(getattr(file, "UNSUPPORTED", {}))
            self.checks_in_kernel.update(getattr(file, "CHECKS_IN_KERNEL", {}))
        # What the backend is: its facts and the hooks the core calls (shape, dtype, getitem,
        # the gradient and transform primitives...), read from __init__, gradients.py and
        # transforms.py.
        for file in (module, *(files.get(name, module) for name in _HOOK_FILES)):
            for key, value in vars(file).items():
                if not key.startswith("_") and not isinstance(value, ModuleType):
                    self.__dict__.setdefault(key, value)
        # A backend without its own device check passes device= through unchanged.
        self.__dict__.setdefault("native_device", _same_device)
        # Where a scalar that goes with an array is made (an optimizer's step count): the
        # array's device, unless the backend says otherwise (jax: a mesh, replicated).
        if "scalar_device" not in self.__dict__:
            self.scalar_device = lambda x: self.native_device(self.device(x))
        # The native kernels: each op is read from its family's file only.
        self.kernels: dict[str, Any] = _collect_kernels(module, files, specs)
        for spec in specs:
            kernel = self.kernels.get(spec.backend_name)
            if kernel is not None:
                self.__dict__[spec.backend_name] = self._checked(spec, kernel)
        self.complete(specs)
        self._dtype_to_native: dict[_dtypes.Dtype, Any] = dict(module.DTYPES)
        self._native_to_dtype: dict[Any, _dtypes.Dtype] = {v: k for k, v in module.DTYPES.items()}
        # The fast-path table while this backend is active: native types of every loaded
        # framework, plus NumPy's ndarray when this is the numpy backend (NumPy arrays follow
        # the active backend; under any other backend they take the general path and are
        # converted there).
        if name == "numpy":
            self.table: dict[type, Backend] = dict(NATIVE)
            for tp in self.array_types:
                if tp is not module.ARRAY_TYPES[-1]:  # ndarray, not the np.generic ABC
                    self.table[tp] = self
            _tables.append(self.table)
        else:
            self.table = NATIVE

    if TYPE_CHECKING:
        # For type checkers only: the ops, facts and hooks are attributes set at load time
        # (a real __getattr__ would cost every attribute read on the hot path ~25 ns).
        def __getattr__(self, name: str) -> Any: ...

    def __setattr__(self, name: str, value: Any) -> None:
        # The generated functions remember one backend function per op (see
        # ivy_like.core.registry); replacing a function here (a test's monkeypatch, a user's
        # override) must reach the next call, so every remembered function is forgotten.
        object.__setattr__(self, name, value)
        for hook in _change_hooks:
            hook()

    def __delattr__(self, name: str) -> None:
        object.__delattr__(self, name)
        for hook in _change_hooks:
            hook()

    def complete(self, specs: Any) -> None:
        """Give this backend an attribute for every op in ``specs`` that its module lacks.

        The generated fast paths call ``backend.<op>`` directly, so every op must be an
        attribute: a composite op gets its declaration run with this backend active (what the
        general path does), any other op a function raising ``NotImplementedError`` with the
        backend's stated reason. Doing this once here, instead of in ``__getattr__``, keeps
        every attribute read on the hot path a plain instance-dict hit (a class with
        ``__getattr__`` pays ~25 ns on every attribute read, found or not).
        """
        for spec in specs:
            name = spec.backend_name
            if name in self.__dict__:
                continue
            reason = self.unsupported.get(name)
            if reason is None and spec.composite:
                self.__dict__[name] = self._checked(spec, _composite(spec, self))
            else:
                self.__dict__[name] = _not_supported(spec.name, self.name, reason)

    def _checked(self, spec: Any, kernel: Any) -> Any:
        """``kernel`` itself, or preceded by the op's declared argument check."""
        if spec.check is None or spec.backend_name in self.checks_in_kernel:
            return kernel
        return checked_kernel(spec, kernel, self.name)

    def composite(self, key: str) -> Any:
        """Op ``key``'s composite declaration (registry key: ``"nn.cross_entropy"``), run with
        this backend active as a composite op is: for a kernel that hands some cases back to
        the composite (the kernel is the backend's attribute, so this is the only way there)."""
        return _composite(OPS[key], self)

    def __repr__(self) -> str:
        return f"<ivy_like backend {self.name!r} ({self.version})>"

    def __str__(self) -> str:
        return self.name

    def __eq__(self, other: object) -> bool:
        if isinstance(other, str):
            return other == self.name
        return other is self

    def __hash__(self) -> int:
        return hash(self.name)

    # dtype tables -------------------------------------------------------------------------
    def native_dtype(self, dtype: Any) -> Any:
        """The framework's dtype for a unified dtype, a string or a native dtype."""
        unified = _dtypes.as_dtype(dtype)
        try:
            return self._dtype_to_native[unified]
        except KeyError:
            raise TypeError(
                f"dtype: {unified.name} is not supported by the {self.name} backend"
            ) from None

    def unified_dtype(self, native: Any) -> _dtypes.Dtype:
        """The unified dtype of a native dtype."""
        hit = self._native_to_dtype.get(native)
        return hit if hit is not None else _dtypes.as_dtype(native)


def _composite(spec: Any, backend: Backend) -> Any:
    composite = activated(spec.declaration, backend)
    composite.__name__ = spec.backend_name
    composite.__wrapped__ = spec.declaration  # type: ignore[attr-defined]
    return composite


def _not_supported(op_name: str, backend_name: str, reason: str | None) -> Any:
    message = f"{op_name} is not supported on the {backend_name} backend"
    if reason:
        message += f": {reason}"

    def not_supported(*args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError(message)

    not_supported.__name__ = op_name
    return not_supported


# Fast-path tables that extend NATIVE (below) and must learn each native type it learns.
_tables: list[dict[type, Any]] = []
# Called when a backend's functions or the type tables change: clears the per-op call caches.
_change_hooks: list[Any] = []

# -- registry of names -> entry points ---------------------------------------------------------
_registry: dict[str, Any] | None = None  # name -> EntryPoint or module path
_loaded: dict[str, Backend] = {}  # published backends only: complete, their hooks run
_failed: dict[str, BaseException] = {}
# Held while a backend is loaded (or the registry read, or the default chosen), so that each
# happens once however many threads ask at the same moment. Reentrant: importing a backend or
# an on-load hook may ask for a backend itself. Readers of _loaded never take it.
_load_lock = threading.RLock()
# The backend this thread is finishing under _load_lock (built, hooks running): what a hook
# asking for it gets, since it is not in _loaded yet.
_finishing: dict[str, Backend] = {}


def _discover() -> dict[str, Any]:
    global _registry
    registry = _registry
    if registry is None:
        with _load_lock:
            if _registry is None:
                found: dict[str, Any] = {}
                from importlib.metadata import entry_points

                for ep in entry_points(group=ENTRY_POINT_GROUP):
                    found.setdefault(ep.name, ep)
                for name, path in _BUILTIN_BACKENDS.items():
                    found.setdefault(name, path)
                _registry = found
            registry = _registry
    return registry


def registered_backends() -> list[str]:
    """Names of every backend registered through the ``ivy_like.backends`` entry points.

    Listing imports nothing.

    Examples
    --------
    >>> import ivy_like
    >>> "numpy" in ivy_like.registered_backends()
    True
    """
    return sorted(_discover())


def _install_hint(name: str) -> str:
    return _INSTALL_HINTS.get(name, f"install the package that provides the {name!r} backend")


def get_backend(name: str | Backend | None = None) -> Backend:
    """Load (once) and return the backend called ``name``; with no name, the active backend
    (the same object as :func:`current_backend`).

    Raises :class:`BackendError` for an unknown name (listing the registered ones) or when the
    framework cannot be imported (with an install hint).

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.get_backend("numpy").name
    'numpy'
    >>> with ivy_like.use_backend("numpy"):
    ...     ivy_like.get_backend() is ivy_like.current_backend()
    True
    """
    if isinstance(name, Backend):
        return name
    # The common case: no lock. None (no name) is never a key, so it misses and is decided
    # below, which keeps the lookup of a name free of an extra test.
    hit = _loaded.get(name)  # type: ignore[arg-type]
    if hit is not None:
        return hit
    if name is None:
        return current_backend()
    if not isinstance(name, str):
        raise TypeError(f"backend: expected a backend name (str), got {type(name).__name__}")
    with _load_lock:
        return _load(name)


def _load(name: str) -> Backend:
    """Load the backend ``name``, or return it if another thread loaded it meanwhile (or this
    thread's on-load hook asks for it). The caller holds ``_load_lock``."""
    hit = _loaded.get(name)
    if hit is None:
        hit = _finishing.get(name)
    if hit is not None:
        return hit
    registry = _discover()
    if name not in registry:
        raise BackendError(
            f"backend: unknown backend {name!r}; registered backends are "
            f"{', '.join(sorted(registry))}"
        )
    if name in _failed:
        err = _failed[name]
        raise BackendError(
            f"backend: the {name!r} backend cannot be imported ({type(err).__name__}: {err}); "
            f"to use it: {_install_hint(name)}"
        ) from err
    target = registry[name]
    try:
        module = target.load() if hasattr(target, "load") else importlib.import_module(target)
        if not isinstance(module, ModuleType):
            raise TypeError(f"entry point {name!r} must name a module, got {module!r}")
        backend = Backend(name, module)
    except Exception as err:  # noqa: BLE001 - any import failure is reported the same way
        _failed[name] = err
        raise BackendError(
            f"backend: the {name!r} backend cannot be imported ({type(err).__name__}: {err}); "
            f"to use it: {_install_hint(name)}"
        ) from err
    is_tracing = getattr(module, "IS_TRACING", None)
    if is_tracing is not None:
        _tracing.learn(is_tracing)
    _finishing[name] = backend
    try:
        _finish_loading(backend)
    finally:
        del _finishing[name]
    if name != "numpy":
        # Declared concrete types go straight into the fast tables (subclasses, e.g. jax's
        # ArrayImpl or tf's EagerTensor, are learned on first sight by kind_of).
        for tp in backend.array_types:
            NATIVE.setdefault(tp, backend)
            for table in _tables:
                table.setdefault(tp, backend)
    # Published last: a thread that finds it in _loaded (without the lock) gets it complete.
    _loaded[name] = backend
    # Types may now resolve that did not before (the framework was imported meanwhile).
    _KIND.clear()
    for hook in _change_hooks:
        hook()
    return backend


_load_hooks: list[Any] = []


def on_load(hook: Any) -> None:
    """Call ``hook(backend)`` for every backend loaded from now on (Container registers itself
    as a tree node with each framework this way)."""
    _load_hooks.append(hook)


def _finish_loading(backend: Backend) -> None:
    for hook in _load_hooks:
        hook(backend)


def _framework_installed(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False


def no_autodiff_error(backend: Backend, who: str) -> NoAutodiffError:
    """The error of ``who`` (``grad``, ``vjp``...) on ``backend``, which has no autodiff: it
    names the backends that have it, and those installed here. Raised by the transforms and by
    the transform hooks of such a backend, when called directly."""
    have = [b.name for b in _loaded.values() if b.has_autodiff]
    have += [n for n in _AUTODIFF_BUILTINS if n not in have and _framework_installed(n)]
    return NoAutodiffError(
        f"{who}: the {backend.name} backend has no automatic differentiation; gradients need "
        f"a backend that has it ({', '.join(_AUTODIFF_BUILTINS)}; installed here: "
        f"{', '.join(have) or 'none'}). Select one with ivy_like.set_backend(...) or pass "
        f"that framework's arrays."
    )


def available_backends() -> list[str]:
    """Names of the backends that are installed and import cleanly, sorted.

    Frameworks that are not installed are never imported; installed ones are imported once to
    prove they work. A registered backend that fails to import is left out with a warning.

    Examples
    --------
    >>> import ivy_like
    >>> "numpy" in ivy_like.available_backends()
    True
    """
    names = []
    for name in sorted(_discover()):
        # The convention for built-ins (and the cheap test for plugins) is that the backend's
        # name is also its framework's import name; skip uninstalled ones without importing.
        if name in _BUILTIN_BACKENDS and not _framework_installed(name):
            continue
        try:
            get_backend(name)
        except BackendError as err:
            warnings.warn(str(err), RuntimeWarning, stacklevel=2)
            continue
        names.append(name)
    return names


# -- the active backend -------------------------------------------------------------------------
_stack: contextvars.ContextVar[tuple[Backend, ...]] = contextvars.ContextVar(
    "ivy_like_backend_stack", default=()
)
_default: Backend | None = None
# Fast-path table of the active backend (see Backend.table). The default context starts with
# a table that gains ndarray once the default backend turns out to be numpy.
_DEFAULT_TABLE: dict[type, Any] = {}
_tables.append(_DEFAULT_TABLE)  # it learns every native type, like any other table
_active_table: contextvars.ContextVar[dict[type, Any]] = contextvars.ContextVar(
    "ivy_like_active_table", default=_DEFAULT_TABLE
)


def _default_backend() -> Backend:
    global _default
    if _default is None:
        with _load_lock:  # chosen once: every thread gets the same Backend
            if _default is None:
                name = os.environ.get("IVY_LIKE_BACKEND", "").strip() or "numpy"
                backend = get_backend(name)
                if backend.table is not NATIVE:
                    _DEFAULT_TABLE.update(backend.table)
                _default = backend  # published once the default table knows its arrays
                for hook in _change_hooks:
                    hook()  # creation functions cache the backend of the empty stack
    return _default


def current_backend() -> Backend:
    """The active backend of this thread or task: the last ``set_backend``, else the default.

    The default is ``$IVY_LIKE_BACKEND`` when set, else numpy.

    Examples
    --------
    >>> import ivy_like
    >>> with ivy_like.use_backend("numpy"):
    ...     ivy_like.current_backend().name
    'numpy'
    """
    if TRACED_PUSHES[0]:
        traced = _traced.backends
        if traced:
            return traced[-1]
    stack = _stack.get()
    return stack[-1] if stack else _default_backend()


def set_backend(name: str | Backend) -> Backend:
    """Make ``name`` the active backend of this thread or asyncio task, and return it.

    Calls nest: :func:`unset_backend` returns to the backend that was active before.

    Examples
    --------
    >>> import ivy_like
    >>> ivy_like.set_backend("numpy").name
    'numpy'
    >>> ivy_like.unset_backend()
    """
    backend = get_backend(name)
    _stack.set(_stack.get() + (backend,))
    _active_table.set(backend.table)
    return backend


def unset_backend() -> None:
    """Undo the last :func:`set_backend` of this thread or task (no-op when there is none).

    Examples
    --------
    >>> import ivy_like
    >>> before = ivy_like.current_backend()
    >>> ivy_like.set_backend("numpy").name
    'numpy'
    >>> ivy_like.unset_backend()
    >>> ivy_like.current_backend() is before
    True
    """
    stack = _stack.get()
    if stack:
        stack = stack[:-1]
        _stack.set(stack)
        _active_table.set(stack[-1].table if stack else _DEFAULT_TABLE)


@contextlib.contextmanager
def use_backend(name: str | Backend) -> Iterator[Backend]:
    """Context manager: ``name`` is the active backend inside the block, restored after.

    Examples
    --------
    >>> import ivy_like
    >>> with ivy_like.use_backend("numpy") as b:
    ...     b.name
    'numpy'
    """
    backend = get_backend(name)
    tokens = _push(backend)
    try:
        yield backend
    finally:
        deactivate(tokens)


def _push(backend: Backend) -> tuple[Any, Any]:
    return _stack.set(_stack.get() + (backend,)), _active_table.set(backend.table)


def activate(backend: Backend) -> tuple[Any, Any] | None:
    """Make ``backend`` the active one until ``deactivate(tokens)``; None (nothing to undo)
    when it already is, the common case. ``grad`` and the transforms run the user's function
    so, where ``ivy_like.ones(2)`` must make an array of the differentiated framework; a
    composite op runs its declaration so."""
    if _tracing.is_tracing():
        _traced.backends.append(backend)
        TRACED_PUSHES[0] += 1
        return _TRACED
    stack = _stack.get()
    if (stack[-1] if stack else _default) is backend:
        return None
    return _push(backend)


def deactivate(tokens: tuple[Any, Any]) -> None:
    """Undo :func:`activate` (or the push of :func:`use_backend`)."""
    if tokens is _TRACED:
        _traced.backends.pop()
        TRACED_PUSHES[0] -= 1
        return
    _active_table.reset(tokens[1])
    _stack.reset(tokens[0])


def activated(fun: Callable[..., Any], backend: Backend) -> Callable[..., Any]:
    """``fun`` run with ``backend`` active: a composite op's declaration, the user's function
    under a transform or a compiler. activate/deactivate rather than use_backend: no
    generator frame per call, and a plain push that torch.compile can trace (see "traced by
    a compiler" below)."""

    def run(*args: Any, **kwargs: Any) -> Any:
        tokens = activate(backend)
        try:
            return fun(*args, **kwargs)
        finally:
            if tokens is not None:
                deactivate(tokens)

    return run


# -- traced by a compiler ------------------------------------------------------------------------
# torch.compile's Dynamo cannot trace ContextVar.get/set (a graph break, an error under
# fullgraph=True), yet composite ops and grad push a backend and creation functions read it.
# While a backend's compiler traces (its IS_TRACING fact, torch.compiler.is_compiling), pushes
# go to a plain per-thread list Dynamo can follow, and reads see that list first. Reads outside
# tracing see it too: a graph break between a push and its pop resumes in eager Python.
# An empty list under tracing falls through to the ContextVar: a creation function with no
# array and no pushed backend is a graph break there, never a guess at the active backend.
class _TraceStack(threading.local):
    def __init__(self) -> None:
        self.backends: list[Backend] = []


_traced = _TraceStack()
_TRACED: Any = ("pushed while traced",)
# Traced pushes not yet popped, in all threads: creation functions read _traced only while it is
# nonzero (``_stack() if not TRACED_PUSHES[0] else stack_now()``, 6 ns; a thread-local read on
# every call would cost 30).
TRACED_PUSHES = [0]


def stack_now() -> Sequence[Backend]:
    """The active-backend stack as creation functions read it while a traced push is live.

    The traced list itself, not a tuple of it: Dynamo can decide ``list is cached_tuple``
    (False) inside torch.func's traced bodies, where it cannot for two tuples."""
    traced = _traced.backends
    if traced:
        return traced
    return _stack.get()


# -- resolving array types ---------------------------------------------------------------------
# Fast-path table: native array type -> Backend, for the frameworks that are not neutral.
# NumPy arrays and Python scalars are neutral (they follow the active backend), so they are
# absent here and take the general path.
NATIVE: dict[type, Backend] = {}
# General table: type -> Backend | NEUTRAL | OTHER (non-array) | an ivy_like class marker.
_KIND: dict[type, Any] = {}
# Kind markers; compared with `is` (a Backend's __eq__ would run on `==`).
NEUTRAL = "neutral"
OTHER = "other"
ARRAY_KIND = "array"
CONTAINER_KIND = "container"
_special_kinds: dict[type, str] = {}  # ivy_like.Array -> "array", Container -> "container"

_NEUTRAL_TYPES = (bool, int, float, complex)


def register_special_kind(cls: type, kind: str) -> None:
    _special_kinds[cls] = kind
    _KIND.clear()


def kind_of(tp: type) -> Any:
    """Classify a type: a Backend (native array), NEUTRAL, OTHER or a special marker."""
    hit = _KIND.get(tp)
    if hit is not None:
        return hit
    result: Any = OTHER
    for cls, kind in _special_kinds.items():
        if issubclass(tp, cls):
            result = kind
            break
    else:
        if tp in _NEUTRAL_TYPES:
            result = NEUTRAL
        else:
            numpy = sys.modules.get("numpy")
            if numpy is not None and issubclass(tp, (numpy.ndarray, numpy.generic)):
                result = NEUTRAL
            else:
                result = _native_backend_of_type(tp)
    if _tracing.is_tracing():
        return result  # a table written under torch.compile fails its guards next call
    _KIND[tp] = result
    if isinstance(result, Backend):
        NATIVE[tp] = result
        for table in _tables:
            table[tp] = result
    return result


def _native_backend_of_type(tp: type) -> Any:
    for backend in list(_loaded.values()):
        if backend.name != "numpy" and issubclass(tp, backend.array_types):
            return backend
    # A framework already imported by the user, whose backend module is not loaded yet.
    for name in _discover():
        if name in _loaded or name == "numpy" or name in _failed:
            continue
        if name in sys.modules:
            try:
                backend = get_backend(name)
            except BackendError:
                continue
            if issubclass(tp, backend.array_types):
                return backend
    return OTHER


def backend_of(x: Any) -> Backend:
    """The backend an array belongs to: its framework's for native arrays, its own for Arrays.

    NumPy arrays belong to the numpy backend. Anything else raises ``TypeError``.

    Examples
    --------
    >>> import numpy as np
    >>> import ivy_like
    >>> ivy_like.backend_of(np.ones(2)).name
    'numpy'
    """
    kind = kind_of(type(x))
    if isinstance(kind, Backend):
        return kind
    if kind is ARRAY_KIND:
        return x._backend
    if kind is NEUTRAL and not isinstance(x, _NEUTRAL_TYPES):
        return get_backend("numpy")
    raise TypeError(f"backend_of: expected an array, got {type(x).__name__}")
