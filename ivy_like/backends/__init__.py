"""Backends: one subpackage per framework, the same files and function names in each.

``backends/<framework>/__init__.py`` says what the backend is and nothing more: facts
(``NAME``, ``VERSION``, ``ARRAY_TYPES``, ``HAS_AUTODIFF``, ``MUTABLE_ARRAYS``, ``DTYPES``
(unified dtype -> native dtype), ``DEFAULT_FLOAT``, ``DEFAULT_INT``, ``UNSUPPORTED`` (op ->
reason)) and the hooks the core calls (``shape``, ``dtype``, ``device``, ``native_device``,
``to_numpy``, ``dlpack``, ``write_inplace``, ``getitem``, ``setitem``, ``is_variable``...).
Beside it, one file per ``ivy_like/ops/`` family (``elementwise.py``, ``linalg.py``...) holds
the kernels of that family's ops, native arrays in and native arrays out, usually aliases of the
framework's functions; an op whose declaration has a composite body needs no kernel.
``gradients.py`` holds the gradient primitives (see ``ivy_like/_gradients.py``). The loader
(:mod:`ivy_like.core.backend`) reads each op from its family's file only, so there are no
``__all__`` lists to keep in step. ``_common/`` holds code that several backends share, written
once with the framework's namespace as a parameter.

Backends are registered through the ``ivy_like.backends`` entry-point group and imported only
when first used. Nothing here imports a framework.
"""
