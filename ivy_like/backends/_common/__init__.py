"""Code that several backends share, written once with the framework's namespace (or the one
call that differs) as a parameter, as array-api-compat's ``common/_aliases.py``: each
``<family>.py`` here holds factories (``tril_for(xp)``...) that return the kernel itself, a
closure, so that a backend binds its op in one line (``tril = _creation.tril_for(np)``) and the
shared code adds no call frame on the call path. Nothing here imports a framework.
"""
