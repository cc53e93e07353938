"""Keras 3 <-> ivy_like: ``Sequential``, functional and subclassed models, and weight lists.

Every path reads a built-in Keras layer through the one table in ``layers.py``: a
``keras.Sequential`` becomes an ``ivy_like.nn.Sequential`` (``api.py``), a functional model a
``KerasGraphModel`` read from its config (``functional.py``), and a subclassed model one traced
from its ``call`` (``trace.py``). ``api.py`` holds the entry points (``from_keras``,
``to_keras``, ``from_keras_weights``, ``to_keras_weights``); ``native.py`` rebuilds a
functional model from its Keras config for ``to_keras``, and ``portable.py`` holds the
saveable Keras model ``to_keras`` gives for every other model. Importing this package imports
Keras and TensorFlow and registers that model's class with Keras, so that
``keras.models.load_model`` finds it; ``import ivy_like.convert`` does not import it.
"""

from . import portable as portable  # registers PortableKerasModel with Keras
