"""The documentation: every code block of the guides runs and prints what its page shows, the
API reference covers every registered op and every other public name (whose docstring example
runs here on every selected backend), and the site build fails on a broken link or a reference
to a missing name, loads nothing from another server and has a 404 page that works under a
sub-path.

The code-block convention (docs/contributing.md), for README.md and docs/*.md:

* A ```python block whose lines start with ``>>>`` is a doctest session: each output follows
  its prompt (ELLIPSIS and NORMALIZE_WHITESPACE, as for the docstrings).
* Any other ```python block is a script. What it prints must equal the ```text block directly
  after it (``...`` stands for any text, as doctest's ELLIPSIS); with no such block it must
  print nothing.
* A ```console block holds ``$ python ...`` commands, each followed by its output; they run
  from the repository root and are checked the same way.
* Other blocks (```bash install lines, a ```text block on its own, diagrams, ```diff) are not
  run.

The blocks of one page run in order in one namespace, one ``contextvars`` context (a backend
set by one block stays set for the next) and a temporary working directory. A block that names
a backend (a quoted ``"torch"``; any backend named in a console block) or imports an optional
framework that is not installed or not selected (``--ivy-like-backends``) is skipped with that
reason, and so is a later block of the page that fails after it (only a ``NameError`` after a
failed block; with every backend installed nothing is skipped, so everything is checked). Each
block is one test, named by its file and line, and its failure message starts with both.
"""

from __future__ import annotations

import contextlib
import contextvars
import dataclasses
import difflib
import doctest
import io
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import traceback
from importlib.util import find_spec
from pathlib import Path

import pytest

import ivy_like
from ivy_like.core.registry import OPS
from ivy_like.devtools import api_docs, public_names, support
from ivy_like.testing.pytest_plugin import selected_backends

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
PAGES = [ROOT / "README.md", *sorted(DOCS.glob("*.md"))]
BACKENDS = ivy_like.registered_backends()
# Optional modules a block may import (pyproject's extras, by import name).
OPTIONAL = (
    "jax",
    "torch",
    "tensorflow",
    "keras",
    "mlx",
    "mxnet",
    "flax",
    "optax",
    "optree",
    "tree",
    "safetensors",
    "sklearn",
    "matplotlib",
    "tqdm",
    "transformers",
    "onnx",
    "onnxruntime",
    "onnxscript",
)
ENV = {"TF_CPP_MIN_LOG_LEVEL": "2", "TF_ENABLE_ONEDNN_OPTS": "0"}
_FENCE = re.compile(r"^(\s*)(`{3,})([\w-]*)\s*$")


@dataclasses.dataclass
class Block:
    path: Path
    line: int  # the opening fence's line (1-based); the code starts on the next line
    kind: str  # "doctest", "script" or "console"
    source: str
    output: str | None = None  # the ```text block after a script
    output_line: int = 0

    @property
    def where(self) -> str:
        return f"{self.path.relative_to(ROOT)}:{self.line}"


def _fences(path: Path) -> list[tuple[int, int, str, str]]:
    """(fence line, closing line, info string, dedented content) of every fenced block."""
    lines = path.read_text(encoding="utf-8").splitlines()
    found, i = [], 0
    while i < len(lines):
        match = _FENCE.match(lines[i])
        if not match:
            i += 1
            continue
        indent, ticks, info = match.groups()
        end = i + 1
        while end < len(lines) and lines[end].strip() != ticks:
            end += 1
        body = [
            s[len(indent) :] if s.startswith(indent) else s.lstrip() for s in lines[i + 1 : end]
        ]
        found.append((i + 1, end + 1, info, "\n".join(body) + "\n"))
        i = end + 1
    return found


def blocks(path: Path) -> list[Block]:
    """The blocks of ``path`` that run, with the output each must print."""
    text_lines = path.read_text(encoding="utf-8").splitlines()
    fences = _fences(path)
    out: list[Block] = []
    for n, (line, end, info, body) in enumerate(fences):
        if info == "python":
            first = next((s for s in body.splitlines() if s.strip()), "")
            kind = "doctest" if first.lstrip().startswith(">>>") else "script"
            block = Block(path, line, kind, body)
            after = fences[n + 1] if n + 1 < len(fences) else None
            # The output block follows directly (blank lines at most), labelled text or not.
            between = text_lines[end : after[0] - 1] if after else []
            if after and after[2] in ("text", "") and not any(s.strip() for s in between):
                block.output, block.output_line = after[3], after[0]
            out.append(block)
        elif info == "console":
            out.append(Block(path, line, "console", body))
    return out


ALL_BLOCKS = [b for page in PAGES for b in blocks(page)]


# -- running a page -----------------------------------------------------------------------------
@dataclasses.dataclass
class Outcome:
    status: str  # "passed", "failed" or "skipped"
    message: str = ""


def _normal(text: str) -> str:
    lines = [line.rstrip() for line in text.strip("\n").splitlines()]
    return "\n".join(lines) + "\n"


