"""``check_function``: each check catches the bug it exists for, on every backend where it
applies, and only that check fails; a backend that agrees is never blamed for another's
difference; correct float32 code passes the finite differences; Hypothesis shrinks a failing
example and the report's code reproduces it."""

from collections.abc import Callable

import numpy as np
import pytest
from _broken import (
    X_WITH_NEGATIVE_ZERO,
    X,
    centred,
    inconsistent_rules,
    misshapen_tangent,
    negative_zero_on,
    python_branch,
    writes_into_its_input,
    wrong_gradient,
)
from hypothesis import settings

import ivy_like
from ivy_like.testing import CHECKS, CheckFailed, CheckReport, check_function
from ivy_like.testing import strategies as S
from ivy_like.testing.pytest_plugin import selected_backends

DERIVATIVES = {"vjp", "jvp", "vjp2", "jvp2"}


@pytest.fixture(scope="module")
def names(request):
    return selected_backends(request.config)


def failing(report: CheckReport) -> dict[str, set[str]]:
    """Each backend's failed checks."""
    found: dict[str, set[str]] = {b: set() for b in report.backends}
    for b, c, _ in report.failures:
        found[b].add(c)
    return found


# MXNet 1.9's scalar ops fail on the 0-d arrays its reductions return ("Operator
# _greater_scalar inferring shapes failed"): a gap of that backend, which the functions
# below that compare or add to a sum run into before any check.
ZERO_D_SCALAR_GAP = {"mxnet"}


def assert_only(report: CheckReport, expected: set[str], where: Callable[[str], bool]) -> None:
    """On each backend where ``where`` holds, exactly the ``expected`` checks that apply
    there fail; elsewhere nothing fails."""
    found = failing(report)
    for b in report.backends:
        applicable = {c for c in report.checks if report.outcomes[b, c].status != "n/a"}
        assert found[b] == (expected & applicable if where(b) else set()), str(report)


def traces(name: str) -> bool:
    """Do this backend's compile and vmap trace (NumPy's compile returns the function and its
    vmap is a loop that runs the Python of f on each example)?"""
    return name != "numpy"


def test_a_wrong_custom_gradient_fails_the_derivative_checks_only(names):
    report = check_function(wrong_gradient, X, backends=names)
    # transpose passes: the two rules are each other's transpose, both twice too large
    assert_only(report, DERIVATIVES, lambda b: ivy_like.get_backend(b).has_autodiff)
    for b in names:  # reverse mode at least, on every backend with autodiff
        assert report.outcomes[b, "vjp"].status == (
            "fail" if ivy_like.get_backend(b).has_autodiff else "n/a"
        )
    for b in names:
        if not ivy_like.get_backend(b).has_autodiff:
            assert report.outcomes[b, "vjp"].detail == f"{b} has no automatic differentiation"
    if any(ivy_like.get_backend(b).has_autodiff for b in names):
        b = next(b for b in names if ivy_like.get_backend(b).has_autodiff)
        o = report.outcomes[b, "vjp"]
        # twice the derivative: cos(0.75) * u * 2 against cos(0.75) * u at element 3
        assert o.where == "(3,)" and "where finite differences give" in o.detail


def test_a_python_branch_on_a_value_fails_compile_and_vmap_only(names):
    names = [b for b in names if b not in ZERO_D_SCALAR_GAP]
    if not any(traces(b) for b in names):
        pytest.skip("needs a backend whose compile and vmap trace")
    report = check_function(python_branch, X, backends=names)
    assert_only(report, {"compile", "vmap"}, traces)
    assert all(report.outcomes[b, "compile"].status == "fail" for b in names if traces(b))
    if "numpy" in names:
        assert report.outcomes["numpy", "compile"].status == "n/a"


def test_a_function_writing_into_its_input_fails_mutation_only(names):
    counts = ivy_like.asarray(np.zeros(3, np.int32))  # an Array: out= rebinds it everywhere
    report = check_function(writes_into_its_input, ivy_like.asarray(X), counts, backends=names)
    assert_only(report, {"mutation"}, lambda b: True)
    assert all(report.outcomes[b, "mutation"].status == "fail" for b in names)
    if "numpy" in names:  # read-only NumPy arrays: the write itself raises
        assert "read-only" in report.outcomes["numpy", "mutation"].detail
    for b in set(names) - {"numpy"}:
        assert report.outcomes[b, "mutation"].where == "argument 1 (0,)"
    assert counts.to_numpy().tolist() == [0, 0, 0]  # the caller's arrays are never passed


