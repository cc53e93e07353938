"""nox sessions: the suite per backend in its own environment, deep hypothesis runs, lint,
type checking, the documentation site."""

from __future__ import annotations

import nox

nox.options.sessions = ["lint", "tests"]
BACKEND_EXTRAS = {
    "numpy": [],
    "jax": ["jax"],
    "torch": ["torch"],
    "tensorflow": ["tensorflow"],
    "mlx": ["mlx"],
}
ENV = {"TF_CPP_MIN_LOG_LEVEL": "2", "TF_ENABLE_ONEDNN_OPTS": "0"}


def _install(session: nox.Session, extras: list[str]) -> None:
    spec = ".[" + ",".join(["test", "trees", "io", *extras]) + "]"
    session.install("-c", "constraints.txt", "-e", spec)


@nox.session(python="3.11")
@nox.parametrize("backend", list(BACKEND_EXTRAS))
def tests(session: nox.Session, backend: str) -> None:
    """The whole suite on numpy plus one framework, nothing else installed."""
    _install(session, BACKEND_EXTRAS[backend])
    backends = "numpy" if backend == "numpy" else f"numpy,{backend}"
    session.run("pytest", f"--ivy-like-backends={backends}", *session.posargs, env=ENV)


def _install_mxnet(session: nox.Session) -> None:
    """MXNet 1.9.1 needs numpy<1.24 and crashes beside TensorFlow, so no other framework is
    installed beside it (constraints-mxnet.txt)."""
    session.install(
        "-c", "constraints-mxnet.txt", "mxnet==1.9.1", "numpy==1.23.5",
        "pytest", "pytest-timeout", "hypothesis", "safetensors",
    )  # fmt: skip
    session.install("--no-deps", "-e", ".")


@nox.session(python="3.11")
def tests_mxnet(session: nox.Session) -> None:
    """The suite on numpy and mxnet in their own environment."""
    _install_mxnet(session)
    session.run("pytest", "--ivy-like-backends=numpy,mxnet", *session.posargs, env=ENV)


# The CPU kernel paths of a machine without AVX-512 ("avx2") or without AVX ("sse4"), chosen
# at run time by each library's own switch: NumPy's dispatch, OpenBLAS's core type, PyTorch's
# ATen kernels, oneDNN and MKL (PyTorch), XLA (JAX). Their float32 results differ in the last
# bits from this machine's AVX-512 paths, so a test that passes only with the bits of one CPU
# fails here. (TensorFlow's and MLX's CPU kernels have no such switch.)
OLDER_CPUS = {
    "avx2": {
        "NPY_DISABLE_CPU_FEATURES": "X86_V4 AVX512_ICL AVX512_SPR",
        "OPENBLAS_CORETYPE": "Haswell",
        "ATEN_CPU_CAPABILITY": "avx2",
        "ONEDNN_MAX_CPU_ISA": "AVX2",
        "MKL_ENABLE_INSTRUCTIONS": "AVX2",
        "XLA_FLAGS": "--xla_cpu_max_isa=AVX2",
    },
    "sse4": {
        "NPY_DISABLE_CPU_FEATURES": "X86_V3 X86_V4 AVX512_ICL AVX512_SPR",
        "OPENBLAS_CORETYPE": "Nehalem",
        "ATEN_CPU_CAPABILITY": "default",
        "ONEDNN_MAX_CPU_ISA": "SSE41",
        "MKL_ENABLE_INSTRUCTIONS": "SSE4_2",
        # XLA's SSE4_2 mode cannot convert float16 (its own ops fail: "Failed to materialize
        # symbols"), so JAX keeps the AVX kernels, the oldest that it can run all of.
        "XLA_FLAGS": "--xla_cpu_max_isa=AVX",
    },
}