# A printed float is compared as a number: the shown value, give or take one unit of its last
# shown digit (two machines round the same value to neighbouring digits) and a relative 1e-5
# (float32 kernels of different CPUs, or instruction sets, differ in the last bits). Integers
# (counts, shapes, seeds) compare exactly, as does all other text, up to the spacing NumPy
# adds to align a column. A quantity that is itself rounding noise (a max |diff|) has no
# portable printed value: a page prints it against its bound instead ("below 1e-4").
_RTOL = 1e-5
_NUMBER = r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?"
_TOKENS = re.compile(
    rf"(?P<ellipsis>\.\.\.)|(?<![\w.])(?P<number>{_NUMBER})(?![\w.])|(?P<space>\s+)"
)


def _unit(shown: str) -> float:
    """One unit of the last digit of ``shown`` (0.0329 -> 1e-4, 5.72e-06 -> 1e-8, 12 -> 1)."""
    mantissa, _, exponent = shown.lower().partition("e")
    decimals = len(mantissa.partition(".")[2])
    return 10.0 ** (int(exponent or 0) - decimals)


def _close(shown: str, printed: str) -> bool:
    if not any(c in shown.lower() for c in ".e"):  # an integer: exact, however long
        return not any(c in printed.lower() for c in ".e") and int(shown) == int(printed)
    want, got = float(shown), float(printed)
    return abs(got - want) <= _unit(shown) + _RTOL * abs(want)


def _numbers_match(want: str, got: str) -> bool:
    """``got`` has ``want``'s text, numbers equal within the tolerance above (``...`` stands for
    any text, spacing next to a number is free, other spacing needs one blank or more)."""
    pieces: list[tuple[str, str]] = []  # ("re", a pattern) or ("space", "*" or "+")
    shown: list[str] = []
    pos = 0
    for token in _TOKENS.finditer(want):
        if token.start() > pos:
            pieces.append(("re", re.escape(want[pos : token.start()])))
        pos = token.end()
        if token.lastgroup == "ellipsis":
            pieces.append(("re", ".*?"))
        elif token.lastgroup == "number":
            shown.append(token.group())
            pieces += [("space", "*"), ("re", f"({_NUMBER})"), ("space", "*")]
        else:
            pieces.append(("space", "+"))
    pieces.append(("re", re.escape(want[pos:])))
    pattern, space = [], ""
    for kind, text in pieces:  # a run of spacing becomes one \s* or \s+
        if kind == "space":
            space = "*" if "*" in (space, text) else "+"
            continue
        if space:
            pattern.append(rf"\s{space}")
            space = ""
        pattern.append(text)
    if space:
        pattern.append(rf"\s{space}")
    match = re.fullmatch("".join(pattern), got, re.DOTALL)
    return match is not None and all(_close(w, g) for w, g in zip(shown, match.groups()))


def _same_output(want: str, got: str) -> bool:
    want, got = _normal(want), _normal(got)
    if doctest.OutputChecker().check_output(want, got, doctest.ELLIPSIS):
        return True
    return _numbers_match(want, got)


class _NumberChecker(doctest.OutputChecker):
    """The doctest blocks' checker: doctest's own, then the numbers' tolerance above."""

    def check_output(self, want: str, got: str, optionflags: int) -> bool:
        return super().check_output(want, got, optionflags) or _same_output(want, got)


def _line_matches(want: str, got: str) -> bool:
    return doctest.OutputChecker().check_output(want + "\n", got + "\n", doctest.ELLIPSIS)


def _elide(want: list[str], got: list[str]) -> list[str]:
    """``got`` with what the shown ``...`` lines stand for collapsed into them and the lines
    that match a shown line with ``...`` in it written as shown, so the diff shows only what
    really differs."""
    out, j = [], 0
    for i, line in enumerate(want):
        if line.strip() == "...":
            k = j
            if i + 1 == len(want):
                k = len(got)  # a last `...` stands for the rest
            while k < len(got) and not _line_matches(want[i + 1], got[k]):
                k += 1
            if k == len(got) and i + 1 < len(want):  # the next shown line is nowhere printed
                k = max(j, len(got) - (len(want) - i - 1))
            out.append(line)
            j = k
        elif j < len(got):
            out.append(line if _line_matches(line, got[j]) else got[j])
            j += 1
    return out + got[j:]


def _diff(want: str, got: str) -> str:
    shown, printed = _normal(want).splitlines(), _normal(got).splitlines()
    if "..." in want:
        printed = _elide(shown, printed)
    lines = difflib.unified_diff(shown, printed, "shown", "printed", lineterm="")
    note = "\n(`...` in the shown text stands for any text)" if "..." in want else ""
    return "\n".join(lines) + note


def _needs(block: Block, selected: list[str]) -> list[str]:
    """What the block needs that is not here: backends not selected, modules not installed."""
    names = "|".join(BACKENDS)
    if block.kind == "console":
        wanted = set(re.findall(rf"\b({names})\b", block.source))
    else:
        wanted = set(re.findall(rf"[\"']({names})[\"']", block.source))
    missing = {name for name in wanted if name not in selected}
    imported = re.findall(r"^\s*(?:>>> |\.\.\. )?(?:import|from)\s+(\w+)", block.source, re.M)
    missing |= {m for m in imported if m in OPTIONAL and find_spec(m) is None}
    return sorted(missing)


