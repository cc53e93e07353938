"""Backend modules, one subpackage per framework, with the same names in each.

Every backend module provides:

* facts: ``NAME``, ``VERSION``, ``ARRAY_TYPES`` (native array types), ``HAS_AUTODIFF``,
  ``MUTABLE_ARRAYS``, ``UNSUPPORTED`` (op name -> reason), ``DTYPES`` (unified dtype ->
  native dtype), ``DEFAULT_FLOAT``, ``DEFAULT_INT``;
* helpers used by the core: ``shape``, ``dtype`` (native dtype), ``device``, ``to_numpy``,
  ``dlpack``, ``dlpack_device``, ``from_dlpack``, ``write_inplace`` (raises ``TypeError`` on
  immutable arrays), ``getitem``, ``setitem`` (returns the updated array), ``is_variable``,
  ``native_device`` (a ``device=`` argument as the framework's device object; ``ValueError``
  for a device the framework or this machine does not have);
* one function per op of the registry (native arrays in, native arrays out; dtype arguments
  already converted to native dtypes), except those listed in ``UNSUPPORTED`` or left to the
  op's composite declaration;
* gradient primitives in ``gradients.py`` (see ``ivy_like/_gradients.py``).

Backends are registered through the ``ivy_like.backends`` entry-point group and imported only
when first used. Nothing here imports a framework.
"""
