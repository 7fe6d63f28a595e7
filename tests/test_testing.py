"""``minigrad.testing.assert_close``: what passes and each failure's message, as torch 2.13 gives them (recorded
from torch with its module's name replaced)."""
import numpy as np
import pytest

import minigrad
from minigrad import testing

CASES = [  # (the call, None if it passes, else (the exception's type, its message))
    ('testing.assert_close(minigrad.tensor([1., 2., 3.]), minigrad.tensor([1., 2., 3.1]))',
     ('AssertionError', 'Tensor-likes are not close!\n\nMismatched elements: 1 / 3 (33.3%)\nGreatest absolute difference: 0.09999990463256836 at index (2,) (up to 1e-05 allowed)\nGreatest relative difference: 0.032258033752441406 at index (2,) (up to 1.3e-06 allowed)')),
    ('testing.assert_close(minigrad.tensor([1., 2., 3.]), minigrad.tensor([1., 2., 3.000001]))',
     None),
    ('testing.assert_close(minigrad.tensor([1., 2., 3.]), minigrad.tensor([1., 2., 3.], dtype=minigrad.float64))',
     ('AssertionError', "The values for attribute 'dtype' do not match: minigrad.float32 != minigrad.float64.")),
    ('testing.assert_close(minigrad.tensor([1., 2., 3.]), minigrad.tensor([1., 2.]))',
     ('AssertionError', "The values for attribute 'shape' do not match: minigrad.Size([3]) != minigrad.Size([2]).")),
    ("testing.assert_close(minigrad.tensor([[1., float('nan')]]), minigrad.tensor([[1., float('nan')]]))",
     ('AssertionError', 'Tensor-likes are not close!\n\nMismatched elements: 1 / 2 (50.0%)\nGreatest absolute difference: nan at index (0, 1) (up to 1e-05 allowed)\nGreatest relative difference: nan at index (0, 1) (up to 1.3e-06 allowed)')),
    ("testing.assert_close(minigrad.tensor([[1., float('nan')]]), minigrad.tensor([[1., float('nan')]]), equal_nan=True)",
     None),
    ('testing.assert_close(minigrad.tensor([1, 2]), minigrad.tensor([1, 3]))',
     ('AssertionError', 'Tensor-likes are not equal!\n\nMismatched elements: 1 / 2 (50.0%)\nGreatest absolute difference: 1 at index (1,)\nGreatest relative difference: 0.3333333432674408 at index (1,)')),
    ('testing.assert_close(minigrad.tensor([True]), minigrad.tensor([False]))',
     ('AssertionError', 'Tensor-likes are not equal!\n\nMismatched elements: 1 / 1 (100.0%)\nGreatest absolute difference: 1 at index (0,)\nGreatest relative difference: inf at index (0,)')),
    ('testing.assert_close(1.0, 1.1)',
     ('AssertionError', 'Scalars are not close!\n\nExpected 1.1 but got 1.0.\nAbsolute difference: 0.10000000000000009 (up to 1e-07 allowed)\nRelative difference: 0.09090909090909098 (up to 1e-07 allowed)')),
    ('testing.assert_close(minigrad.tensor(1.0), 1.0)',
     ('TypeError', "No comparison pair was able to handle inputs of type <class 'minigrad.Tensor'> and <class 'float'>.")),
    ('testing.assert_close([minigrad.tensor(1.0)], [minigrad.tensor(1.5)])',
     ('AssertionError', 'Scalars are not close!\n\nExpected 1.5 but got 1.0.\nAbsolute difference: 0.5 (up to 1e-05 allowed)\nRelative difference: 0.3333333333333333 (up to 1.3e-06 allowed)\n\nThe failure occurred for item [0]')),
    ('testing.assert_close({"a": minigrad.tensor(1.0)}, {"a": minigrad.tensor(1.5)})',
     ('AssertionError', "Scalars are not close!\n\nExpected 1.5 but got 1.0.\nAbsolute difference: 0.5 (up to 1e-05 allowed)\nRelative difference: 0.3333333333333333 (up to 1.3e-06 allowed)\n\nThe failure occurred for item ['a']")),
    ('testing.assert_close(minigrad.tensor([1., 2.]), minigrad.tensor([1.1, 2.]), rtol=0.2, atol=0)',
     None),
    ('testing.assert_close(minigrad.tensor([1., 2.]), minigrad.tensor([1.1, 2.]), rtol=0.01)',
     ('ValueError', "Both 'rtol' and 'atol' must be either specified or omitted, but got no atol.")),
    ('testing.assert_close(minigrad.tensor([1., 2.], requires_grad=True), minigrad.tensor([1., 2.]))',
     None),
    ('testing.assert_close(minigrad.tensor([1., 2.]), minigrad.tensor([1., 2.1]), msg="custom")',
     ('AssertionError', 'custom')),
    ('testing.assert_close(minigrad.tensor([1., 2.]), minigrad.tensor([1., 2.], dtype=minigrad.float64), check_dtype=False)',
     None),
    ('testing.assert_close(minigrad.tensor([[1., 2.],[3,4]]), minigrad.tensor([[1., 2.],[3.5,4.5]]))',
     ('AssertionError', 'Tensor-likes are not close!\n\nMismatched elements: 2 / 4 (50.0%)\nGreatest absolute difference: 0.5 at index (1, 0) (up to 1e-05 allowed)\nGreatest relative difference: 0.1428571492433548 at index (1, 0) (up to 1.3e-06 allowed)')),
    ("testing.assert_close(minigrad.tensor([1., float('inf')]), minigrad.tensor([1., float('inf')]))",
     None),
    ("testing.assert_close(minigrad.tensor([1., float('inf')]), minigrad.tensor([1., -float('inf')]))",
     ('AssertionError', 'Tensor-likes are not close!\n\nMismatched elements: 1 / 2 (50.0%)\nGreatest absolute difference: inf at index (1,) (up to 1e-05 allowed)\nGreatest relative difference: nan at index (1,) (up to 1.3e-06 allowed)')),
    ('testing.assert_close(minigrad.tensor(2.), minigrad.tensor(3.))',
     ('AssertionError', 'Scalars are not close!\n\nExpected 3.0 but got 2.0.\nAbsolute difference: 1.0 (up to 1e-05 allowed)\nRelative difference: 0.3333333333333333 (up to 1.3e-06 allowed)')),
    ('testing.assert_close(minigrad.tensor([0., 1.]), minigrad.tensor([1e-6, 1.]))',
     None),
    ('testing.assert_close(minigrad.tensor([1.], dtype=minigrad.float16), minigrad.tensor([1.001], dtype=minigrad.float16))',
     None),
    ('testing.assert_close(minigrad.ones(2,3).t(), minigrad.ones(3,2), check_stride=True)',
     ('AssertionError', "The values for attribute 'stride()' do not match: (1, 3) != (2, 1).")),
    ('testing.assert_close(minigrad.tensor([1., 2.]), minigrad.tensor([1., 2.]), rtol=1e-3)',
     ('ValueError', "Both 'rtol' and 'atol' must be either specified or omitted, but got no atol.")),
    ('testing.assert_close(1, 2)',
     ('AssertionError', 'Scalars are not equal!\n\nExpected 2 but got 1.\nAbsolute difference: 1\nRelative difference: 0.5')),
    ('testing.assert_close(minigrad.tensor([1.,2.]), [1., 2.])',
     ('TypeError', "No comparison pair was able to handle inputs of type <class 'minigrad.Tensor'> and <class 'list'>.")),
    ('testing.assert_close(np.array([1.,2.]), np.array([1.,2.5]))',
     ('AssertionError', 'Tensor-likes are not close!\n\nMismatched elements: 1 / 2 (50.0%)\nGreatest absolute difference: 0.5 at index (1,) (up to 1e-07 allowed)\nGreatest relative difference: 0.2 at index (1,) (up to 1e-07 allowed)')),
    ('testing.assert_close(minigrad.tensor([1., 2.]), minigrad.tensor([1., 2.5], dtype=minigrad.float64), check_dtype=False)',
     ('AssertionError', 'Tensor-likes are not close!\n\nMismatched elements: 1 / 2 (50.0%)\nGreatest absolute difference: 0.5 at index (1,) (up to 1e-05 allowed)\nGreatest relative difference: 0.2 at index (1,) (up to 1.3e-06 allowed)')),
    ('testing.assert_close(minigrad.tensor([1, 2]), minigrad.tensor([1., 2.5]), check_dtype=False)',
     ('AssertionError', 'Tensor-likes are not close!\n\nMismatched elements: 1 / 2 (50.0%)\nGreatest absolute difference: 0.5 at index (1,) (up to 1e-05 allowed)\nGreatest relative difference: 0.20000000298023224 at index (1,) (up to 1.3e-06 allowed)')),
    ("testing.assert_close(minigrad.tensor([1., float('nan')]), minigrad.tensor([1., 2.]))",
     ('AssertionError', 'Tensor-likes are not close!\n\nMismatched elements: 1 / 2 (50.0%)\nGreatest absolute difference: nan at index (1,) (up to 1e-05 allowed)\nGreatest relative difference: nan at index (1,) (up to 1.3e-06 allowed)')),
    ('testing.assert_close([minigrad.tensor(1.)], [minigrad.tensor(1.), minigrad.tensor(2.)])',
     ('AssertionError', 'The length of the sequences mismatch: 1 != 2')),
    ('testing.assert_close({"a": 1.}, {"b": 1.})',
     ('AssertionError', "The keys of the mappings do not match:\nMissing keys in the actual mapping: ['b']\nAdditional keys in the actual mapping: ['a']")),
    ('testing.assert_close(minigrad.zeros(0), minigrad.zeros(0))',
     None),
    ('testing.assert_close(minigrad.tensor([1.], dtype=minigrad.float16), minigrad.tensor([1.01], dtype=minigrad.float16))',
     ('AssertionError', 'Tensor-likes are not close!\n\nMismatched elements: 1 / 1 (100.0%)\nGreatest absolute difference: 0.009765625 at index (0,) (up to 1e-05 allowed)\nGreatest relative difference: 0.009674072265625 at index (0,) (up to 0.001 allowed)')),
    ('testing.assert_close(minigrad.tensor([[1, 2], [3, 4]]), minigrad.tensor([[1, 2], [3, 7]]))',
     ('AssertionError', 'Tensor-likes are not equal!\n\nMismatched elements: 1 / 4 (25.0%)\nGreatest absolute difference: 3 at index (1, 1)\nGreatest relative difference: 0.4285714328289032 at index (1, 1)')),
    ('testing.assert_close(minigrad.tensor([1., 2.]), minigrad.tensor([1., 2.2]), msg=lambda m: "X " + m)',
     ('AssertionError', 'X Tensor-likes are not close!\n\nMismatched elements: 1 / 2 (50.0%)\nGreatest absolute difference: 0.20000004768371582 at index (1,) (up to 1e-05 allowed)\nGreatest relative difference: 0.09090910851955414 at index (1,) (up to 1.3e-06 allowed)')),
    ('testing.assert_close((minigrad.tensor([1.]), 2.), (minigrad.tensor([1.]), 2.5))',
     ('AssertionError', 'Scalars are not close!\n\nExpected 2.5 but got 2.0.\nAbsolute difference: 0.5 (up to 1e-07 allowed)\nRelative difference: 0.2 (up to 1e-07 allowed)\n\nThe failure occurred for item [1]')),
    ('testing.assert_close(minigrad.tensor([0., 1.]), minigrad.tensor([1e-3, 1.]))',
     ('AssertionError', 'Tensor-likes are not close!\n\nMismatched elements: 1 / 2 (50.0%)\nGreatest absolute difference: 0.0010000000474974513 at index (0,) (up to 1e-05 allowed)\nGreatest relative difference: 1.0 at index (0,) (up to 1.3e-06 allowed)')),
    ('testing.assert_close(minigrad.tensor(5), minigrad.tensor(6))',
     ('AssertionError', 'Scalars are not equal!\n\nExpected 6 but got 5.\nAbsolute difference: 1\nRelative difference: 0.16666666666666666')),
    ('testing.assert_close(minigrad.tensor([1.,2.,3.,4.]).reshape(2,2)[:, 0], minigrad.tensor([1., 3.5]))',
     ('AssertionError', 'Tensor-likes are not close!\n\nMismatched elements: 1 / 2 (50.0%)\nGreatest absolute difference: 0.5 at index (1,) (up to 1e-05 allowed)\nGreatest relative difference: 0.1428571492433548 at index (1,) (up to 1.3e-06 allowed)')),
    ('testing.assert_close(True, False)',
     ('AssertionError', 'Booleans mismatch: True is not False')),
    ('testing.assert_close(2, 2.0)',
     ('AssertionError', "The (d)types do not match: <class 'int'> != <class 'float'>.")),
    ('testing.assert_close(1, 1.5)',
     ('AssertionError', "The (d)types do not match: <class 'int'> != <class 'float'>.")),
    ("testing.assert_close(float('nan'), float('nan'))",
     ('AssertionError', 'Scalars are not close!\n\nExpected nan but got nan.\nAbsolute difference: nan (up to 1e-07 allowed)\nRelative difference: nan (up to 1e-07 allowed)')),
    ("testing.assert_close(float('nan'), float('nan'), equal_nan=True)",
     None),
    ('testing.assert_close(minigrad.tensor([1.,2.]), minigrad.tensor([1.,2.]), rtol=0, atol=0)',
     None),
    ('testing.assert_close(minigrad.tensor([1.,2.]), minigrad.tensor([1.,2.1]), rtol=0, atol=0)',
     ('AssertionError', 'Tensor-likes are not equal!\n\nMismatched elements: 1 / 2 (50.0%)\nGreatest absolute difference: 0.09999990463256836 at index (1,)\nGreatest relative difference: 0.04761900380253792 at index (1,)')),
]


@pytest.mark.parametrize("call, outcome", CASES)
def test_assert_close_passes_or_fails_as_pytorchs(call, outcome):
    if outcome is None:
        eval(call, {"minigrad": minigrad, "testing": testing, "np": np})
        return
    kind, message = outcome
    with pytest.raises({"AssertionError": AssertionError, "ValueError": ValueError, "TypeError": TypeError}[kind]) as e:
        eval(call, {"minigrad": minigrad, "testing": testing, "np": np})
    assert str(e.value) == message


def test_minigrad_testing_is_torch_testing():
    assert minigrad.testing.assert_close is testing.assert_close
