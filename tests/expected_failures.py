"""The tests expected to fail on a backend, because they call an op the backend declares
unsupported (an ``UNSUPPORTED`` entry of the backend's package, with its reason).

Each entry maps a test's node id, without the backend's parameter (``*`` stands for any
characters, e.g. the other parameters), to the op it fails on; ``tests/conftest.py`` marks the test on that
backend ``xfail(raises=NotImplementedError, strict=True)`` with the backend's own reason. So a
test that starts passing (the backend gained the op) is reported, and an op added to a
backend's unsupported list fails every test that calls it until the test is listed here. An
entry whose op the backend no longer declares unsupported is an error at collection.
"""

from __future__ import annotations

import re

import ivy_like

_LINALG_FFT = "tests/array_api/test_linalg_fft.py::"
_EIG = "tests/ops/test_linalg_eig.py::"
_RANDOM = "tests/test_random.py::"
# Not an op: ivy_like.random's source="native" on a backend without a table of its own
# generators; the reason is the one ivy_like.random gives.
NATIVE_RANDOM = "ivy_like.random source='native'"
_COMPLEX_1D = ("fft", "ifft", "irfft", "hfft")

# backend -> {test node id pattern (without "[...-backend]"'s backend): the op it fails on}
EXPECTED_FAILURES: dict[str, dict[str, str]] = {
    # MXNet 1.9 has no complex dtype and no FFT on the CPU; fftfreq and the shifts remain.
    "mxnet": {
        _LINALG_FFT + "test_entry_points": "fft_rfft",
        **{_LINALG_FFT + f"test_complex_input_1d[{n}]": f"fft_{n}" for n in _COMPLEX_1D},
        **{_LINALG_FFT + f"test_real_input_1d[{n}]": f"fft_{n}" for n in ("fft", "rfft", "ihfft")},
        **{_LINALG_FFT + f"test_nd[{n}]": f"fft_{n}" for n in ("fftn", "ifftn", "rfftn")},
        _LINALG_FFT + "test_irfftn_round_trip": "fft_irfftn",
        _LINALG_FFT + "test_fft_rules": "fft_fft",
        _LINALG_FFT + "test_fft_float64": "fft_fft",
        # Nor eig/eigvals, whose results are complex.
        _LINALG_FFT + "test_eig_and_eigvals": "linalg_eig",
        _LINALG_FFT + "test_decompositions_reject_integers[eig]": "linalg_eig",
        _LINALG_FFT + "test_decompositions_reject_integers[eigvals]": "linalg_eigvals",
        _EIG + "test_eig_and_eigvals_of_float32_matrices[*]": "linalg_eig",
        _EIG + "test_a_stack_of_matrices": "linalg_eig",
        _EIG + "test_results_are_complex_of_the_inputs_precision[*]": "linalg_eigvals",
        _EIG + "test_half_precision_is_computed_in_float32[*]": "linalg_eig",
        _EIG + "test_decided_errors[eig]": "linalg_eig",
        _EIG + "test_decided_errors[eigvals]": "linalg_eigvals",
        "tests/ops/test_empty_inputs.py::test_empty_input_gets_numpys_answer[linalg.eig]": "linalg_eig",
        "tests/ops/test_empty_inputs.py::test_empty_input_gets_numpys_answer[linalg.eigvals]": (
            "linalg_eigvals"
        ),
        _EIG + "test_entry_points": "linalg_eig",
        _EIG + "test_gradients_match_finite_differences[eigvals-*]": "linalg_eigvals",
        _EIG + "test_gradients_match_finite_differences[eig_*]": "linalg_eig",
        # MXNet's generators are seeded globally, so a per-call seed cannot reach them.
        **{
            _RANDOM + f"{test}[*native]": NATIVE_RANDOM
            for test in (
                "test_same_seed_same_numbers_other_seed_other_numbers",
                "test_ranges_and_distributions",
                "test_float_dtypes",
                "test_int_dtypes",
            )
        },
    },
}


def _without_backend(nodeid: str, backend: str) -> str:
    """``nodeid`` with the backend's parameter id taken out of its brackets."""
    if "[" not in nodeid:
        return nodeid
    head, params = nodeid[:-1].split("[", 1)
    ids = [p for p in params.split("-") if p != backend]
    return f"{head}[{'-'.join(ids)}]" if ids else head


def expected_failure(nodeid: str, backend: str, unsupported: dict[str, str]) -> str | None:
    """The reason ``nodeid`` is expected to fail on ``backend`` (whose unsupported ops and
    reasons are ``unsupported``), or None."""
    entries = EXPECTED_FAILURES.get(backend)
    if not entries:
        return None
    test = _without_backend(nodeid, backend)
    for pattern, op in entries.items():
        if re.fullmatch(re.escape(pattern).replace(r"\*", ".*"), test):
            if op == NATIVE_RANDOM:
                return _native_random_refused(pattern, backend)
            if op not in unsupported:
                raise ValueError(
                    f"tests/expected_failures.py: {pattern} on {backend} names {op}, which the "
                    f"{backend} backend does not declare unsupported: remove the entry"
                )
            return f"{op} is not supported on the {backend} backend: {unsupported[op]}"
    return None


def _native_random_refused(pattern: str, backend: str) -> str:
    no_native = ivy_like.random._NO_NATIVE
    if backend not in no_native:
        raise ValueError(
            f"tests/expected_failures.py: {pattern} on {backend}: ivy_like.random no longer "
            f"refuses source='native' there: remove the entry"
        )
    return f"source='native' is not supported on the {backend} backend: {no_native[backend]}"
