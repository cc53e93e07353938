"""Flax (linen and nnx) <-> ivy_like: ``Sequential`` models, traced jaxprs and params dicts.

``api.py`` holds the entry points (``from_flax``, ``to_flax``, ``from_flax_params``,
``to_flax_params``) and the linen ``Sequential`` layer table; ``jaxpr_trace.py`` traces any
module to a jaxpr and writes it as one generated function whose equations call the primitive
table in ``primitives.py``; ``jaxpr_model.py`` is the ``JaxprModel`` that runs it. Importing
this package imports nothing: ``api.py`` imports jax and Flax, only when a conversion is asked
for through ``ivy_like.convert``.
"""
