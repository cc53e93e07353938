"""Keras 3 <-> ivy_like: ``Sequential``, functional and subclassed models, and weight lists.

Every path reads a built-in Keras layer through the one table in ``layers.py``: a
``keras.Sequential`` becomes an ``ivy_like.nn.Sequential`` (``api.py``), a functional model a
``KerasGraphModel`` read from its config (``functional.py``), and a subclassed model one traced
from its ``call`` (``trace.py``). ``api.py`` holds the entry points (``from_keras``,
``to_keras``, ``from_keras_weights``, ``to_keras_weights``). Importing this package imports
nothing; the modules import Keras, only when a conversion is asked for through
``ivy_like.convert``.
"""
