"""An operand that is neither a tensor nor a number raises PyTorch's TypeError (it used to give nan)."""
import pytest

import minigrad

# The recorded messages below are PyTorch 2.13's; with torch installed each case is compared live too.

CASES = {
    "x * None": (lambda T: T.ones(2) * None, "unsupported operand type(s) for *: 'Tensor' and 'NoneType'"),
    "None * x": (lambda T: None * T.ones(2), "unsupported operand type(s) for *: 'NoneType' and 'Tensor'"),
    "x + None": (lambda T: T.ones(2) + None, "unsupported operand type(s) for +: 'Tensor' and 'NoneType'"),
    "x + 'a'": (lambda T: T.ones(2) + "a", "unsupported operand type(s) for +: 'Tensor' and 'str'"),
    "x - None": (lambda T: T.ones(2) - None, "unsupported operand type(s) for -: 'Tensor' and 'NoneType'"),
    "None - x": (lambda T: None - T.ones(2), "unsupported operand type(s) for -: 'NoneType' and 'Tensor'"),
    "x / None": (lambda T: T.ones(2) / None, "unsupported operand type(s) for /: 'Tensor' and 'NoneType'"),
    "x ** None": (lambda T: T.ones(2) ** None, "unsupported operand type(s) for ** or pow(): 'Tensor' and 'NoneType'"),
    "x @ None": (lambda T: T.ones(2) @ None, "unsupported operand type(s) for @: 'Tensor' and 'NoneType'"),
    "x.add(None)": (lambda T: T.ones(2).add(None), "add(): argument 'other' (position 1) must be Tensor, not NoneType"),
    "x.sub('a')": (lambda T: T.ones(2).sub("a"), "sub(): argument 'other' (position 1) must be Tensor, not str"),
    "x.mul(None)": (lambda T: T.ones(2).mul(None), "mul(): argument 'other' (position 1) must be Tensor, not NoneType"),
    "x.div(None)": (lambda T: T.ones(2).div(None), "div(): argument 'other' (position 1) must be Tensor, not NoneType"),
}


def message(fn, T):
    with pytest.raises(TypeError) as e:
        fn(T)
    return str(e.value)


@pytest.mark.parametrize("case", CASES)
def test_a_bad_operand_raises_pytorchs_type_error(case):
    fn, recorded = CASES[case]
    assert message(fn, minigrad) == recorded
    try:
        import torch
    except ImportError:
        return
    assert message(fn, torch) == recorded


def test_numbers_and_tensors_still_work():
    x = minigrad.ones(2, requires_grad=True)
    y = (x * 2 + 1 - 0.5) / 2 ** x + (2 - x) * x.mul(3) + True
    y.sum().backward()
    assert y.grad_fn.name() == "AddBackward0" and x.grad.shape == (2,)
