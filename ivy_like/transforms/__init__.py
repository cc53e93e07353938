"""Function transforms written once: ``vjp``, ``jvp``, ``vmap``, ``compile``, ``checkpoint``,
``custom_function``, ``hessian`` and ``jac``, with MLX's names and semantics.

Each flattens its arguments into native leaves (``_tree``), hands a function of that flat list
to the backend's own transform (``jax``, ``torch.func``, TensorFlow's tapes and
``tf.function``, MLX; the primitives live in each backend's ``gradients.py``) and rebuilds the
results in the structures and types that came in. They compose with each other and with
``grad``/``value_and_grad``.
"""

from ._autodiff import hessian, jac, jvp, vjp
from ._compile import checkpoint, compile  # noqa: A004 - MLX's name
from ._custom import custom_function
from ._vmap import vmap

__all__ = ["checkpoint", "compile", "custom_function", "hessian", "jac", "jvp", "vjp", "vmap"]
