"""Wrong answers planted in the checks of ``04b_inside_a_function.ipynb`` (see ``__init__.py``)."""
from . import Wrong


def _function(name, args, forward, backward):
    """A Function class ``name`` with forward(ctx, *args) and backward(ctx, grad_output) bodies."""
    indent = "".join
    return ("import minigrad\n"
            "from minigrad.autograd import Function\n"
            f"class {name}(Function):\n"
            "    @staticmethod\n"
            f"    def forward(ctx, {args}):\n"
            + indent(f"        {line}\n" for line in forward.splitlines())
            + "\n"
            "    @staticmethod\n"
            "    def backward(ctx, grad_output):\n"
            + indent(f"        {line}\n" for line in backward.splitlines()))


def _scale(backward, forward="ctx.factor = factor\nreturn x * factor"):
    return _function("Scale", "x, factor", forward, backward)


_SAVE_NEEDED = ("need_a, need_b = ctx.needs_input_grad\n"
                "ctx.save_for_backward(a if need_b else None, b if need_a else None)\n"
                "return a * b")
_BACKWARD_NEEDED = ("a, b = ctx.saved_tensors\n"
                    "grad_a = grad_output * b if ctx.needs_input_grad[0] else None\n"
                    "grad_b = grad_output * a if ctx.needs_input_grad[1] else None\n"
                    "return grad_a, grad_b")


def _mul(forward=_SAVE_NEEDED, backward=_BACKWARD_NEEDED):
    return _function("Mul", "a, b", forward, backward)


WRONG = {
    "nb04b.check_q_mm_saves": [
        Wrong("fitted", "q_mm_saves = 'a'",
              "Mm does not always save both inputs",
              "a and b: what MMFunction saves, not what Mm saves"),
        Wrong("common", "q_mm_saves = 'c'",
              "made of the other factor",
              "only b: as if a tensor were saved for its own gradient"),
        Wrong("other", "q_mm_saves = 'd'",
              "something must be saved",
              "nothing"),
    ],
    "nb04b.check_scale": [
        Wrong("fitted",
              _scale("return grad_output * 2.5, None"),
              "whatever factor is",
              "the factor of the notebook's example, 2.5, written into backward"),
        Wrong("common",
              _scale("return grad_output * ctx.factor"),
              "forward has two arguments, x and factor",
              "no None for the number"),
        Wrong("common",
              _scale("return grad_output * ctx.factor, grad_output.sum()"),
              "no node can receive a gradient for it",
              "a gradient for the number"),
        Wrong("common",
              _scale("x, factor = ctx.saved_tensors\nreturn grad_output * factor, None",
                     forward="ctx.save_for_backward(x, factor)\nreturn x * factor"),
              "save_for_backward keeps tensors only",
              "the number given to save_for_backward"),
        Wrong("common",
              _scale("return grad_output, None"),
              "the local derivative of x * factor is missing",
              "grad_output passed on unchanged"),
        Wrong("common",
              _scale("return grad_output / ctx.factor, None"),
              "you divided by factor",
              "divided instead of multiplied"),
        Wrong("common",
              _scale("x, = ctx.saved_tensors\nreturn grad_output * x, None",
                     forward="ctx.save_for_backward(x)\nreturn x * factor"),
              "is factor, not x",
              "the derivative of x * factor taken as x"),
        Wrong("other",
              _scale("return grad_output * ctx.scale, None"),
              "backward reads something forward did not keep on ctx",
              "an attribute forward never set"),
    ],
    "nb04b.check_mul": [
        Wrong("fitted",
              _mul(forward="need_a, need_b = ctx.needs_input_grad\n"
                           "ctx.save_for_backward(a if need_b else None, b)\n"
                           "return a * b"),
              "forward saved b, which no wanted gradient needs",
              "b kept always: right whenever a requires grad, the first two cases"),
        Wrong("common",
              _mul(forward="ctx.save_for_backward(a, b)\nreturn a * b"),
              "forward saved a, which no wanted gradient needs",
              "both saved, as in MMFunction"),
        Wrong("common",
              _mul(forward="need_a, need_b = ctx.needs_input_grad\n"
                           "ctx.save_for_backward(a if need_a else None, b if need_b else None)\n"
                           "return a * b"),
              "forward did not save b, but the gradient of a needs it",
              "each tensor saved for its own gradient"),
        Wrong("common",
              _mul(backward="a, b = ctx.saved_tensors\n"
                            "grad_a = grad_output * b if b is not None else None\n"
                            "grad_b = grad_output * a if a is not None else grad_output * 2\n"
                            "return grad_a, grad_b"),
              "backward computed a gradient for b, which does not require grad",
              "a gradient for an input that needs none"),
        Wrong("common",
              _mul(backward="a, b = ctx.saved_tensors\nreturn grad_output * b, grad_output * a"),
              "backward used a saved slot that holds None",
              "both gradients computed, from a slot forward left empty"),
        Wrong("common",
              _mul(forward="ctx.save_for_backward(a, b)\nreturn a * b",
                   backward="a, b = ctx.saved_tensors\n"
                            "grad_a = grad_output * a if ctx.needs_input_grad[0] else None\n"
                            "grad_b = grad_output * b if ctx.needs_input_grad[1] else None\n"
                            "return grad_a, grad_b"),
              "the gradient of a is made of the other input",
              "each gradient made of its own tensor"),
        Wrong("common",
              _mul(backward="a, b = ctx.saved_tensors\n"
                            "grad_a = b if ctx.needs_input_grad[0] else None\n"
                            "grad_b = a if ctx.needs_input_grad[1] else None\n"
                            "return grad_a, grad_b"),
              "that is the local derivative only",
              "no grad_output: the chain rule left out"),
    ],
}
