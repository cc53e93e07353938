"""Optimizers written once, on Containers, in the functional style of optax: an optimizer is a
pair of pure functions, ``state = opt.init(params)`` and ``params, state = opt.update(params,
grads, state)``, on any backend, with nothing modified in place (``optimizers.py``: ``sgd``,
``momentum``, ``adam``, ``adamw``, ``rmsprop``, ``adagrad``, ``lion``); an optimizer's ``lr`` may
be a learning-rate schedule (``schedules.py``) and its ``clip`` a gradient clipping function
(``clipping.py``).

.. code-block:: python

    opt = ivy_like.optimizers.adam(1e-3)
    state = opt.init(params)                       # a Container (zeros, a step count)
    params, state = opt.update(params, grads, state)
"""

from ._common import Clip as Clip  # the types of the arguments, importable as before
from ._common import LearningRate as LearningRate
from ._common import Schedule as Schedule
from .clipping import clip_by_global_norm, clip_by_value
from .optimizers import Optimizer, adagrad, adam, adamw, lion, momentum, rmsprop, sgd
from .schedules import (
    constant_schedule,
    cosine_decay_schedule,
    exponential_decay,
    join_schedules,
    linear_schedule,
    warmup_cosine_decay_schedule,
)

__all__ = [
    "Optimizer",
    "adagrad",
    "adam",
    "adamw",
    "clip_by_global_norm",
    "clip_by_value",
    "constant_schedule",
    "cosine_decay_schedule",
    "exponential_decay",
    "join_schedules",
    "lion",
    "linear_schedule",
    "momentum",
    "rmsprop",
    "sgd",
    "warmup_cosine_decay_schedule",
]
