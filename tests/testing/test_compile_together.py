"""``compile_together``: each function's part of one shared compilation gives that function's
results, ``check_function(compiled=...)`` takes only a pass from it (a finding is always the
function's own ``compile``'s), and a group that does not compile as its members would alone
gives nothing to use."""

import numpy as np
import pytest
from _broken import X, python_branch

import ivy_like
from ivy_like.testing import assert_close, check_function, compile_together
from ivy_like.testing.pytest_plugin import selected_backends

Y = np.array([[0.5, 2.0, -1.5], [3.0, -0.25, 1.0]], dtype=np.float32)


def _scaled_sum(x, y, scale):
    return ivy_like.sum(x * scale) + y, ivy_like.tanh(y)


def _probe(*leaves):
    return leaves


@pytest.fixture(scope="module")
def compilers(request):
    """The selected backends whose compile traces (NumPy's and MXNet's return the function,
    which is how check_function tells a backend without a compiler)."""
    names = [
        b
        for b in selected_backends(request.config)
        if ivy_like.get_backend(b).compile_leaves(_probe) is not _probe
    ]
    if not names:
        pytest.skip("no selected backend has a compiler")
    return names


def test_each_part_of_a_shared_compile_gives_its_functions_results(compilers):
    calls = [(ivy_like.tanh, (X,)), (_scaled_sum, (X[:2], Y, 3.0))]
    for b in compilers:
        tanh, scaled_sum = compile_together(calls, b)
        assert tanh is not None and scaled_sum is not None, b
        with ivy_like.use_backend(b) as backend:
            # another example than the group's own: the part runs on what it is given
            got = scaled_sum(backend.asarray(X[2:4]), backend.asarray(-Y), 3.0)
            want = _scaled_sum(backend.asarray(X[2:4]), backend.asarray(-Y), 3.0)
            assert_close(got, want)
        report = check_function(_scaled_sum, X[:2], Y, 3.0, backends=[b], checks=["compile"],
                                compiled={b: scaled_sum})  # fmt: skip
        assert report.outcomes[b, "compile"].status == "pass", str(report)


def test_a_shared_compile_that_does_not_pass_leaves_the_finding_to_fs_own(compilers):
    def wrong(x):
        return x * 0.0

    for b in compilers:
        # a correct f: its own compile passes, whatever the shared one gave
        report = check_function(ivy_like.tanh, X, backends=[b], checks=["compile"],
                                compiled={b: wrong})  # fmt: skip
        assert report.outcomes[b, "compile"].status == "pass", str(report)
        # a wrong f: the failure is its own compile's (it cannot trace the branch), not the
        # shared function's difference
        report = check_function(python_branch, X, backends=[b], checks=["compile"],
                                compiled={b: wrong})  # fmt: skip
        outcome = report.outcomes[b, "compile"]
        assert outcome.status == "fail" and "compile(f) raised" in outcome.detail, str(report)


def test_a_group_that_raises_gives_no_parts(compilers):
    for b in compilers:
        assert compile_together([(ivy_like.tanh, (X,)), (python_branch, (X,))], b) == [None] * 2


def test_a_torch_group_that_needs_dynamo_gives_no_parts(compilers):
    """``compile`` on torch hands a graph whose shapes depend on values (nonzero) to
    ``torch.compile``: the group's other functions would not be compiled as they are alone."""
    if "torch" not in compilers:
        pytest.skip("needs torch")
    assert compile_together([(ivy_like.tanh, (X,)), (ivy_like.nonzero, (X,))], "torch") == [
        None,
        None,
    ]
    tanh, abs_ = compile_together([(ivy_like.tanh, (X,)), (ivy_like.abs, (X,))], "torch")
    assert tanh is not None and abs_ is not None


def test_compiled_is_for_example_arguments():
    strategy = pytest.importorskip("hypothesis").strategies.just((X,))
    with pytest.raises(TypeError, match="compiled= is for example arguments"):
        check_function(ivy_like.tanh, strategy=strategy, compiled={"torch": ivy_like.tanh})