def test_a_vmap_rule_reducing_over_the_batch_fails_vmap_only(names):
    report = check_function(centred, X, backends=names)
    assert_only(report, {"vmap"}, lambda b: True)
    assert all(report.outcomes[b, "vmap"].status == "fail" for b in names)
    # the example alone (or three copies of it) would not show it: the batch is distinct
    assert "batch of 3" in report.outcomes[names[0], "vmap"].detail


def test_rules_that_are_not_each_others_transpose_fail_transpose(names):
    # JAX has one custom derivative per function: its jvp rule serves both modes (they agree)
    separate = [b for b in names if ivy_like.get_backend(b).has_autodiff and b != "jax"]
    if not separate:
        pytest.skip("needs a backend that uses each rule for its own mode")
    report = check_function(inconsistent_rules, X, backends=separate)
    # MXNet has reverse mode only: transpose does not apply there
    separate = [b for b in separate if report.outcomes[b, "transpose"].status != "n/a"]
    if not separate:
        pytest.skip("needs a backend with both modes that uses each rule for its own")
    for b in separate:
        assert report.outcomes[b, "transpose"].status == "fail", str(report)
        assert report.outcomes[b, "vjp"].status == "pass"  # the vjp rule is right
        assert report.outcomes[b, "jvp"].status == "fail"  # the jvp rule is not
        assert "not each other's transpose" in report.outcomes[b, "transpose"].detail


def test_a_derivative_rule_of_the_wrong_shape_is_a_failed_cell(names):
    # The rule is used in forward mode; JAX transposes it for reverse mode too, and MLX falls
    # back to differentiating the body.
    forward = [b for b in names if ivy_like.get_backend(b).has_autodiff and b != "mxnet"]
    if not forward:
        pytest.skip("needs a backend with forward mode")
    report = check_function(misshapen_tangent, X, backends=forward, checks=["jvp"])
    for b in forward:
        cell = report.outcomes[b, "jvp"]
        assert cell.status == "fail", str(report)


def test_the_lazy_check_compares_evaluation_at_each_op(monkeypatch):
    """A lazy backend whose results change when each op is evaluated at once fails ``lazy``,
    there only; after the check every kernel is the backend's own again. (NumPy, made to
    look lazy with an 'evaluation' that changes results, stands in for an MLX bug.)"""
    from ivy_like.testing import _engine

    backend = ivy_like.get_backend("numpy")
    before = dict(vars(backend))
    evaluated = []

    def corrupting(result):
        evaluated.append(result)
        if isinstance(result, np.ndarray) and result.dtype.kind == "f":
            result += 1.0  # an evaluation that changes what the graph meant

    monkeypatch.setitem(_engine._LAZY, "numpy", corrupting)
    report = check_function(lambda a: ivy_like.tanh(a) * 2.0, X, backends=["numpy"])
    assert failing(report) == {"numpy": {"lazy"}}, str(report)
    assert "evaluated at once" in report.outcomes["numpy", "lazy"].detail and evaluated
    assert {k: v for k, v in vars(backend).items() if k in before} == before
    monkeypatch.setitem(_engine._LAZY, "numpy", lambda result: None)
    assert check_function(ivy_like.tanh, X, backends=["numpy"], checks=["lazy"]).ok


def test_one_backend_differing_at_negative_zero_is_the_only_one_blamed(names):
    if "torch" not in names or len(names) < 2:
        pytest.skip("needs torch and another backend")
    report = check_function(negative_zero_on("torch"), X_WITH_NEGATIVE_ZERO, backends=names)
    assert failing(report) == {b: ({"agree"} if b == "torch" else set()) for b in names}, str(
        report
    )
    o = report.outcomes["torch", "agree"]
    assert o.where == "(1,)" and o.difference == 1.0


def test_numpy_differing_is_blamed_when_the_others_agree(names):
    # NumPy is the preferred reference, yet when every other backend agrees against it,
    # NumPy alone fails: agreeing backends are never blamed for another's difference.
    if "numpy" not in names or len(names) < 3:
        pytest.skip("needs numpy and two other backends")
    report = check_function(negative_zero_on("numpy"), X_WITH_NEGATIVE_ZERO, backends=names)
    assert failing(report) == {b: ({"agree"} if b == "numpy" else set()) for b in names}, str(
        report
    )
    assert "differs from" in report.outcomes["numpy", "agree"].detail


def softmax_and_norm(x, params):
    """Several arguments (a dict of them), several outputs (a tuple and a dict)."""
    logits = ivy_like.matmul(x, params["w"]) + params["b"]
    # the shift does not change the result: no derivative through it (as jax.nn.softmax)
    shift = ivy_like.stop_gradient(ivy_like.max(logits, axis=-1, keepdims=True))
    e = ivy_like.exp(logits - shift)
    p = e / ivy_like.sum(e, axis=-1, keepdims=True)
    return p, {"norm": ivy_like.sqrt(ivy_like.sum(x * x) + 1.0), "steps": 3}


