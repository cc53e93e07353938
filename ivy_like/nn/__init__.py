"""ivy_like.nn: portable layers, models and their functional ops.

* functional ops (``linear``, ``conv2d``, ``relu``, ``cross_entropy``, ...): declared once in
  ``ivy_like/ops/nn.py``; the package build adds them to this module and to ``__all__``;
* layers (``Linear``, ``Conv2d``, ``ReLU``, ...): configuration objects with
  ``init(key) -> Container`` and ``apply(params, x)`` (:mod:`ivy_like.nn.layers`);
* models (``Sequential``, ``MLP``, ``SmallCNN``, ``TransformerBlock``): ``m.params``,
  ``m.apply(params, x)``, ``m(x)`` (:mod:`ivy_like.nn.models`).

See ``docs/nn.md``.
"""

__all__: list[str] = []

# This module is first imported while ivy_like builds its ops (to publish the nn functions), so
# the modules below must not touch ivy_like attributes at import time; they only do at call time.
from . import layers as layers  # noqa: E402
from . import models as models  # noqa: E402
from .layers import *  # noqa: E402,F403
from .models import *  # noqa: E402,F403

__all__ += layers.__all__ + models.__all__