def _missing_module(err: BaseException) -> str | None:
    if isinstance(err, ModuleNotFoundError) and err.name:
        root = err.name.split(".")[0]
        if root in OPTIONAL and find_spec(root) is None:
            return root
    return None


def _traceback(err: BaseException, block: Block) -> str:
    """The traceback from the page's own frames on (the runner's frames say nothing)."""
    frames = traceback.extract_tb(err.__traceback__)
    start = next((i for i, f in enumerate(frames) if f.filename == str(block.path)), 0)
    lines = traceback.format_list(frames[start:]) + traceback.format_exception_only(err)
    return "".join(lines)


class _Runner(doctest.DocTestRunner):
    """Keeps the first unexpected exception, to tell a missing module or name from a bug, and
    whether the first failure was that exception or a wrong output."""

    error: BaseException | None = None
    first: str | None = None  # "error" or "output"

    def report_unexpected_exception(self, out, test, example, exc_info):  # type: ignore[override]
        if self.error is None:
            self.error = exc_info[1]
        self.first = self.first or "error"
        super().report_unexpected_exception(out, test, example, exc_info)

    def report_failure(self, out, test, example, got):  # type: ignore[override]
        self.first = self.first or "output"
        super().report_failure(out, test, example, got)


class PageRun:
    """The blocks of one page, run in order on demand; their outcomes by line."""

    def __init__(self, path: Path, selected: list[str]) -> None:
        self.path = path
        self.selected = selected
        self.blocks = blocks(path)
        self.done: dict[int, Outcome] = {}
        self.namespace: dict[str, object] = {"__name__": "__main__"}
        self.context = contextvars.copy_context()
        self.cwd = tempfile.mkdtemp(prefix="ivy_like_docs_")
        self.not_run: list[tuple[Block, Outcome]] = []  # skipped or failed so far

    def outcome(self, line: int) -> Outcome:
        """The outcome of the block at ``line``, running it (and the blocks before it whose
        names it may use) once. A console block runs in its own process: it needs no other
        block (so under pytest-xdist a worker runs it without running the page)."""
        target = next(b for b in self.blocks if b.line == line)
        if target.kind == "console":
            todo = [target]
        else:
            todo = [b for b in self.blocks if b.line <= line and b.kind != "console"]
        for block in todo:
            if block.line in self.done:
                continue
            try:
                result = self._run(block)
            except Exception as err:
                result = Outcome("failed", f"{block.where} raised:\n{_traceback(err, block)}")
            self.done[block.line] = result
            if result.status != "passed" and block.kind != "console":
                self.not_run.append((block, result))
        return self.done[line]

    def _run(self, block: Block) -> Outcome:
        missing = _needs(block, self.selected)
        if missing:
            return Outcome(
                "skipped",
                f"{block.where} needs {', '.join(missing)}: not installed "
                "or not selected with --ivy-like-backends",
            )
        if block.kind == "console":
            return self._console(block)
        before = os.getcwd()
        os.chdir(self.cwd)
        try:
            if block.kind == "doctest":
                return self._doctest(block)
            return self._script(block)
        finally:
            os.chdir(before)

    def _unrun(self, block: Block, err: BaseException) -> Outcome | None:
        """A skip for an error that only says something this block needs is missing here."""
        missing = _missing_module(err)
        if missing:
            return Outcome("skipped", f"{block.where} needs {missing}: not installed")
        if not self.not_run:
            return None
        earlier, outcome = self.not_run[-1]
        # After a failed block only a missing name is its consequence (that block's failure
        # is reported); after a skipped one, anything may be (a file it would have written):
        # where every backend is installed nothing is skipped, so everything is checked.
        if isinstance(err, NameError) or outcome.status == "skipped":
            return Outcome(
                "skipped",
                f"{block.where} raised {type(err).__name__} after the block at line "
                f"{earlier.line}, which was {outcome.status} and may make what it needs: "
                f"{outcome.message.splitlines()[0]}",
            )
        return None

    def _script(self, block: Block) -> Outcome:
        # Padded so that tracebacks give the page's own line numbers.
        code = compile("\n" * block.line + block.source, str(block.path), "exec")
        printed = io.StringIO()
        try:
            with contextlib.redirect_stdout(printed):
                self.context.run(exec, code, self.namespace)
        except Exception as err:
            skip = self._unrun(block, err)
            if skip:
                return skip
            raise
        got = printed.getvalue()
        if block.output is None:
            if got.strip():
                return Outcome(
                    "failed",
                    f"{block.where} prints this, but no ```text block "
                    f"follows it to show it:\n{got}",
                )
            return Outcome("passed")
        if not _same_output(block.output, got):
            where = f"{block.path.relative_to(ROOT)}:{block.output_line}"
            return Outcome(
                "failed",
                f"{block.where} prints what {where} does not show:\n{_diff(block.output, got)}",
            )
        return Outcome("passed")

    def _doctest(self, block: Block) -> Outcome:
        rel = str(block.path.relative_to(ROOT))
        test = doctest.DocTestParser().get_doctest(
            block.source, self.namespace, rel, str(block.path), block.line
        )
        runner = _Runner(
            checker=_NumberChecker(), optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
        )
        report = io.StringIO()
        self.context.run(runner.run, test, out=report.write, clear_globs=False)
        self.namespace.update(test.globs)
        if runner.error is not None:
            skip = self._unrun(block, runner.error)
            if skip:
                return skip
        if runner.failures:
            return Outcome("failed", f"{block.where}:\n{report.getvalue()}")
        return Outcome("passed")

    def _console(self, block: Block) -> Outcome:
        commands: list[tuple[str, list[str]]] = []
        for line in block.source.splitlines():
            if line.startswith("$ "):
                commands.append((line[2:], []))
            elif commands:
                commands[-1][1].append(line)
        for command, shown in commands:
            argv = shlex.split(command)
            if argv[0] != "python":
                return Outcome(
                    "failed", f"{block.where}: only `python ...` commands run: {command}"
                )
            done = _python(argv[1:], timeout=900)
            if done.returncode != 0:
                return Outcome(
                    "failed",
                    f"{block.where}: `{command}` exited with "
                    f"{done.returncode}:\n{done.stderr[-3000:]}",
                )
            want = "\n".join(shown)
            if not _same_output(want, done.stdout):
                return Outcome(
                    "failed",
                    f"{block.where}: `{command}` prints what the page does "
                    f"not show:\n{_diff(want, done.stdout)}",
                )
        return Outcome("passed")


