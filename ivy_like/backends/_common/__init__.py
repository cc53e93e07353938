"""Code that several backends share, written once with the framework's namespace (or the one
call that differs) as a parameter, as array-api-compat's ``common/_aliases.py``: each
``<family>.py`` here holds factories (``tril_for(xp)``...) that return the kernel itself, a
closure, so that a backend binds its op in one line (``tril = _creation.tril_for(np)``) and the
shared code adds no call frame on the call path. Beside the factories, each family file holds
the plain computations its kernels share (fft axes and lengths, take's axis and NumPy's bounds
errors in ``indexing.py``, reduction axes in ``statistical.py``...), and ``half.py`` the
half-precision-in-float32 decorator; an op's argument checks are not here but declared with the
op in ``ivy_like/ops/`` (``@op(check=...)``), and run before any kernel. Nothing here imports a
framework but NumPy.
"""
