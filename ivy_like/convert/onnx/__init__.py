"""ONNX in and out: :func:`from_onnx` reads an ONNX model as a portable model, and the
operator handlers it maps nodes with (``ops/``, registered in ``_table.py``).

``api.py`` holds the entry points, ``load.py`` reads a file safely, ``graph.py`` writes an ONNX
graph as one generated ivy_like function and ``backend.py`` is ONNX's backend interface (one
per ivy_like backend), through which ONNX's own test suite runs. Importing this package
imports no framework and not onnx.
"""
