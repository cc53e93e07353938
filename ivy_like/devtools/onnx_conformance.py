"""ONNX's node tests on ivy_like's backends and on ONNX Runtime: the counts in ``docs/convert.md``.

``python -m ivy_like.devtools.onnx_conformance [backend ...]`` runs every node case of the
installed ``onnx`` package (``onnx.backend.test``: one small model per operator case, with
reference outputs from ONNX's definitions) through :func:`run_case` on each backend, and the
same cases on ONNX Runtime's own backend (``onnxruntime.backend``), then prints per backend
how many pass, fail and are not applicable (a dtype the backend has no arrays of, strings,
sequences...) with the pass rate among the applicable ones. The test suite
(``tests/convert/test_onnx/test_node_suite.py``) runs the same cases with the same rules.
"""

from __future__ import annotations

import sys
import time
import warnings
from typing import Any

import numpy as np

import ivy_like

from ..convert.onnx.backend import backend_for
from ..convert.onnx.graph import dtype_of

BACKENDS = ("numpy", "jax", "torch", "tensorflow", "mlx")


def cases() -> dict[str, Any]:
    """ONNX's node test cases by name."""
    from onnx.backend.test.loader import load_node_model_tests

    with warnings.catch_warnings():  # the cases' generators compute inf and nan on purpose
        warnings.simplefilter("ignore", RuntimeWarning)
        return {c.name: c for c in load_node_model_tests()}


def dtypes_of(model: Any) -> set[str]:
    """The dtype names of every value the model declares or stores (sub-graphs included);
    ``"unsupported"`` for a dtype ivy_like has no arrays of, ``"not a tensor"`` for a
    sequence, map or optional."""
    import onnx

    names: set[str] = set()

    def add(elem_type: int) -> None:
        dt = dtype_of(elem_type)
        names.add(dt.name if dt is not None else "unsupported")

    def visit(graph: Any) -> None:
        for vi in [*graph.input, *graph.output, *graph.value_info]:
            if vi.type.HasField("tensor_type"):
                add(vi.type.tensor_type.elem_type)
            else:
                names.add("not a tensor")
        for init in graph.initializer:
            add(init.data_type)
        for node in graph.node:
            for a in node.attribute:
                if a.type == onnx.AttributeProto.TENSOR:
                    add(a.t.data_type)
                for sub in [a.g] if a.type == onnx.AttributeProto.GRAPH else list(a.graphs):
                    visit(sub)

    visit(model.graph)
    return names


def not_applicable(case: Any, backend: str) -> str | None:
    """Why ``case`` cannot run on ``backend`` (its dtypes), or None."""
    b = ivy_like.get_backend(backend)
    for name in sorted(dtypes_of(case.model)):
        if name in ("unsupported", "not a tensor"):
            return f"a value is {name} (strings, float8, 4-bit types, sequences, optionals)"
        if ivy_like.as_dtype(name) not in b.DTYPES:
            return f"the {backend} backend has no {name}"
    return None


def as_array(x: Any) -> np.ndarray:
    """A case's value as ONNX's runner gives it: a TensorProto read as its NumPy array."""
    import onnx
    from onnx import numpy_helper

    if isinstance(x, onnx.TensorProto):
        return numpy_helper.to_array(x)
    return np.asarray(x)


def run_case(case: Any, backend_class: Any) -> None:
    """Run ``case`` through ``backend_class`` (an ``onnx.backend.base.Backend``) and compare
    as ONNX's runner does: shapes, exact dtypes, then the case's rtol and atol."""
    from onnx.backend.test.runner import Runner

    rep = backend_class.prepare(case.model)
    for inputs, outputs in case.data_sets:
        got = rep.run([as_array(x) for x in inputs])
        Runner.assert_similar_outputs(
            [as_array(o) for o in outputs], list(got), rtol=case.rtol, atol=case.atol
        )


def tally(
    names: list[str], every: dict[str, Any], backend: str, backend_class: Any
) -> dict[str, Any]:
    passed, failed, skipped = [], [], []
    for name in names:
        case = every[name]
        if backend != "onnxruntime" and not_applicable(case, backend) is not None:
            skipped.append(name)
            continue
        try:
            run_case(case, backend_class)
        except Exception:  # noqa: BLE001 - any failure of the case counts as a failure
            failed.append(name)
        else:
            passed.append(name)
    return {"passed": passed, "failed": failed, "not_applicable": skipped}


def main(argv: list[str]) -> int:
    every = cases()
    names = sorted(every)
    wanted = [a for a in argv if not a.startswith("-")] or [
        b for b in BACKENDS if b in ivy_like.available_backends()
    ] + ["onnxruntime"]
    print(f"{len(names)} node cases (onnx {__import__('onnx').__version__})")
    print("| backend | passed | failed | not applicable | pass rate (applicable) | time |")
    print("|---|---|---|---|---|---|")
    for backend in wanted:
        if backend == "onnxruntime":
            import onnxruntime.backend as ort_backend

            cls: Any = ort_backend
        else:
            cls = backend_for(backend)
        start = time.perf_counter()
        result = tally(names, every, backend, cls)
        p, f, s = (len(result[k]) for k in ("passed", "failed", "not_applicable"))
        rate = 100.0 * p / max(1, p + f)
        print(
            f"| {backend} | {p} | {f} | {s} | {rate:.1f} % | {time.perf_counter() - start:.0f} s |"
        )
        if "-v" in argv:
            print("  failed:", " ".join(result["failed"]))
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
