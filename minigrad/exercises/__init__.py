"""Checks for the notebooks' exercises: ``from minigrad.exercises import nb01`` then ``nb01.check_...(...)``.

Every check returns a Report (True/False) that prints specific feedback; see ``_check.py``.
"""
