"""``ivy_like.linalg``: the array API linear algebra extension.

Filled at import by ``ivy_like/core/build.py`` from the ops declared with ``namespaces`` including
``"linalg"`` (see ``ivy_like/ops/linalg.py``).
"""

__all__: list[str] = []
