"""The bottom layer: numpy-only helpers and the fields every tensor has.

minigrad is built in layers, each importing only from the ones below it, as PyTorch is
(``tests/test_layers.py`` checks that no import, at the top of a file or inside a function, closes
a cycle):

1. ``_core``: strides and layouts (``layout.py``) and ``TensorBase``, a tensor's numbers and what
   autograd keeps about it (``tensor_base.py``; PyTorch: c10 and ATen's ``TensorImpl``, seen from
   Python as ``torch._C.TensorBase``). ``_dtype.py``, ``_format.py``, ``devices.py`` and ``random.py``
   (PyTorch's generator, and the samples it draws) beside the package are helpers of this layer too.
2. ``autograd``: grad mode, ``Function`` and its nodes, saved tensors, the engine, ``backward()``
   and ``grad()`` (PyTorch: ``torch/csrc/autograd``).
3. ``ops``: the dispatcher (``dispatch.py``: what every op shares, run once per call, with type promotion
   in ``promotion.py``; PyTorch: its dispatcher and ``TensorIterator``), then every operation as its forward
   and backward; ``creation.py`` (``zeros``, ``cat`` ...) makes tensors the same way (PyTorch: ATen's
   native functions, factory functions among them).
4. ``tensor.py``: ``Tensor``, ``TensorBase`` with its methods, which call the ops (PyTorch:
   ``torch/_tensor.py`` over ``torch._C.TensorBase``). It registers itself with this layer, so
   that the tensors the layers below make are ``Tensor``s.
5. The module-level functions (``functions.py``, ``linalg.py``, ``autograd.functional``), then
   ``nn``, ``optim``, ``utils`` and ``viz``; ``minigrad/__init__.py`` gathers them all.

A lower layer reaches a higher one only by calling a method on an object it was handed: the
engine calls ``grad.sum_to_size(...)``, a backward formula writes ``grad * b``.
"""
