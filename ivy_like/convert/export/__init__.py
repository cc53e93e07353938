"""``ivy_like.export``: native artifacts that load and serve without ivy_like.

One module per format writes the artifact and loads it back natively (``_torch.py``,
``_tensorflow.py`` for SavedModel and TFLite, ``_jax.py``, ``_mlx.py``); ``_plan.py`` holds what
they share (the inputs, their dynamic dimensions, the weights, the function of native arrays).
This module checks the call, writes the artifact beside ``path`` under a temporary name, loads
it back and runs it (at the example and, for every dynamic dimension, at another size) against
the function run eagerly, and only then moves it to ``path``: a failed export leaves nothing
behind, and an artifact that pinned a dimension the user asked to be dynamic is refused.
"""

from __future__ import annotations

import importlib.util
import linecache
import os
import shutil
import sys
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any

import numpy as np

import ivy_like as il

from . import _jax, _mlx, _onnx, _tensorflow, _torch
from ._plan import Plan, as_numpy, flat_outputs, plan_for, resized, resolve_dims

__all__ = ["ExportError", "FORMATS", "export"]


class ExportError(ValueError):
    """An export the target framework refused, or an artifact that does not compute what the
    source computes (a dynamic dimension the function cannot take). A ``ValueError``; the
    message names the format, the dimension or the framework's reason, and the user's source
    line where the failure is in the user's code.

    Examples
    --------
    >>> import numpy as np
    >>> import ivy_like
    >>> from ivy_like.convert import ExportError
    >>> def first_two(x):
    ...     return ivy_like.reshape(x, (2, 4))  # the example's batch size, written in
    >>> try:
    ...     ivy_like.export(first_two, np.ones((2, 4), np.float32), format="jax", path="f")
    ... except ExportError as err:
    ...     print(str(err)[:69])
    export(format='jax'): first_two fails at batch=3 when run eagerly, so
    """

    __module__ = "ivy_like.convert"


@dataclass(frozen=True)
class Format:
    framework: str  # the module that must be importable
    backend: str  # the ivy_like backend the function is traced on
    write: Callable[[Plan, str], None]
    load: Callable[[str, list[str]], Callable[..., dict[str, np.ndarray]]]
    suffix: str  # the path's required ending ("" for none)
    folder: bool = False  # the artifact is a folder


FORMATS: dict[str, Format] = {
    "torch": Format("torch", "torch", _torch.write, _torch.load, ".pt2"),
    "savedmodel": Format(
        "tensorflow",
        "tensorflow",
        _tensorflow.write_savedmodel,
        _tensorflow.load_savedmodel,
        "",
        folder=True,
    ),
    "tflite": Format(
        "tensorflow", "tensorflow", _tensorflow.write_tflite, _tensorflow.load_tflite, ".tflite"
    ),
    "jax": Format("jax", "jax", _jax.write, _jax.load, ""),
    "mlx": Format("mlx", "mlx", _mlx.write, _mlx.load, ".mlxfn"),
    "onnx": Format("onnxscript", "torch", _onnx.write, _onnx.load, ".onnx"),
}
_INSTALL = {
    "torch": "torch",
    "tensorflow": "tensorflow-cpu",
    "jax": "jax",
    "mlx": "mlx[cpu]",
    "onnxscript": "ivy_like[onnx]",
}


