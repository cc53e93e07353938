"""The nn op family: the functional layers published in ``ivy_like.nn`` (backend functions
``nn_<op>``, in each backend's ``nn.py``). Its files are one family split by what each op is,
as MLX splits ``nn/layers/``: ``activations``, ``linear`` (dense layers and embeddings),
``convolution`` (convolution and pooling), ``normalization``, ``dropout``, ``attention``,
``recurrent``, ``resize``, ``distance`` and ``losses``; ``sizes`` holds no op but the sizes
and pads the composites and the backends' kernels compute alike.

Ops whose declaration has a body are *composites* written with ivy_like ops: they run on every
backend that does not define ``nn_<op>`` and are differentiable wherever the ops they use are.
The backends define natives where a framework kernel matters for speed (``softmax``,
``linear`` on torch, the pooling windows) or is needed at all (``conv1d``/``conv2d``, the exact
``gelu``). An op's argument checks are declared with it (``check=``) and run before the kernel
or the composite, so a bad argument is the same error on every backend; the few ops whose
fast kernels hand every argument they do not take back to the composite check in its body.
"""

from . import (  # noqa: F401
    activations,
    attention,
    convolution,
    distance,
    dropout,
    linear,
    losses,
    normalization,
    recurrent,
    resize,
    sizes,
)