def test_correct_float32_code_passes_every_check(names):
    rng = np.random.default_rng(1)
    x = rng.standard_normal((2, 3)).astype(np.float32)
    params = {
        "w": rng.standard_normal((3, 4)).astype(np.float32),
        "b": rng.standard_normal(4).astype(np.float32),
    }
    names = [b for b in names if b not in ZERO_D_SCALAR_GAP]
    report = check_function(softmax_and_norm, x, params, backends=names)
    assert report.ok, str(report)


@pytest.mark.parametrize(
    "f, x",
    [
        (lambda x: ivy_like.log(x) * ivy_like.exp(x / 8), [0.01, 0.5, 3.0, 40.0]),  # steep
        (lambda x: 1.0 / x + ivy_like.sqrt(x), [0.02, 1.5, 1e4]),  # 1/x near 0, large x
        (lambda x: ivy_like.sin(1e3 * x), [0.001, 0.002, -0.5]),  # fast oscillation
        (lambda x: ivy_like.abs(x) * x + ivy_like.maximum(x, 0.0), [0.0, -0.0, 1.0, -2.0]),  # kinks
        (lambda x: (x + 4e8) - 4e8 + x * x, [1.5, -2.5]),  # rounding a step cannot resolve
    ],
    ids=["steep", "reciprocal", "oscillating", "kinks", "cancelling"],
)
def test_finite_differences_do_not_flag_correct_float32_code(names, f, x):
    report = check_function(f, np.array(x, np.float32), backends=names, checks=sorted(DERIVATIVES))
    assert report.ok, str(report)


def test_checks_narrow_the_table_and_keep_its_order(names):
    report = check_function(lambda a: a * 2, X, backends=names[:1], checks=["vmap", "agree"])
    assert report.checks == ["agree", "vmap"] and set(report.outcomes) == {
        (names[0], "agree"),
        (names[0], "vmap"),
    }
    with pytest.raises(ValueError, match="unknown check.*'grad'.*the checks are agree"):
        check_function(lambda a: a, X, backends=names[:1], checks=["grad"])
    assert CHECKS[0] == "agree" and len(CHECKS) == 10


def test_a_function_raising_everywhere_is_an_error_not_a_report(names):
    def broken(a):
        raise RuntimeError("not an example")

    with pytest.raises(ValueError, match="raises RuntimeError on every backend"):
        check_function(broken, X, backends=names)


def test_raise_for_failures_carries_the_whole_table(names):
    report = check_function(centred, X, backends=names)
    with pytest.raises(CheckFailed) as info:
        report.raise_for_failures()
    assert info.value.report is report
    message = str(info.value)
    assert all(f"{b} vmap:" in message for b in names)  # every failure, not only the first
    ok = check_function(lambda a: a + 1, X, backends=names[:1])
    assert ok.raise_for_failures() is ok


def test_a_failing_hypothesis_example_is_shrunk_and_printed_as_code(names):
    if "torch" not in names:
        pytest.skip("needs torch")
    backends = ["numpy", "torch"] if "numpy" in names else ["torch"]
    if len(backends) < 2:
        pytest.skip("needs numpy and torch")
    f = negative_zero_on("torch")
    strategy = S.arrays("float32", S.shapes(max_dims=1), backend="numpy", wrap=False, specials=True)
    enough = settings(max_examples=60, deadline=None, database=None, derandomize=True)
    report = check_function(
        f, strategy, backends=backends, checks=["agree", "vmap"], settings=enough
    )
    assert failing(report) == {"numpy": set(), "torch": {"agree"}}, str(report)
    # shrunk to one -0.0, in a 0-d array, the smallest shape
    assert "np.array(-0.0, dtype=np.float32)" in report.reproduce, report.reproduce
    assert "to reproduce the failing example" in str(report)
    namespace = {"negative_zero_on_torch": f}
    code = report.reproduce.replace("from _broken import negative_zero_on_torch\n", "")
    with pytest.raises(CheckFailed) as info:
        exec(code, namespace)
    assert info.value.report.outcomes["torch", "agree"].status == "fail"


def test_strategies_and_examples_mix_and_passing_runs_count_examples(names):
    report = check_function(
        lambda a, k: a * k,
        S.arrays("float32", (3,), backend="numpy", wrap=False),
        2.0,
        backends=names[:1],
        checks=["agree", "vmap", "mutation"],
        settings=settings(max_examples=4, deadline=None, database=None),
    )
    assert report.ok and report.examples == 4 and not report.reproduce, str(report)
