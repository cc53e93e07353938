"""Function transforms written once: ``grad``, ``value_and_grad`` and ``execute_with_gradients``
(``grad.py``); ``vjp``, ``jvp``, ``jac`` and ``hessian`` (``_autodiff.py``); ``vmap``
(``_vmap.py``); ``compile`` and ``checkpoint`` (``_compile.py``); ``custom_function``
(``_custom.py``); ``cond``, ``while_loop``, ``fori_loop`` and ``scan`` (``control_flow.py``).

Each flattens its arguments into native leaves (``tree.py``), hands a function of that flat
list to the backend's own transform (``jax``, ``torch.func``, TensorFlow's tapes and
``tf.function``, MLX; the primitives live in each backend's ``gradients.py``, ``transforms.py``
and ``control_flow.py``) and rebuilds the results in the structures and types that came in.
They compose with each other; the names follow MLX (``jax.lax`` for control flow).
"""

from ._autodiff import hessian, jac, jvp, vjp
from ._compile import checkpoint, compile  # noqa: A004 - MLX's name
from ._custom import custom_function
from ._vmap import vmap
from .control_flow import cond, fori_loop, scan, while_loop
from .grad import NoAutodiffError, execute_with_gradients, grad, value_and_grad

__all__ = [
    "NoAutodiffError",
    "checkpoint",
    "compile",
    "cond",
    "custom_function",
    "execute_with_gradients",
    "fori_loop",
    "grad",
    "hessian",
    "jac",
    "jvp",
    "scan",
    "value_and_grad",
    "vjp",
    "vmap",
    "while_loop",
]
