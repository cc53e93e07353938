"""Developer tooling: the generators of the ``.pyi`` type stubs (``stubs.py``, with the op
signatures in ``stub_signatures.py``), of the documentation site's API reference pages
(``api_docs.py``, also the mkdocs hook; the public names beyond the ops are found by
``public_names.py``) and of the support table (``support.py``). They read
the op registry and the built package; ``import ivy_like`` never imports them: the command line
(``python -m ivy_like stubs | api-docs | support-table``), the docs build and the tests do.
"""