def export(
    fn_or_model: Any,
    *example_args: Any,
    format: str,  # noqa: A002 - the issue's name, as torch.onnx's and keras's export use
    path: str | os.PathLike[str],
    dynamic: Any = None,
) -> str:
    """Write ``fn_or_model`` as a native artifact that its framework loads without ivy_like.

    ``fn_or_model``: a function written with ivy_like (of arrays, returning arrays, tuples,
    dicts or Containers), or a portable model (``ivy_like.nn`` or converted): the artifact then
    takes the inputs only, the weights being inside it. ``example_args``: arrays of any
    framework, giving the inputs' shapes and dtypes. ``format``:

    ===============  =============================================  =========================
    ``format``       ``path`` holds                                 loaded with
    ===============  =============================================  =========================
    ``"torch"``      a ``.pt2`` file (``torch.export``)             ``torch.export.load(path)
                                                                    .module()``
    ``"savedmodel"`` a SavedModel folder, ``serving_default``       ``tf.saved_model.load``,
                     signature                                      TF Serving
    ``"tflite"``     a ``.tflite`` file (built-in operators)        ``tf.lite.Interpreter``
    ``"jax"``        serialized StableHLO (``jax.export``)          ``jax.export.deserialize(
                                                                    data).call``
    ``"mlx"``        an ``.mlxfn`` file (``mx.export_function``)     ``mx.import_function``
    ``"onnx"``       an ``.onnx`` file (``torch.export``, then      ``onnxruntime.Inference
                     PyTorch's ONNX exporter)                       Session(path)``
    ===============  =============================================  =========================

    ``dynamic``: None makes axis 0 of every input a dynamic dimension named ``"batch"``;
    False makes every dimension static; otherwise one entry per input, None or
    ``{axis: name}`` (inputs sharing a name share that size). Outputs are plain: arrays in
    tuples and dicts (a Container becomes a dict); a SavedModel's and a TFLite model's
    signature returns them as a flat dict (``output_0``, or the key chain), MLX as a flat list.

    Before ``path`` is written the artifact is loaded back with its framework and run at the
    example and, for every dynamic dimension, at another size, against the function run
    eagerly: a dimension the function cannot take, or an artifact that differs, is an
    :class:`ExportError` naming it, and nothing is left at ``path``. Returns ``path``.

    Examples
    --------
    >>> import os, tempfile
    >>> import numpy as np
    >>> import jax
    >>> import ivy_like
    >>> def f(x):
    ...     return ivy_like.tanh(x) * 2.0
    >>> path = os.path.join(tempfile.mkdtemp(), "f.jaxexport")
    >>> _ = ivy_like.export(f, np.ones((2, 3), np.float32), format="jax", path=path)
    >>> with open(path, "rb") as file:
    ...     g = jax.export.deserialize(bytearray(file.read()))
    >>> np.asarray(g.call(np.zeros((5, 3), np.float32))).shape  # any batch size
    (5, 3)
    """
    spec = _format(format, path)
    examples = [as_numpy(x, f"example_args[{i}]") for i, x in enumerate(example_args)]
    if not examples:
        raise TypeError("export: give example_args (arrays with the inputs' shapes and dtypes)")
    plan = plan_for(fn_or_model, examples, resolve_dims(dynamic, examples))
    target = os.fspath(path)
    folder, name = os.path.split(os.path.abspath(target))
    if not os.path.isdir(folder):
        raise FileNotFoundError(f"export: the folder of path {target!r} does not exist")
    partial = os.path.join(folder, f".{name}.{uuid.uuid4().hex[:8]}.partial{spec.suffix}")
    expected = _expected(spec, format, plan)
    try:
        _write(spec, format, plan, partial)
        _verify(spec, format, plan, partial, expected)
        _move(partial, target, spec.folder)
    finally:
        _remove(partial)
    return target


def _format(format: str, path: Any) -> Format:  # noqa: A002
    if format not in FORMATS:
        raise ValueError(
            f"export: format must be one of {', '.join(map(repr, FORMATS))}, got {format!r}"
        )
    spec = FORMATS[format]
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"export: path must be a str or os.PathLike, got {type(path).__name__}")
    if spec.suffix and not os.fspath(path).endswith(spec.suffix):
        raise ValueError(
            f"export(format={format!r}): path must end with {spec.suffix!r} (what "
            f"{spec.framework} loads), got {os.fspath(path)!r}"
        )
    if importlib.util.find_spec(spec.framework) is None:
        raise ModuleNotFoundError(
            f"export(format={format!r}) needs {spec.framework}, which is not installed "
            f"(pip install {_INSTALL.get(spec.framework, spec.framework)})",
            name=spec.framework,
        )
    return spec


def _write(spec: Format, format: str, plan: Plan, partial: str) -> None:  # noqa: A002
    try:
        spec.write(plan, partial)
    except Exception as err:
        raise ExportError(
            f"export(format={format!r}): {spec.framework} could not export {plan.what}: "
            f"{_reason(err)}{_user_line(err)}"
        ) from err


def _expected(spec: Format, format: str, plan: Plan) -> list[tuple[str, Any, Any]]:  # noqa: A002
    """The function run eagerly on the format's backend: at the example, and with every dynamic
    dimension one larger (a function that cannot take that size cannot be exported with it
    dynamic: said here, before any framework traces it)."""
    eager = plan.native(spec.backend)
    weights = [_native(spec.backend, w) for w in plan.weights.values()]
    symbols = plan.symbols()
    trials = [("the example", plan.examples)]
    if symbols:
        bigger = {name: n + 1 for name, n in symbols.items()}
        trials.append((", ".join(f"{k}={v}" for k, v in bigger.items()), resized(plan, bigger)))
    out = []
    for label, inputs in trials:
        try:
            want = flat_outputs(eager(weights, *(_native(spec.backend, x) for x in inputs)))
        except Exception as err:
            if label == "the example":
                raise
            raise ExportError(
                f"export(format={format!r}): {plan.what} fails at {label} when run eagerly, so "
                f"{_names(symbols)} cannot be dynamic (pass dynamic=False or name only the "
                f"dimensions it can take): {_reason(err)}{_user_line(err)}"
            ) from err
        out.append((label, inputs, [(k, _to_numpy(v)) for k, v in want]))
    return out


