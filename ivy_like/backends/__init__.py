"""Backends: one subpackage per framework, the same files and function names in each.

``backends/<framework>/__init__.py`` says what the backend is and nothing more: facts
(``NAME``, ``VERSION``, ``ARRAY_TYPES``, ``HAS_AUTODIFF``, ``MUTABLE_ARRAYS``, ``DTYPES``
(unified dtype -> native dtype), ``DEFAULT_FLOAT``, ``DEFAULT_INT``, ``UNSUPPORTED`` (op ->
reason), optionally ``IS_TRACING`` (a function, true while the framework's compiler traces
Python that cannot read a ``ContextVar``, as torch's Dynamo)) and the hooks the core calls (``shape``, ``dtype``, ``device``, ``native_device``,
``to_numpy``, ``dlpack``, ``write_inplace``, ``getitem``, ``setitem``, ``is_variable``...).
Beside it, one file per ``ivy_like/ops/`` family (``elementwise.py``, ``linalg.py``...) holds
the kernels of that family's ops, native arrays in and native arrays out, usually aliases of the
framework's functions; an op whose declaration has a composite body needs no kernel.
``gradients.py`` holds the gradient primitives (see ``ivy_like/transforms/grad.py``) and
``transforms.py`` the transform primitives (see ``ivy_like/transforms/``), all on flat lists
of native leaves (the frontends flatten Arrays, Containers and nests, check the arguments and
rebuild the results; a backend never sees an ``ivy_like.Array``):

* ``vjp_leaves(f, primals, cotangents_for) -> (outputs, vjps)``: ``f(list) -> list``; call
  ``cotangents_for(outputs)`` after the forward pass for the (checked) cotangent list;
* ``jvp_leaves(f, primals, tangents) -> (outputs, jvps)``;
* ``vmap_leaves(f, leaves, in_axes, axis_size) -> (mapped, unmapped)``: ``f(list) ->
  (mapped, unmapped)``; ``in_axes`` one non-negative int or None per leaf; mapped outputs
  come back with the batch axis first, unmapped ones unbatched (an unmapped output that
  depends on the mapped axis is an error where the framework can tell);
* ``compile_leaves(f)`` and ``checkpoint_leaves(f)``: ``f(*leaves) -> list``, returned
  compiled / recomputed in the backward pass;
* ``custom_function_leaves(f, vjp, jvp, vmap)``: ``f(*leaves) -> list`` with optional rules
  ``vjp(primals, cotangents, outputs) -> list`` (one per primal), ``jvp(primals, tangents)
  -> list`` (one per output) and ``vmap(leaves, axes) -> (outputs, out_axes)``, at least one
  of them given (without rules the frontend uses ``f`` itself); returns the function that uses
  them under every transform.

``control_flow.py`` holds the control-flow primitives of ``ivy_like.cond``, ``while_loop``,
``fori_loop`` and ``scan`` (see ``ivy_like/transforms/control_flow.py``), on flat lists of native leaves
too; the frontend checks every structure, shape and dtype (in the functions it passes, so
the checks run wherever the backend runs or traces them):

* ``cond_leaves(pred, true_f, false_f, operands) -> list``: ``pred`` a Python bool or a
  native 0-d bool array; run or trace both ``f(list) -> list`` (as JAX traces both) and
  return the chosen one's outputs;
* ``while_loop_leaves(cond_f, body_f, init) -> list``: ``cond_f(list)`` gives a Python bool
  or a native 0-d bool array;
* ``fori_loop_leaves(lower, upper, body_f, init) -> list``: the bounds both Python ints or
  both native 0-d integer arrays of one dtype; ``body_f(i, list)`` takes ``i`` as a Python
  int or a native integer array;
* ``scan_leaves(f, init, xs, length, reverse) -> (carry, ys)``: ``f(carry, x) -> (carry,
  y)`` on lists, ``x`` the slices of ``xs`` along axis 0, each ``y`` leaf stacked along a new
  axis 0; ``length`` an int, or None where the leading size is known only when a graph runs.

jax maps them to ``lax``, tensorflow to ``tf.cond``/``tf.while_loop`` in a graph, the other
backends to the Python loops of ``_common/control_flow.py``.

The loader
(:mod:`ivy_like.core.backend`) reads each op from its family's file only, so there are no
``__all__`` lists to keep in step. ``_common/`` holds code that several backends share, written
once with the framework's namespace as a parameter.

Backends are registered through the ``ivy_like.backends`` entry-point group and imported only
when first used. Nothing here imports a framework.
"""
