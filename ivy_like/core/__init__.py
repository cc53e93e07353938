"""The engine: the op registry, code generation, dispatch, backend loading, decided errors.

Everything a call passes through lives here and nowhere else: :mod:`.registry` holds each op's
declaration and facts, :mod:`.codegen` writes the three variants from them, :mod:`.build`
installs them on the namespace, ``Array`` and ``Container``, :mod:`.dispatch` is the general
path, :mod:`.backend` discovers, loads and activates backends, and :mod:`.decided_errors`
gives one error per mistake on every backend. The core imports no framework, no backend and
no declaration: what it needs it receives as arguments.
"""
