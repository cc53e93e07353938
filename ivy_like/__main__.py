"""``python -m ivy_like demo``: the main demo (an MLP trained and converted on every backend);
``demo convert``: a transformers ResNet converted from PyTorch, run on every backend, fine-tuned
on JAX and sent back (:mod:`ivy_like.demos.convert`).

``launch -n N script.py``: the script as N processes of torch.distributed or MLX
distributed (:mod:`ivy_like.distributed`). Other commands: ``seeds`` (the seed pages' examples), ``backends`` (the registered backends and
their installed versions, read from package metadata; ``--check`` imports each to prove it
loads), ``support-table``, ``stubs`` (write the ``.pyi`` type stubs; ``--check`` only reports
stale ones), ``api-docs DIR`` (write the API reference pages of the documentation site).

The demos (``ivy_like/demos/``) and the developer tooling (``ivy_like/devtools/``) are imported
by the command that runs them, so ``backends`` or ``--help`` loads neither.
"""

from __future__ import annotations

import argparse
import functools
import importlib.util
import os
import sys
from collections.abc import Mapping
from importlib import metadata
from typing import Any

from .core import backend as _backend
from .distributed._launch import launch as _launch
from .testing import _cli as _check_cli

# The distributions a built-in backend's framework may be installed as, in the order tried
# (TensorFlow's CPU build is the tensorflow-cpu distribution, still imported as tensorflow).
_DISTRIBUTIONS = {
    "tensorflow": ("tensorflow", "tensorflow-cpu", "tensorflow-macos", "tensorflow-intel"),
}


@functools.cache
def _all_distributions() -> Mapping[str, list[str]]:
    # Reads every installed distribution's file list (~0.5 s): only for names the quick
    # lookups in _framework_version miss.
    return metadata.packages_distributions()


def _framework_version(import_name: str) -> str:
    """The installed version of the distribution providing ``import_name``, from package
    metadata (nothing is imported); ``"unknown"`` when no metadata names it."""
    candidates = _DISTRIBUTIONS.get(import_name, (import_name,))
    for dist in (*candidates, *_all_distributions().get(import_name, ())):
        try:
            return metadata.version(dist)
        except metadata.PackageNotFoundError:
            continue
    return "unknown"


def _framework_of(name: str, target: Any) -> str:
    """The top-level module a registered backend needs: for built-ins the framework (the
    backend's name is its import name), for a plugin the package its entry point names."""
    if name in _backend._BUILTIN_BACKENDS:
        return name
    value = target.value if hasattr(target, "value") else str(target)
    return value.split(":")[0].split(".")[0]


def installed_backends() -> dict[str, str | None]:
    """Every registered backend -> the installed version of its framework (None when it is not
    installed), sorted by name. Reads package metadata only: no framework is imported.

    Examples
    --------
    >>> import sys
    >>> from ivy_like.__main__ import installed_backends
    >>> found = installed_backends()
    >>> found["numpy"] == sys.modules["numpy"].__version__
    True
    """
    registry = _backend._discover()
    found: dict[str, str | None] = {}
    for name in sorted(registry):
        module = _framework_of(name, registry[name])
        try:
            present = importlib.util.find_spec(module) is not None
        except (ImportError, ValueError):
            present = False
        if not present:
            found[name] = None
        elif name in _backend._BUILTIN_BACKENDS:
            found[name] = _framework_version(module)
        else:  # a plugin: its own distribution's version
            dist = getattr(registry[name], "dist", None)
            found[name] = dist.version if dist is not None else _framework_version(module)
    return found


def _list_backends(check: bool) -> int:
    """The ``backends`` command: one line per registered backend; with ``check``, each
    installed one is loaded (its framework imported) and said to load or not."""
    versions = installed_backends()
    width = max(len(name) for name in versions) + 2
    how = "each installed one imported" if check else "--check imports each to prove it loads"
    print(f"registered backends, versions from package metadata ({how}):")
    failures = 0
    for name, version in versions.items():
        if version is None:
            status = f"not installed; to use it: {_backend._install_hint(name)}"
            print(f"  {name:<{width}}{status}")
            continue
        status = ""
        if check:
            try:
                loaded = _backend.get_backend(name)
            except _backend.BackendError as err:
                status = f"fails to load: {err}"
                failures += 1
            else:
                status = "loads, " + ("autodiff" if loaded.has_autodiff else "no autodiff")
        print(f"  {name:<{width}}{version:<14}{status}".rstrip())
    return 1 if failures else 0


def _chosen_backends(
    parser: argparse.ArgumentParser, value: str | None, need_autodiff: bool
) -> list[str] | None:
    """The names given to ``--backends``, each registered, installed and loadable (else a usage
    error, exit code 2); with ``need_autodiff``, at least one of them must have autodiff."""
    if value is None:
        return None
    names = [n.strip() for n in value.split(",") if n.strip()]
    if not names:
        parser.error("argument --backends: expected comma-separated backend names, got none")
    versions = installed_backends()
    for name in names:
        if name not in versions:
            parser.error(
                f"argument --backends: unknown backend {name!r} (registered: {', '.join(versions)})"
            )
        if versions[name] is None:
            parser.error(
                f"argument --backends: the {name!r} backend is not installed here (to use it: "
                f"{_backend._install_hint(name)}); installed: "
                f"{', '.join(n for n, v in versions.items() if v is not None)}"
            )
    loaded = []
    for name in names:
        try:
            loaded.append(_backend.get_backend(name))
        except _backend.BackendError as err:
            parser.error(f"argument --backends: {err}")
    if need_autodiff and not any(b.has_autodiff for b in loaded):
        others = [n for n, v in versions.items() if v is not None and n not in names]
        lacking = f"{names[0]} lacks" if len(names) == 1 else f"none of {', '.join(names)} has"
        parser.error(
            f"argument --backends: the demo trains by gradients and needs a backend with "
            f"autodiff, which {lacking}; other installed backends: {', '.join(others) or 'none'}"
        )
    return names


