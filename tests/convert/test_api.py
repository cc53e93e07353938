"""The public surface of ivy_like.convert: documented with examples, and cheap to import."""

import inspect
import subprocess
import sys

import pytest

import ivy_like.convert as convert


@pytest.mark.parametrize("name", convert.__all__)
def test_every_public_name_has_a_runnable_example(name):
    obj = getattr(convert, name)
    doc = inspect.getdoc(obj) or ""
    assert "Examples" in doc and ">>> " in doc, f"{name} has no example"
    assert name in dir(convert)


def test_importing_convert_imports_no_framework():
    code = (
        "import sys, ivy_like.convert as c; c.flax_flatten; c.to_backend; c.Permute;"
        "print(sorted({m.split('.')[0] for m in sys.modules} &"
        " {'torch', 'jax', 'tensorflow', 'keras', 'flax', 'mlx'}))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_unknown_names_are_attribute_errors():
    with pytest.raises(AttributeError, match="no attribute 'from_mxnet'"):
        convert.from_mxnet  # noqa: B018