def _verify(
    spec: Format,
    format: str,  # noqa: A002
    plan: Plan,
    partial: str,
    expected: list[tuple[str, Any, Any]],
) -> None:
    """The artifact, loaded back natively, against the eager results."""
    run = spec.load(partial, plan.names)
    symbols = plan.symbols()
    for label, inputs, want in expected:
        try:
            got = run(*inputs)
        except Exception as err:
            if format == "mlx" and symbols:
                # MLX has no named dimensions: one shapeless graph, whose ops must work out
                # their shapes anew at each call (MLX's Slice, in a split, cannot)
                raise ExportError(
                    f"export(format='mlx'): MLX carries dynamic dimensions only as one "
                    f"shapeless graph, and the one of {plan.what} fails at {label}: "
                    f"{_reason(err)}; so {_names(symbols)} cannot be dynamic in an .mlxfn "
                    f"(export with dynamic=False for the example's shapes, or in another "
                    f"format)"
                ) from err
            raise ExportError(
                f"export(format={format!r}): the exported {plan.what} fails at {label}: "
                f"{_reason(err)}; the trace fixed {_names(symbols)} (a reshape or a shape "
                f"read as a constant), so it cannot be dynamic here"
            ) from err
        _compare(format, plan.what, label, symbols, want, got)


def _compare(
    format: str,  # noqa: A002
    what: str,
    label: str,
    symbols: dict[str, int],
    want: list[tuple[str, Any]],
    got: dict[str, np.ndarray],
) -> None:
    values = list(got.values()) if set(got) != {k for k, _ in want} else [got[k] for k, _ in want]
    problem = ""
    if len(values) != len(want):
        problem = f"it returns {len(values)} output(s) where the function returns {len(want)}"
    for (key, w), g in zip(want, values):
        if problem:
            break
        if g.shape != w.shape:
            problem = f"output {key} is shaped {g.shape} where the function gives {w.shape}"
        elif w.dtype.kind in "fc":
            scale = max(1.0, float(np.max(np.abs(w), initial=0.0)))
            if not np.allclose(g, w, rtol=1e-4, atol=1e-5 * scale, equal_nan=True):
                err = float(np.max(np.abs(g.astype(np.float64) - w)))
                problem = f"output {key} differs from the function by {err:.3g}"
        elif not np.array_equal(g, w):
            problem = f"output {key} differs from the function"
    if problem:
        dims = f"; a dynamic dimension ({_names(symbols)}) may have been fixed" if symbols else ""
        raise ExportError(
            f"export(format={format!r}): the exported {what} at {label}: {problem}{dims}"
        )


def _native(backend: str, x: np.ndarray) -> Any:
    return il.get_backend(backend).asarray(np.array(x, copy=True))


def _to_numpy(x: Any) -> np.ndarray:
    return np.asarray(il.to_numpy(x))


def _names(symbols: dict[str, int]) -> str:
    return ", ".join(f"dimension {k!r} (size {v} in the example)" for k, v in symbols.items())


def _move(partial: str, target: str, folder: bool) -> None:
    if folder and os.path.isdir(target):
        shutil.rmtree(target)
    os.replace(partial, target)


def _remove(partial: str) -> None:
    if os.path.isdir(partial):
        shutil.rmtree(partial, ignore_errors=True)
    elif os.path.exists(partial):
        os.remove(partial)


def _reason(err: BaseException) -> str:
    text = str(err).strip().splitlines()
    return f"{type(err).__name__}: {text[0] if text else ''}"


_OURS = str(Path(__file__).resolve().parents[2])  # the ivy_like package's folder


def _user_line(err: BaseException) -> str:
    """``" (at file:line: code)"`` for the deepest frame of the user's own code in ``err``'s
    traceback (nor ivy_like nor an installed package nor the standard library), or ``""``."""
    found = ""
    seen: set[int] = set()
    while err is not None and id(err) not in seen:
        seen.add(id(err))
        tb: TracebackType | None = err.__traceback__
        while tb is not None:
            file = tb.tb_frame.f_code.co_filename
            if _is_user_file(file):
                line = _source(file, tb.tb_lineno)
                found = f" (at {file}:{tb.tb_lineno}{': ' + line if line else ''})"
            tb = tb.tb_next
        err = err.__cause__ or err.__context__  # type: ignore[assignment]
    return found


def _is_user_file(file: str) -> bool:
    if file.startswith("<") or "site-packages" in file or "dist-packages" in file:
        return False
    resolved = str(Path(file).resolve())
    return not resolved.startswith((_OURS + os.sep, sys.prefix, sys.base_prefix))


def _source(file: str, line: int) -> str:
    return linecache.getline(file, line).strip()
