"""minigrad.viz: see the backward graph, and watch ``backward()`` walk it one node at a time.

- ``draw(loss)``            a picture of the graph (like torchviz's ``make_dot``), see ``draw.py``
- ``BackwardStepper(loss)`` Prev/Next buttons over the engine's real steps, see ``stepper.py``

Both need the ``graphviz`` Python package and Graphviz's ``dot`` program; the stepper also needs
``ipywidgets``.  They are imported only when used, so ``import minigrad`` works without them::

    pip install graphviz ipywidgets
    apt-get install graphviz    # or: brew install graphviz / conda install -c conda-forge graphviz
"""
from .draw import DotNotFoundError, draw
from .stepper import BackwardStepper

__all__ = ["draw", "BackwardStepper", "DotNotFoundError"]
