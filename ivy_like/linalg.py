"""``ivy_like.linalg``: the array API linear algebra extension.

Filled at import by ``ivy_like/core/build.py`` from the ops declared with ``namespaces`` including
``"linalg"`` (see ``ivy_like/ops/linalg.py``). ``LinAlgError`` is the error of a singular
matrix given to ``inv`` or ``solve``, the same on every backend.
"""

from .ops.linalg import LinAlgError

__all__: list[str] = ["LinAlgError"]
