"""The ``.pyi`` stubs: in step with the registry, and what mypy makes of user code with them.

The stubs are generated (``python -m ivy_like stubs``) and kept in the tree so that type
checkers see the API ivy_like builds at import; a stub left behind after an op or a class
changed would type the old API, so a stale one fails here.
"""

from __future__ import annotations

import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from ivy_like.devtools import stubs

ROOT = Path(__file__).resolve().parents[2]
ARRAY = "ivy_like.core.array.Array"
CONTAINER = "ivy_like.container._container.Container"


def test_stubs_on_disk_are_the_generated_ones():
    stale = stubs.stale()
    assert not stale, f"stale stubs {stale}: run `python -m ivy_like stubs`"


def test_stale_names_missing_and_changed_files(tmp_path):
    files = stubs.generate()
    for path, text in files.items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(text)
    assert stubs.stale(tmp_path, files) == []
    changed, missing = sorted(files)[:2]
    (tmp_path / changed).write_text("# old\n")
    (tmp_path / missing).unlink()
    assert sorted(stubs.stale(tmp_path, files)) == [changed, missing]


# A user's code; each ``reveal_type`` line ends with a comment naming what mypy must say.
SNIPPET = """
import numpy as np
import ivy_like

x = ivy_like.array([1.0, 2.0])
y = ivy_like.asarray([3.0, 4.0])
n = np.ones(3)
c = ivy_like.Container(w=x)
reveal_type(ivy_like.add(x, y))  # add
reveal_type(ivy_like.exp(n))  # exp numpy
reveal_type(x.add(y))  # method
reveal_type(x + y)  # operator
reveal_type(2.0 * x)  # reflected operator
reveal_type(ivy_like.linalg.inv(x))  # linalg
reveal_type(ivy_like.linalg.qr(x))  # two outputs
reveal_type(c.exp())  # container method
reveal_type(c + x)  # container operator
reveal_type(ivy_like.multiply(c, 2.0))  # container function
ivy_like.exp(x, outt=None)  # unknown keyword
"""

EXPECTED = {
    "add": ARRAY,
    "method": ARRAY,
    "operator": ARRAY,
    "reflected operator": ARRAY,
    "linalg": ARRAY,
    "two outputs": f"tuple[{ARRAY}, {ARRAY}]",
    "container method": CONTAINER,
    "container operator": CONTAINER,
    "container function": CONTAINER,
}


def test_mypy_sees_the_types_of_the_generated_api(tmp_path):
    pytest.importorskip("mypy", reason="mypy is not installed (it is in the test extra)")
    snippet = tmp_path / "user_code.py"
    snippet.write_text(textwrap.dedent(SNIPPET))
    labels = {
        i: line.rpartition("# ")[2]
        for i, line in enumerate(snippet.read_text().splitlines(), 1)
        if "# " in line
    }
    # From the repository root, where mypy finds this ivy_like (an editable install's import
    # hook is invisible to it); the package's own errors are not this test's concern.
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", str(ROOT / "pyproject.toml"),
         "--cache-dir", str(tmp_path / "cache"), "--follow-imports", "silent",
         "--no-error-summary", str(snippet)],
        cwd=ROOT, capture_output=True, text=True, timeout=600, check=False,
    )  # fmt: skip
    said: dict[str, list[str]] = {}
    for line in done.stdout.splitlines():
        match = re.match(r".*user_code\.py:(\d+): (\w+): (.*)", line)
        if match and int(match[1]) in labels:
            said.setdefault(labels[int(match[1])], []).append(f"{match[2]}: {match[3]}")
    for label, expected in EXPECTED.items():
        assert said.get(label) == [f'note: Revealed type is "{expected}"'], (label, done.stdout)
    # NumPy in, NumPy out (its shape and dtype parameters as NumPy's stubs infer them).
    (numpy_note,) = said["exp numpy"]
    assert numpy_note.startswith('note: Revealed type is "numpy.ndarray['), done.stdout
    errors = [s for s in said["unknown keyword"] if s.startswith("error:")]
    assert errors and 'Unexpected keyword argument "outt"' in errors[0], done.stdout
    # Nothing else in the user's code is an error.
    assert done.stdout.count("user_code.py") == sum(map(len, said.values())), done.stdout