def main(argv: list[str] | None = None) -> int:
    """The command line: ``demo``, ``seeds``, ``backends``, ``support-table``, ``stubs``; the
    exit code.

    Examples
    --------
    >>> from ivy_like.__main__ import main
    >>> main(["backends"])  # doctest: +ELLIPSIS
    registered backends, versions from package metadata ...
      numpy ...
    0
    """
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    os.environ.setdefault("TF_ENABLE_ONEDNN_OPTS", "0")
    parser = argparse.ArgumentParser(prog="python -m ivy_like")
    sub = parser.add_subparsers(dest="command", required=True)
    demo = sub.add_parser(
        "demo",
        help="train one MLP on the digits data set on every autodiff backend, convert it; "
        "'demo convert': a transformers ResNet from PyTorch to every backend, tuned, and back",
    )
    demo.add_argument(
        "which",
        nargs="?",
        choices=("mlp", "convert"),
        default="mlp",
        help="mlp (the default): the MLP demo; convert: the model-conversion demo",
    )
    demo.add_argument("--backends", default=None, help="comma-separated (default: all installed)")
    demo.add_argument("--steps", type=int, default=None, help="training steps (default 300)")
    demo.add_argument("--seed", type=int, default=0, help="seed of everything (default 0)")
    demo.add_argument("--plot", default=None, help="PNG path (default demo_output/loss_curves.png)")
    demo.add_argument(
        "--no-progress", action="store_true", help="no progress bar (off anyway without a TTY)"
    )
    seeds = sub.add_parser("seeds", help="run the seed pages' examples on every installed backend")
    seeds.add_argument("--backends", default=None, help="comma-separated (default: all installed)")
    backends = sub.add_parser(
        "backends", help="list the registered backends and their installed versions"
    )
    backends.add_argument(
        "--check", action="store_true", help="import each installed backend to prove it loads"
    )
    sub.add_parser("support-table", help="print every op's status per backend (Markdown)")
    api = sub.add_parser("api-docs", help="write the API reference pages (DIR/api/*.md)")
    api.add_argument("dir", help="the directory to write api/ into")
    api.add_argument("--docs", default="docs", help="where the support tables are (docs)")
    stubs = sub.add_parser("stubs", help="write the .pyi type stubs generated from the registry")
    stubs.add_argument(
        "--check", action="store_true", help="write nothing; exit 1 naming the stale stubs"
    )
    launch = sub.add_parser(
        "launch",
        help="run a script as N processes of torch.distributed / MLX distributed on this machine",
    )
    launch.add_argument("-n", type=int, required=True, help="how many processes")
    launch.add_argument("--timeout", type=float, default=None, help="stop everything after S s")
    launch.add_argument(
        "script", nargs=argparse.REMAINDER, help="script.py [args], or -- -m module [args]"
    )
    check = _check_cli.add_parser(sub)
    args = parser.parse_args(argv)
    if args.command == "launch":
        if args.n < 1 or not args.script:
            launch.error("give -n N (N >= 1) and the script to run")
        script = args.script[1:] if args.script[0] == "--" else args.script
        return _launch(args.n, script, args.timeout)
    if args.command == "check":
        return _check_cli.run(check, args)
    if args.command == "stubs":
        from .devtools import stubs as _stubs

        if args.check:
            stale = _stubs.stale()
            for path in stale:
                print(f"stale: {path}")
            return 1 if stale else 0
        for path in _stubs.write():
            print(f"wrote {path}")
        return 0
    if args.command == "api-docs":
        from .devtools import api_docs

        result = api_docs.write(args.dir, args.docs)
        print(f"wrote {len(result.pages)} pages under {args.dir}/api")
        for problem in result.problems:
            print(f"error: {problem}", file=sys.stderr)
        return 1 if result.problems else 0
    if args.command == "support-table":
        from .devtools.conformance import table as conformance_table
        from .devtools.support import support_table, support_title

        print(f"# {support_title()}\n")
        print("Generated by `python -m ivy_like support-table` from the registry and the backend")
        print("modules (native: the backend defines it; composite: the op's declaration, written")
        print("with ivy_like ops, runs there; unsupported: listed with its reason).\n")
        print(support_table())
        print(conformance_table())
        return 0
    if args.command == "backends":
        return _list_backends(args.check)
    if args.command == "seeds":
        from .demos.main import run_seeds

        return run_seeds(_chosen_backends(seeds, args.backends, need_autodiff=False))
    if args.which == "convert":
        for given, flag in ((args.steps, "--steps"), (args.plot, "--plot")):
            if given is not None:
                demo.error(f"argument {flag}: not used by 'demo convert' (only by the MLP demo)")
        from .demos.convert import run_convert_demo

        return run_convert_demo(
            _chosen_backends(demo, args.backends, need_autodiff=True),
            seed=args.seed,
            progress=False if args.no_progress else None,
        )
    steps = 300 if args.steps is None else args.steps
    if steps < 1:
        demo.error("--steps must be at least 1")
    names = _chosen_backends(demo, args.backends, need_autodiff=True)
    from .demos.main import DEFAULT_PLOT, run_main_demo

    return run_main_demo(
        names,
        steps=steps,
        plot=args.plot or DEFAULT_PLOT,
        seed=args.seed,
        progress=False if args.no_progress else None,
    )


if __name__ == "__main__":
    sys.exit(main())
