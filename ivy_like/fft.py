"""``ivy_like.fft``: the array API FFT extension.

Filled at import by ``ivy_like/core/build.py`` from the ops declared with ``namespaces`` including
``"fft"`` (see ``ivy_like/ops/fft.py``).
"""

__all__: list[str] = []