@nox.session(python="3.11")
@nox.parametrize("cpu", list(OLDER_CPUS))
def tests_older_cpu(session: nox.Session, cpu: str) -> None:
    """The whole suite on every backend with the kernels an older CPU would run. Inductor's
    on-disk cache is the session's own: its key leaves out ATEN_CPU_CAPABILITY, and a kernel
    compiled for this CPU's AVX-512 and served under avx2 gave wrong numbers (torch 2.13)."""
    _install(session, ["all"])
    env = {**ENV, **OLDER_CPUS[cpu], "TORCHINDUCTOR_CACHE_DIR": f"{session.create_tmp()}/inductor"}
    session.run("pytest", "-n", "2", *session.posargs, env=env)


@nox.session(python="3.11")
def deep(session: nox.Session) -> None:
    """Every backend, hypothesis with 300 examples per property."""
    _install(session, ["all"])
    session.run("pytest", *session.posargs, env={**ENV, "HYPOTHESIS_PROFILE": "deep"})


@nox.session(python="3.11")
def crash_sweep(session: nox.Session) -> None:
    """Every op on every installed backend over every edge input, each backend in child
    processes (ivy_like.testing.crash_sweep). Fails when a case crashes; the table says how
    many cases each backend ran and how they ended. MXNet's: `nox -s crash_sweep_mxnet`."""
    _install(session, ["all"])
    session.run("python", "-m", "ivy_like.testing.crash_sweep", *session.posargs, env=ENV)


@nox.session(python="3.11")
def crash_sweep_mxnet(session: nox.Session) -> None:
    """The crash sweep on numpy and mxnet, in MXNet's own environment."""
    _install_mxnet(session)
    session.run(
        "python", "-m", "ivy_like.testing.crash_sweep", "--backends", "numpy,mxnet",
        *session.posargs, env=ENV,
    )  # fmt: skip


@nox.session(python="3.11")
def conformance(session: nox.Session) -> None:
    """The public array API test suite on each backend and revision, and on the other
    namespaces of the same frameworks: `nox -s conformance -- PATH [options]`, PATH a checkout
    of data-apis/array-api-tests with its array-api submodule (the suite is not on the package
    index). Records the counts in ivy_like/devtools/conformance.json; then
    `python -m ivy_like support-table > docs/support.md` shows them. MXNet cannot be run: the
    suite needs a complex dtype to start, and MXNet has none."""
    _install(session, ["all"])
    session.install("-r", f"{session.posargs[0]}/requirements.txt")
    session.install("array-api-strict", "array-api-compat")
    session.run(
        "python", "-m", "ivy_like.devtools.conformance", "--peers", "all", *session.posargs,
        env=ENV,
    )  # fmt: skip


@nox.session(python="3.11")
def lint(session: nox.Session) -> None:
    session.install("ruff")
    session.run("ruff", "check", "ivy_like", "tests", "benchmarks", "examples")
    session.run("ruff", "format", "--check", "ivy_like", "tests", "benchmarks", "examples")


@nox.session(python="3.11")
def typecheck(session: nox.Session) -> None:
    """mypy over the package and the typed example; the generated API is typed by the stubs
    `python -m ivy_like stubs` writes (tests/devtools/test_stubs.py fails when they are stale). No
    framework is installed: mypy takes them as Any (see [tool.mypy] in pyproject.toml)."""
    session.install("-c", "constraints.txt", "-e", ".[test]")
    session.run("mypy", "ivy_like", "examples/typed_usage.py", *session.posargs)


@nox.session(python="3.11")
def docs(session: nox.Session) -> None:
    """The documentation site in site/ (mkdocs.yml): the guides, README as the home page and the
    API reference generated from the registry. Only numpy is installed: the other backends'
    statuses come from the generated support tables. Any warning (a broken link or anchor, a
    reference to a missing name) fails the build."""
    session.install("-c", "constraints.txt", "-e", ".[docs]")
    session.run("mkdocs", "build", "--strict", "--clean", *session.posargs, env=ENV)


@nox.session(python="3.11")
def bench(session: nox.Session) -> None:
    _install(session, ["all"])
    session.run("python", "benchmarks/run.py", env=ENV)
