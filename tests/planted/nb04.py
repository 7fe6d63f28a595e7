"""Wrong answers planted in the checks of ``04_custom_function.ipynb`` (see ``__init__.py``)."""
from . import Wrong

_FORWARD = ("import minigrad\n"
            "from minigrad.autograd import Function\n"
            "class MMFunction(Function):\n"
            "    @staticmethod\n"
            "    def forward(ctx, input, weight):\n"
            "        ctx.save_for_backward(input, weight)\n"
            "        return input.mm(weight.t())\n"
            "\n"
            "    @staticmethod\n"
            "    def backward(ctx, grad_output):\n")


def _mm(body):
    """The exercise cell: the given forward, and ``body`` (8 spaces of indent) as backward."""
    return _FORWARD + "".join(f"        {line}\n" for line in body.splitlines())


def _tanh(backward, save="y"):
    """A Tanh whose forward saves ``save`` (the output y, or the input x), with ``backward`` as its body."""
    return ("import minigrad\n"
            "from minigrad.autograd import Function\n"
            "class Tanh(Function):\n"
            "    @staticmethod\n"
            "    def forward(ctx, x):\n"
            "        y = x.tanh()\n"
            f"        ctx.save_for_backward({save})\n"
            "        return y\n"
            "\n"
            "    @staticmethod\n"
            "    def backward(ctx, grad_output):\n"
            + "".join(f"        {line}\n" for line in backward.splitlines()))


WRONG = {
    "nb04.check_q_needs": [
        Wrong("fitted", "q_needs = 'a'",
              "being a tensor is not enough",
              "(True, True): as if every tensor argument needed a gradient"),
        Wrong("common", "q_needs = 'c'",
              "it has an entry for every argument of forward",
              "(True,): one entry per input that requires grad"),
        Wrong("other", "q_needs = 'd'",
              "look at how weight was made",
              "(False, False): as if nothing needed a gradient"),
    ],
    "nb04.check_q_backward_calls": [
        Wrong("fitted", "q_backward_calls = 4",
              "that is the analytical Jacobian built once",
              "one call per output element: the Jacobian alone, without PyTorch's extra checks"),
        Wrong("common", "q_backward_calls = 8",
              "the two zero checks after it call backward too",
              "the Jacobian twice, and no zero checks"),
        Wrong("other", "q_backward_calls = 16",
              "not once per (input, output) pair",
              "one call per Jacobian entry"),
        Wrong("other", "q_backward_calls = 9",
              "one zero check is missing",
              "the Jacobian twice and one zero check"),
    ],
    "nb04.check_mm_backward": [
        Wrong("fitted",
              _mm("input, weight = ctx.saved_tensors\n"
                  "grad_input = grad_weight = None\n"
                  "if ctx.needs_input_grad[1]:\n"
                  "    grad_input = grad_output.mm(weight)\n"
                  "if ctx.needs_input_grad[0]:\n"
                  "    grad_weight = grad_output.t().mm(input)\n"
                  "return grad_input, grad_weight"),
              "backward returned None for weight",
              "the needs_input_grad entries swapped: right when both require grad, as in the notebook's example"),
        Wrong("fitted",
              _mm("input, weight = ctx.saved_tensors\n"
                  "ones = grad_output * 0 + 1\n"
                  "return ones.mm(weight), ones.t().mm(input)"),
              "the gradient for grad_output = all ones (a .sum() loss)",
              "ones instead of grad_output: right for a .sum() loss only"),
        Wrong("common",
              _mm("input, weight = ctx.saved_tensors\n"
                  "return grad_output.mm(weight.t()), grad_output.t().mm(input)"),
              "check the shapes",
              "the weight transposed again in the input's gradient"),
        Wrong("common",
              _mm("input, weight = ctx.saved_tensors\n"
                  "return grad_output.mm(weight), input.t().mm(grad_output)"),
              "the second gradient is for weight and must have weight's shape",
              "the gradient of weight.t(), not of weight"),
        Wrong("common",
              _mm("input, weight = ctx.saved_tensors\n"
                  "return grad_output.t().mm(input), grad_output.mm(weight)"),
              "the first gradient is for input",
              "the two gradients in the wrong order"),
        Wrong("common",
              _mm("input, weight = ctx.saved_tensors\n"
                  "return grad_output.t().mm(input)"),
              "one value per argument of forward",
              "the weight's gradient only"),
        Wrong("common",
              _mm("input, weight = ctx.saved_tensors\n"
                  "if ctx.needs_input_grad[0]:\n"
                  "    grad_input = grad_output.mm(weight)\n"
                  "if ctx.needs_input_grad[1]:\n"
                  "    grad_weight = grad_output.t().mm(input)\n"
                  "return grad_input, grad_weight"),
              "never assigned",
              "no None before the ifs: a skipped gradient is never set"),
        Wrong("common",
              _mm("saved = ctx.saved_tensors\n"
                  "return grad_output.mm(saved), grad_output.t().mm(saved)"),
              "ctx.saved_tensors is a tuple",
              "ctx.saved_tensors used as if it were a tensor"),
        Wrong("other",
              _mm("input, weight = ctx.saved_tensors\n"
                  "noisy = grad_output + minigrad.randn(grad_output.shape, dtype=grad_output.dtype) * 1e-9\n"
                  "return noisy.mm(weight), noisy.t().mm(input)"),
              "got different numbers",
              "random noise far below the tolerance: only gradcheck's second Jacobian tells"),
    ],
    "nb04.check_tanh_function": [
        Wrong("fitted",
              _tanh("y, = ctx.saved_tensors\n"
                    "return minigrad.stack([grad_output[i] * (1 - y[i] * y[i]) for i in range(len(y))])"),
              "fails on a 0-d tensor",
              "row by row: right for vectors and matrices, an error for a 0-d tensor"),
        Wrong("common",
              _tanh("x, = ctx.saved_tensors\n"
                    "return grad_output * (1 - x * x)", save="x"),
              "you used x where the derivative needs tanh(x)",
              "1 - x**2 instead of 1 - tanh(x)**2"),
        Wrong("common",
              _tanh("y, = ctx.saved_tensors\n"
                    "return 1 - y * y"),
              "multiplies it by grad_output",
              "the local derivative without the chain rule"),
        Wrong("common",
              _tanh("y, = ctx.saved_tensors\n"
                    "return grad_output * (1 - y)"),
              "one power is missing",
              "1 - y instead of 1 - y**2"),
        Wrong("common",
              _tanh("y = ctx.saved_tensors\n"
                    "return grad_output * (1 - y * y)"),
              "ctx.saved_tensors is a tuple",
              "the tuple not unpacked (no trailing comma)"),
        Wrong("common",
              _tanh("y, = ctx.saved_tensors\n"
                    "return grad_output * (1 - y * y), grad_output"),
              "exactly one gradient",
              "two gradients for one argument"),
    ],
}
