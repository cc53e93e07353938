"""The support table: every op's status on every backend, computed from the code.

``python -m ivy_like support-table`` prints it as Markdown; ``docs/support.md`` is that output
and a test fails when it is stale. Status per backend, read from what the backend really
provides (its kernels, collected from its family files before any fallback is filled in):
``native`` (the backend has a kernel), ``composite`` (the op's declaration, written with
ivy_like ops, runs there), ``unsupported: reason`` (listed in the backend's ``UNSUPPORTED``),
or ``missing`` (none of these: a call raises ``NotImplementedError``; a test fails on it).
"""

from __future__ import annotations

from ..core import backend as _backend
from ..core.registry import OPS, OpSpec


def status(spec: OpSpec, backend: _backend.Backend) -> str:
    """``native``, ``composite``, ``unsupported: <reason>`` or ``missing``."""
    name = spec.backend_name
    reason = backend.unsupported.get(name)
    if reason is not None:
        return f"unsupported: {reason}"
    if name in backend.kernels:
        return "native"
    if spec.composite:
        return "composite"
    return "missing"


# How a backend is spelled in a title; a backend not listed is spelled by its registry name.
_LABELS = {
    "jax": "JAX",
    "mlx": "MLX",
    "mxnet": "MXNet",
    "numpy": "NumPy",
    "tensorflow": "TensorFlow",
    "torch": "PyTorch",
}


def support_title(backends: list[str] | None = None) -> str:
    """The title of the support table of ``backends`` (default: all available), which the
    site's navigation shows: "Support table" for the main environment's table, and the
    framework's name after it for a table of NumPy and one framework, made in an environment
    of its own (MXNet's), so that each table has an entry of its own name.

    Examples
    --------
    >>> from ivy_like.devtools.support import support_title
    >>> support_title(["jax", "mlx", "numpy", "tensorflow", "torch"])
    'Support table'
    >>> support_title(["mxnet", "numpy"])
    'Support table (MXNet)'
    """
    names = backends or _backend.available_backends()
    others = [n for n in names if n != "numpy"]
    if len(others) != 1:
        return "Support table"
    return f"Support table ({_LABELS.get(others[0], others[0])})"


def support_table(backends: list[str] | None = None) -> str:
    """Markdown table of every registered op against ``backends`` (default: all available).

    Examples
    --------
    >>> import ivy_like
    >>> from ivy_like.devtools.support import support_table
    >>> print(support_table(["numpy"]).splitlines()[2])
    | `abs` | elementwise | native |
    """
    names = backends or _backend.available_backends()
    loaded = [_backend.get_backend(n) for n in names]
    header = "| op | family | " + " | ".join(f"{b.name} {b.version}" for b in loaded) + " |"
    lines = [header, "|---|---|" + "---|" * len(loaded)]
    rows = []
    for spec in OPS.values():
        public = ".".join(filter(None, (spec.namespaces[0], spec.name)))
        cells = [status(spec, b) for b in loaded]
        rows.append((spec.family, public, cells))
    for family, public, cells in sorted(
        rows, key=lambda r: r[1] if "." not in r[1] else "~" + r[1]
    ):
        lines.append(f"| `{public}` | {family} | " + " | ".join(cells) + " |")
    return "\n".join(lines)
