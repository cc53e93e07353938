"""PyTorch <-> ivy_like: ``torch.nn`` layers, captured graphs and ``state_dict`` weights.

``api.py`` holds the entry points (``from_torch``, ``to_torch``, ``from_state_dict``,
``to_state_dict``); ``layers.py`` the table of ``torch.nn`` layers a ``Sequential`` converts
through; ``capture.py`` turns any module, captured by ``torch.export``, into one generated
function whose nodes call the ATen op table in ``aten/``; ``graph_model.py`` is the
``GraphModel`` that runs it. Importing this package imports nothing: only ``api.py`` and
``layers.py`` import torch, and only when a conversion is asked for through
``ivy_like.convert``.
"""