def _python(args: list[str], timeout: int) -> subprocess.CompletedProcess[str]:
    """``python *args`` from the repository root, TensorFlow's logs quieted."""
    return subprocess.run(
        [sys.executable, *args],
        cwd=ROOT,
        env={**os.environ, **ENV},
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


_RUNS: dict[Path, PageRun] = {}


@pytest.mark.parametrize("block", ALL_BLOCKS, ids=[b.where for b in ALL_BLOCKS])
def test_code_block(block, request):
    run = _RUNS.get(block.path)
    if run is None:
        run = _RUNS[block.path] = PageRun(block.path, selected_backends(request.config))
    outcome = run.outcome(block.line)
    if outcome.status == "skipped":
        pytest.skip(outcome.message)
    if outcome.status == "failed":
        pytest.fail(outcome.message, pytrace=False)


def teardown_module(module):
    for run in _RUNS.values():
        shutil.rmtree(run.cwd, ignore_errors=True)
    _RUNS.clear()


# -- the convention itself ----------------------------------------------------------------------
def _page(tmp_path, text: str) -> Path:
    path = tmp_path / "page.md"
    path.write_text(text, encoding="utf-8")
    return path


def _outcomes(path: Path) -> list[Outcome]:
    run = PageRun(path, ["numpy"])
    try:
        return [run.outcome(b.line) for b in run.blocks]
    finally:
        shutil.rmtree(run.cwd, ignore_errors=True)


def test_a_block_printing_other_numbers_fails_naming_its_line(tmp_path, monkeypatch):
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    page = _page(
        tmp_path,
        "# t\n\n```python\nprint(round(-2.0174894, 6))\n```\n```text\n-2.01759\n```\n\n"
        "```python\nprint(round(-2.0174894, 6))\n```\n```text\n-2.017489\n```\n",
    )
    first, second = _outcomes(page)
    assert first.status == "failed" and first.message.startswith("page.md:3 prints")
    assert "-2.01759\n+-2.017489" in first.message
    assert second.status == "passed"


@pytest.mark.parametrize(
    "shown, printed",
    [
        ("loss 2.3004 -> 0.0329, accuracy 98.1%", "loss 2.3004 -> 0.0330, accuracy 98.1%"),
        ("[ 0.087708 -0.087708]", "[ 0.087709 -0.087709]"),  # the last digit, rounded apart
        ("[ 0.0362  ]\n[-0.005   ]", "[ 0.036201]\n[-0.005   ]"),  # NumPy's column alignment
        ("g [0.9182168, 1.3817732]", "g [0.91821694, 1.381773]"),  # float32 in the last bits
        ("1.2e-05 ... 3.0", "1.20001e-05 took 2.5 s 3.0"),
        ("-2.01749", "-2.017489"),  # the shown digits of the printed value
    ],
)
def test_printed_floats_compare_as_numbers(shown, printed):
    assert _same_output(shown, printed)


@pytest.mark.parametrize(
    "shown, printed",
    [
        ("loss 2.3004 -> 0.0329", "loss 2.3004 -> 0.0331"),  # two units of the last digit
        ("max |diff| 5.72e-06", "max |diff| 0.00e+00"),  # noise has no portable value
        ("shape (3, 4)", "shape (3, 5)"),  # integers are exact
        ("shape (3, 4)", "shape (3.0, 4)"),
        ("seed 8668861027912758289", "seed 8668861027912758288"),
        ("float32 [1. 2.]", "float64 [1. 2.]"),  # digits inside a word are text
        ("[1. 2.]", "[1. 2. 3.]"),
        ("same predicted classes: True", "same  predicted classes: False"),
        ("a b", "ab"),
    ],
)
def test_other_text_and_real_differences_still_fail(shown, printed):
    assert not _same_output(shown, printed)


def test_blocks_share_a_page_and_skip_what_they_cannot_run(tmp_path, monkeypatch):
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    page = _page(
        tmp_path,
        "```python\nimport ivy_like\nivy_like.set_backend('numpy')\nx = 2\n```\n\n"
        "```python\n>>> x + 1\n4\n```\n\n"  # a doctest with a wrong output
        "```python\nprint(ivy_like.current_backend().name, x)\n```\n```text\nnumpy ...\n```\n\n"
        "```python\nwith ivy_like.use_backend('mxnet'):\n    y = 1\n```\n\n"
        "```python\nprint(y)\n```\n\n"
        "```python\nprint('not shown')\n```\n",
    )
    outcomes = _outcomes(page)
    assert [o.status for o in outcomes] == [
        "passed",
        "failed",
        "passed",
        "skipped",
        "skipped",
        "failed",
    ]
    assert (
        outcomes[1].message.startswith("page.md:7:") and "Expected:\n    4" in outcomes[1].message
    )
    assert "needs mxnet" in outcomes[3].message
    assert "NameError after the block at line 19, which was skipped" in outcomes[4].message
    assert "no ```text block follows it" in outcomes[5].message


def test_a_console_block_runs_its_commands(tmp_path, monkeypatch):
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    page = _page(
        tmp_path,
        '```console\n$ python -c "print(6 * 7)"\n42\n```\n\n'
        '```console\n$ python -c "print(1)"\n2\n```\n\n'
        "```console\n$ pip install ivy_like\n```\n",
    )
    ok, wrong, other = _outcomes(page)
    assert ok.status == "passed"
    assert wrong.status == "failed" and wrong.message.startswith("page.md:6: `python -c")
    assert other.status == "failed" and "only `python ...` commands run" in other.message


def test_a_failure_under_an_ellipsis_shows_only_what_differs():
    shown = "== jax\n1.0 ... s\n...\nmax 1.6e-06\n"
    printed = "== jax\n1.0 2.53 s\n== torch\n1.1\nmax 6.3e-03\n"
    assert not _same_output(shown, printed)
    diff = _diff(shown, printed)
    assert "-max 1.6e-06\n+max 6.3e-03" in diff
    assert "torch" not in diff and "2.53" not in diff


def test_every_page_with_code_is_collected():
    pages = {b.path.name for b in ALL_BLOCKS}
    assert {"README.md", "containers.md", "gradients.md", "nn.md", "transforms.md"} <= pages


# -- the API reference --------------------------------------------------------------------------
@pytest.fixture(scope="module")
def api_pages():
    return api_docs.generate(DOCS)


def test_the_api_reference_covers_every_registered_op(api_pages):
    assert api_pages.problems == []
    index = api_pages.pages["api/index.md"]
    here = [c for c in api_docs.columns(DOCS) if c.source == "computed here"]
    assert {c.label.split()[0] for c in here} >= {"numpy"}
    for key, spec in OPS.items():
        page = api_pages.pages[f"api/{spec.family}.md"]
        name = api_docs.public_name(spec)
        section = page.split(f"## `{name}` {{#{key}}}\n", 1)
        assert len(section) == 2, f"{name} has no entry in api/{spec.family}.md"
        entry = section[1].split("\n## ", 1)[0]
        assert f"{name}(" in entry  # the signature
        doc = (spec.declaration.__doc__ or "").splitlines()
        example = next(s.strip() for s in doc if s.strip().startswith(">>>"))
        assert f"\n{example}\n" in entry, name  # the docstring, with its example
        assert f"| function | `{name}(" in entry
        if spec.method:  # the first array parameter becomes self
            assert f"| `Array` method | `{spec.params[0].name}.{spec.name}(" in entry, name
        if getattr(ivy_like.Container, f"static_{spec.name}", None) is not None:
            assert f"`ivy_like.Container.static_{spec.name}(" in entry, name
        for column in here:
            status = support.status(spec, ivy_like.get_backend(column.label.split()[0]))
            assert f"| {column.label} | {status.replace('|', chr(92) + '|')} |" in entry, name
        assert f"({spec.family}.md#{key})" in index, f"the index does not link {name}"


def test_a_docstring_naming_a_missing_op_is_a_problem():
    from ivy_like.core.registry import OpSpec

    def probe(x, /):
        """Like :func:`abs`, see :func:`linalg.inv`, not :func:`no_such_op`.

        See Also
        --------
        exp, linalg.det : related ops
        """

    spec = OpSpec(name="probe", declaration=probe, arrays=("x",), family="elementwise")
    problems: list[str] = []
    text = api_docs.render_docstring(spec, "api/elementwise.md", problems)
    assert "[`ivy_like.abs`](#abs)" in text
    assert "[`ivy_like.linalg.inv`](linalg.md#linalg.inv)" in text
    assert (
        "- [`ivy_like.exp`](#exp), [`ivy_like.linalg.det`](linalg.md#linalg.det): related" in text
    )
    assert problems == [
        "api/elementwise.md: the docstring of ivy_like.probe refers to :func:`no_such_op`, "
        "which names no op and nothing in ivy_like"
    ]


def test_guides_names_are_checked_and_linked():
    text, problems = api_docs.check_references(
        "`ivy_like.stop_gradient` and `ivy_like.nn.Linear(3, 4)`, see `docs/nn.md`;\n"
        "`ivy_like.no_such_name(x)`\n```python\nivy_like.not_checked_in_code\n```\n",
        "gradients.md",
    )
    assert "[`ivy_like.stop_gradient`](api/general.md#stop_gradient)" in text
    assert "`ivy_like.nn.Linear(3, 4)`," in text and "[`docs/nn.md`](nn.md)" in text
    assert problems == ["gradients.md: `ivy_like.no_such_name(x)` names nothing in ivy_like"]


def test_api_docs_command_writes_the_pages(tmp_path, capsys):
    from ivy_like.__main__ import main

    main(["api-docs", str(tmp_path), "--docs", str(DOCS)])  # 1 while a name lacks an example
    written = {p.name for p in (tmp_path / "api").glob("*.md")}
    areas = {f"{e.area}.md" for e in public_names.public_entries()}
    assert written == {"index.md", *(f"{s.family}.md" for s in OPS.values()), *areas}
    assert "pages under" in capsys.readouterr().out


# -- the public names beyond the ops ------------------------------------------------------------
ENTRIES = public_names.public_entries()


def test_every_public_name_has_an_entry_and_an_example(api_pages):
    """Every public name that is not an op (the namespace's functions and classes, Container's
    own methods, the public subpackages' exports) has a section on its area's page, with its
    signature and its docstring's example, and the index links to it."""
    index = api_pages.pages["api/index.md"]
    lacking = []
    for entry in ENTRIES:
        page = api_pages.pages[entry.page]
        section = page.split(f" `{entry.name}` {{#{entry.anchor}}}\n", 1)
        assert len(section) == 2, f"{entry.name} has no entry in {entry.page}"
        text = section[1].split("\n## ", 1)[0]
        if entry.call:
            assert f"\n{entry.call}\n" in text, entry.name
        example = api_docs.examples(entry.doc)
        if ">>>" not in example:
            lacking.append(entry.name)
            continue
        first = next(s.strip() for s in example.splitlines() if s.strip().startswith(">>>"))
        assert f"\n{first}\n" in text, entry.name
        assert f"({entry.area}.md#{entry.anchor})" in index, f"the index does not link {entry.name}"
    assert not lacking, f"public names whose docstring has no example: {lacking}"
    assert [p for p in api_pages.problems if "has no example" in p] == [
        f"{e.page}: the docstring of {e.name} has no example (an Examples section)"
        for e in ENTRIES
        if e.name in lacking
    ]


def test_the_issues_names_are_documented():
    """What a user looks up beyond the ops (the transforms, Container's methods, the nn layers
    and models, optimizers and schedules, random, convert, testing, the backend functions)."""
    names = {e.name: e for e in ENTRIES}
    wanted = [
        *(
            f"ivy_like.{n}"
            for n in (
                "grad value_and_grad vjp jvp vmap compile checkpoint custom_function hessian jac "
                "cond while_loop scan Container set_backend use_backend"
            ).split()
        ),
        "ivy_like.Container.cont_map",
        "ivy_like.Container.cont_to_disk",
        "ivy_like.nn.Linear",
        "ivy_like.nn.Sequential",
        "ivy_like.nn.TransformerBlock",
        "ivy_like.optimizers.adam",
        "ivy_like.optimizers.cosine_decay_schedule",
        "ivy_like.random.normal",
        "ivy_like.convert.from_torch",
        "ivy_like.convert.to_backend",
        "ivy_like.testing.assert_close",
    ]
    assert [n for n in wanted if n not in names] == []
    assert names["ivy_like.grad"].page == "api/transforms.md"
    assert names["ivy_like.Container.cont_map"].call.startswith("container.cont_map(fn, ")
    assert names["ivy_like.use_backend"].page == "api/backends.md"
    assert not any(public_names.is_op_function(e.obj) for e in ENTRIES if e.obj is not None)
    assert "ivy_like.build_all" not in names  # public_names.NOT_API, with its reason


def test_a_name_loaded_on_first_use_is_read_from_its_source():
    """``ivy_like.convert.from_torch`` imports torch: its entry is read with ast, so the docs
    build (numpy alone) documents it without loading it."""
    entry = public_names.entry_for("ivy_like.convert.from_torch")
    assert entry is not None and entry.obj is None and entry.loads == "torch"
    assert entry.call.startswith("ivy_like.convert.from_torch(module, *example_args")
    assert entry.source == "ivy_like/convert/torch/api.py" and ">>>" in entry.doc
    graph = public_names.entry_for("ivy_like.convert.GraphModel")
    assert graph is not None and graph.kind == "class" and "self" not in graph.call


def test_a_public_name_without_an_example_is_a_problem():
    entry = public_names.Entry(
        name="ivy_like.probe",
        area="arrays",
        kind="function",
        call="ivy_like.probe(x)",
        doc="Like :func:`grad`, without an example.",
        source="ivy_like/probe.py",
    )
    problems: list[str] = []
    text = api_docs._entry_section(entry, "api/arrays.md", problems)
    assert "[`ivy_like.grad`](transforms.md#grad)" in text
    assert problems == [
        "api/arrays.md: the docstring of ivy_like.probe has no example (an Examples section)"
    ]


def test_public_names_are_linked_from_the_guides():
    text, problems = api_docs.check_references(
        "`ivy_like.grad`, `ivy_like.transforms.grad`, `ivy_like.Container.cont_map`, "
        "`ivy_like.optimizers.adam`, `ivy_like.convert.from_torch`, `ivy_like.optimizers`, "
        "`ivy_like.newaxis`, `ivy_like.grad(f)`\n",
        "gradients.md",
    )
    assert problems == []
    assert "[`ivy_like.grad`](api/transforms.md#grad)" in text
    assert "[`ivy_like.transforms.grad`](api/transforms.md#grad)" in text  # the same object
    assert "[`ivy_like.Container.cont_map`](api/container.md#Container.cont_map)" in text
    assert "[`ivy_like.optimizers.adam`](api/optimizers.md#optimizers.adam)" in text
    assert "[`ivy_like.convert.from_torch`](api/convert.md#convert.from_torch)" in text
    assert "[`ivy_like.optimizers`](api/optimizers.md)" in text
    assert "`ivy_like.newaxis`," in text and "`ivy_like.grad(f)`" in text  # no entry; a call


def test_the_navigation_has_every_page_once():
    pages = ["index.md", "nn.md", "support.md", "support-mxnet.md", "api/index.md"]
    pages += ["api/transforms.md", "api/general.md", "api/nn.md", "api/nn-layers.md"]
    assert api_docs.site_nav(pages) == [
        "index.md",
        "nn.md",
        "support.md",
        "support-mxnet.md",
        {"API reference": [{"Overview": "api/index.md"}, "api/transforms.md", "api/nn-layers.md"]},
        {"Ops by family": ["api/general.md", "api/nn.md"]},
    ]


# Docstring examples that show the default backend (numpy) on purpose, by (name, backend):
# strict, so that an example made to print the same on every backend is noticed.
_EXAMPLE_XFAIL = {
    ("ivy_like.result_type", "mxnet"): "the example promotes to complex64; mxnet has no "
    "complex dtype",
    ("ivy_like.convert.from_keras", "torch"): "with torch active the traced model's Add adds "
    "a torch tensor and a NumPy array, and NumPy 2 warns (an error here) that "
    "Tensor.__array_wrap__ lacks its new arguments",
}


@pytest.mark.parametrize("entry", ENTRIES, ids=[e.name for e in ENTRIES])
def test_public_example_runs_on_every_backend(entry, backend, request):
    """A public name's docstring example prints the same on every backend selected
    (``--ivy-like-backends``), that one active. It is skipped where it imports a module that is
    not installed, and on a backend that lacks what it needs (its ``NotImplementedError``:
    automatic differentiation on numpy, forward mode on mxnet). pytest's ``--doctest-modules``
    runs the same examples on the default backend."""
    reason = _EXAMPLE_XFAIL.get((entry.name, backend.name))
    if reason is not None:
        request.applymarker(pytest.mark.xfail(reason=reason, strict=True))
    example = api_docs.examples(entry.doc)
    if ">>>" not in example:
        pytest.fail(f"{entry.name} has no example", pytrace=False)
    globs: dict[str, object] = {"__name__": "__main__"}
    test = doctest.DocTestParser().get_doctest(example, globs, entry.name, entry.source, 0)
    runner = _Runner(
        checker=_NumberChecker(), optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
    )
    report = io.StringIO()
    runner.run(test, out=report.write)
    if runner.first == "error":
        missing = _missing_module(runner.error)
        if missing:
            pytest.skip(f"the example needs {missing}, not installed")
        if isinstance(runner.error, NotImplementedError):
            pytest.skip(f"{backend.name} lacks what the example needs: {runner.error}")
    assert not runner.failures, f"on {backend.name}:\n{report.getvalue()}"


# -- the site build -----------------------------------------------------------------------------
def _mkdocs():
    if find_spec("mkdocs") is None:
        pytest.skip("mkdocs is not installed (pip install -e '.[docs]'): the site is not built")
    from mkdocs.commands.build import build
    from mkdocs.config import load_config
    from mkdocs.exceptions import Abort

    return load_config, build, Abort


def _site_config(tmp_path, docs_dir: Path) -> Path:
    """mkdocs.yml with the docs and site directories moved under tmp_path."""
    text = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    text = text.replace("docs_dir: docs", f"docs_dir: {docs_dir}")
    text = text.replace("site_dir: site", f"site_dir: {tmp_path / 'site'}")
    text = text.replace(
        "- ivy_like/devtools/api_docs.py", f"- {ROOT / 'ivy_like/devtools/api_docs.py'}"
    )
    text = text.replace("custom_dir: docs/templates", f"custom_dir: {DOCS / 'templates'}")
    path = tmp_path / "mkdocs.yml"
    path.write_text(text, encoding="utf-8")
    return path


def test_the_site_builds(tmp_path):
    load_config, build, _ = _mkdocs()
    config = _site_config(tmp_path, DOCS)
    build(load_config(str(config)))
    site = tmp_path / "site"
    assert (site / "index.html").is_file() and (site / "api" / "index.html").is_file()
    for spec in OPS.values():
        html = (site / "api" / f"{spec.family}.html").read_text(encoding="utf-8")
        assert f'id="{api_docs.op_key(spec)}"' in html
    for entry in ENTRIES:
        html = (site / "api" / f"{entry.area}.html").read_text(encoding="utf-8")
        assert f'id="{entry.anchor}"' in html, entry.name
    assert (site / "benchmarks.html").is_file() and (site / "support.html").is_file()
    pages = sorted(site.rglob("*.html"))
    # Offline: no script or stylesheet from another server; code highlighted when built.
    external = re.compile(r"<(?:script|link)\b[^>]*\b(?:src|href)=\"(?:https?:)?//")
    assert [p.name for p in pages if external.search(p.read_text(encoding="utf-8"))] == []
    assert (site / "css" / "pygments.css").is_file() and (site / "css" / "site.css").is_file()
    assert '<div class="highlight"><pre>' in (site / "gradients.html").read_text("utf-8")
    # One navigation entry per support table, each with its own title.
    home = (site / "index.html").read_text(encoding="utf-8")
    tables = re.findall(
        r'<a class="reference internal" href="(support[\w-]*\.html)">([^<]+)<', home
    )
    assert sorted(href for href, _ in tables) == sorted(
        f"{p.stem}.html" for p in DOCS.glob("support*.md")
    )
    assert len({title for _, title in tables}) == len(tables), tables
    # The 404 page, served for a missing URL at any depth under any sub-path: links relative
    # to the site's root, which its script finds and makes the base.
    page = (site / "404.html").read_text(encoding="utf-8")
    assert 'href="/' not in page and 'src="/' not in page
    assert "document.write('<base href=\"' + root + '\">')" in page
    for url in re.findall(r'(?:href|src)="\./([^"#]+)"', page):
        assert (site / url).is_file(), url


# Every optional framework and the test tools, as `nox -s docs` lacks them (it installs the
# `docs` extra: numpy and the site's tools).
_NOT_IN_THE_DOCS_BUILD = (*OPTIONAL, "jaxlib", "transformers", "hypothesis", "pytest")


def test_the_site_builds_with_numpy_alone(tmp_path):
    """What `nox -s docs` does, with every optional framework hidden as if not installed (a
    None in sys.modules makes `import torch` fail and find_spec say it is absent): a reference
    check or a generator that imports a framework fails here, not only in a fresh clone."""
    _mkdocs()
    config = _site_config(tmp_path, DOCS)
    script = (
        "import sys\n"
        f"for name in {_NOT_IN_THE_DOCS_BUILD!r}:\n"
        "    sys.modules[name] = None\n"
        "from mkdocs.commands.build import build\n"
        "from mkdocs.config import load_config\n"
        f"build(load_config({str(config)!r}))\n"
    )
    done = _python(["-c", script], timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    assert (tmp_path / "site" / "api" / "index.html").is_file()


@pytest.mark.parametrize(
    "text, fails",
    [
        ("[ok](support.md), [ok](api/general.md#stop_gradient), `ivy_like.nn.Linear`", False),
        ("[the guide](no_such_page.md)", True),  # a broken link
        ("[stop_gradient](api/general.md#no_such_anchor)", True),  # a broken anchor
        ("`ivy_like.no_such_function`", True),  # a reference to a missing name
    ],
    ids=["control", "broken-link", "broken-anchor", "missing-name"],
)
def test_the_build_fails_on_a_broken_link_or_a_missing_name(tmp_path, text, fails):
    load_config, build, Abort = _mkdocs()
    docs = tmp_path / "docs"
    shutil.copytree(DOCS, docs)  # the support tables, and the guides docstrings link to
    (docs / "index.md").write_text(f"# Home\n\n{text}\n", encoding="utf-8")
    config = load_config(str(_site_config(tmp_path, docs)))
    if not fails:
        build(config)
        return
    with pytest.raises(Abort, match="strict mode"):
        build(config)
