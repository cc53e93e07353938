"""``compile_together``: one ``compile`` of several functions, for the ``compile`` checks of
many functions at once (``check_function(..., compiled=...)``).

A compiler has a cost per compilation besides the cost per op: on torch Inductor builds a
graph's kernels as one C++ module (more where library calls split them) with a g++ run of
~0.7 s, most of it the precompiled header and the link against libtorch, whatever the graph.
Compiling the functions of a test suite as one graph pays that once: ``compile`` of a
function returning every function's result, each on its own arguments (no array is shared,
so no kernel of one function is fused with another's).
Each function gets a stand-in for its own ``compile(f)``: the shared compiled function run with
that function's arguments in its place and the others' examples in theirs.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from .. import transforms as _transforms
from ..core import backend as _backend
from ._inputs import Example


def _dynamo_frames(name: str) -> int:
    """The frames torch's Dynamo has compiled so far (0 on the other backends). ``compile``
    on torch hands a graph to Inductor directly, or to ``torch.compile`` when its shapes
    depend on values: a group that went the second way does not test its members as they
    compile alone."""
    if name != "torch":
        return 0
    from torch._dynamo.utils import counters

    return int(counters["frames"]["total"])


def compile_together(
    calls: Sequence[tuple[Callable[..., Any], Sequence[Any]]], backend: str
) -> list[Callable[..., Any] | None]:
    """``compile`` of every ``f`` of ``calls`` (``(f, example_args)`` pairs) on ``backend``,
    traced and compiled once for all of them, on their example arguments.

    Returns, for each ``f``, a function that stands in for ``compile(f)`` (called with ``f``'s
    arguments, it returns ``f``'s result as the shared compiled function computes it); or
    ``None`` for every ``f`` when the group does not compile as its members would alone (it
    raises, or on torch it needs Dynamo): then each is compiled on its own.

    Examples
    --------
    >>> import numpy as np
    >>> import ivy_like
    >>> from ivy_like.testing import check_function, compile_together
    >>> x = np.array([0.5, -1.0], dtype=np.float32)
    >>> calls = [(ivy_like.tanh, (x,)), (ivy_like.abs, (x,))]
    >>> tanh_c, abs_c = compile_together(calls, "numpy")
    >>> check_function(ivy_like.abs, x, backends=["numpy"], compiled={"numpy": abs_c}).ok
    True
    """
    b = _backend.get_backend(backend)
    functions = [f for f, _ in calls]
    examples = [Example.of(tuple(args)) for _, args in calls]
    bounds = np.cumsum([0] + [len(e.template) for e in examples]).tolist()

    def together(*flat: Any) -> tuple[Any, ...]:
        return tuple(f(*flat[i:j]) for f, i, j in zip(functions, bounds, bounds[1:]))

    compiled = _transforms.compile(together)

    def member(k: int, args: Sequence[Any]) -> Any:
        flat: list[Any] = []
        for m, example in enumerate(examples):  # fresh arguments: f may write into them
            flat.extend(args if m == k else example.args(b))
        return compiled(*flat)[k]

    frames = _dynamo_frames(b.name)
    try:
        with _backend.use_backend(b), np.errstate(all="ignore"):
            member(0, examples[0].args(b))  # the one trace and compilation
    except Exception:  # noqa: BLE001 - whose error it is, each one's own compile says
        return [None] * len(calls)
    if _dynamo_frames(b.name) != frames:
        return [None] * len(calls)
    return [lambda *args, k=k: member(k, args) for k in range(len(calls))]
