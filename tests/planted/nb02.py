"""Wrong answers planted in the checks of ``02_non_scalar_error.ipynb`` (see ``__init__.py``)."""
from . import Wrong

# a Dual as the notebook's cell has it, with the four lines the student writes: each planted answer changes one
DUAL = (
    "import numpy as np\n"
    "def as_dual(x):\n"
    "    return x if isinstance(x, Dual) else Dual(x, 0.0)\n"
    "class Dual:\n"
    "    def __init__(self, value, tangent):\n"
    "        self.value = value\n"
    "        self.tangent = tangent\n"
    "    def __add__(self, other):\n"
    "        other = as_dual(other)\n"
    "        return Dual(self.value + other.value, self.tangent + other.tangent)\n"
    "    def __mul__(self, other):\n"
    "        other = as_dual(other)\n"
    "        return Dual(self.value * other.value, self.tangent * other.value + self.value * other.tangent)\n"
    "    __radd__ = __add__\n"
    "    __rmul__ = __mul__\n"
    "    def sin(self):\n"
    "        return Dual(np.sin(self.value), np.cos(self.value) * self.tangent)\n"
    "    def exp(self):\n"
    "        return Dual(np.exp(self.value), np.exp(self.value) * self.tangent)\n"
)

WRONG = {
    "nb02.check_q_grad": [
        Wrong("fitted", "q_grad = 3",
              "is not it",
              "A[1, 2] alone: the entry of column 2 read off A as if v were all ones, without the weight 10"),
        Wrong("common", "q_grad = -8",
              "is not it",
              "x.grad[1] (column 1 of A weighted by v), the entry the text works out, not x.grad[2]"),
        Wrong("other", "q_grad = 31",
              "is not it",
              "the sum v[0] + v[1] * A[1, 2]: the weight 1 taken for the factor A[0, 2] = 0"),
    ],
    "nb02.check_q_shape": [
        Wrong("fitted", "q_shape = 'c'",
              "is not it",
              "(4, 3): rows and columns swapped, the shape of J transposed"),
        Wrong("common", "q_shape = 'a'",
              "is not it",
              "(4, 4): as if y had as many elements as x"),
        Wrong("other", "q_shape = 'd'",
              "is not it",
              "(3, 3): square, as a Jacobian often is, but x has 4 elements"),
    ],
    "nb02.check_diff_vjp": [
        Wrong("fitted",
              "import numpy as np\n"
              "def diff_vjp(v):\n"
              "    return np.array([-v[0], v[0] - v[1], v[1] - v[2], v[2]])\n",
              "x has 2 elements): your code raised IndexError",
              "worked out on paper for x with 4 elements, as the notebook suggests, and only for that length"),
        Wrong("common",
              "import numpy as np\n"
              "def diff_vjp(v):\n"
              "    grad = np.zeros(len(v) + 1)\n"
              "    grad[:-1] += v\n"
              "    grad[1:] -= v\n"
              "    return grad\n",
              "every sign is flipped",
              "the signs of y_i = x_(i+1) - x_i swapped"),
        Wrong("common",
              "import numpy as np\n"
              "def diff_vjp(v):\n"
              "    grad = np.zeros(len(v) + 1)\n"
              "    grad[1:] = v\n"
              "    grad[:-1] = -v\n"
              "    return grad\n",
              "Did the second write replace the first",
              "= instead of += / -=: the second write overwrites the first, so the middle entries get one term"),
        Wrong("common",
              "import numpy as np\n"
              "def diff_vjp(v):\n"
              "    return v[:-1] - v[1:]\n",
              "x has one element more than y",
              "the middle formula v[j-1] - v[j] without the two ends: one element short"),
        Wrong("common",
              "import numpy as np\n"
              "def diff_vjp(v):\n"
              "    grad = np.zeros(len(v) + 1)\n"
              "    grad[1:-1] = v[:-1] - v[1:]\n"
              "    return grad\n",
              "look at the two ends",
              "the middle right, the two ends left at 0"),
        Wrong("other",
              "import numpy as np\n"
              "def diff_vjp(v):\n"
              "    n = len(v) + 1\n"
              "    return np.eye(n)[1:] - np.eye(n)[:-1]\n",
              "looks like a Jacobian",
              "the Jacobian itself, not v^T J"),
    ],
    "nb02.check_seed_for": [
        Wrong("fitted",
              "import numpy as np\n"
              "def seed_for(n):\n"
              "    v = np.zeros(n)\n"
              "    v[:n // 2] = 2 / n\n"
              "    v[-1] = -3\n"
              "    return v\n",
              "for odd n the first half is n // 2 elements",
              "the mean's weight as 1 / (n / 2): right for every even n, wrong for odd n"),
        Wrong("common",
              "import numpy as np\n"
              "def seed_for(n):\n"
              "    return np.ones(n)\n",
              "gradient of y.sum()",
              "all ones, the seed .sum() uses, whatever L is"),
        Wrong("common",
              "import numpy as np\n"
              "def seed_for(n):\n"
              "    v = np.zeros(n)\n"
              "    v[:n // 2] = 1\n"
              "    v[-1] = -3\n"
              "    return v\n",
              "look at the mean",
              "the mean taken as a sum: weight 1 instead of 1 / (n // 2)"),
        Wrong("common",
              "import numpy as np\n"
              "def seed_for(n):\n"
              "    v = np.zeros(n)\n"
              "    v[:n // 2] = 1 / (n // 2)\n"
              "    v[-1] = 3\n"
              "    return v\n",
              "what sign does the last weight have",
              "the minus of - 3 * y[-1] dropped"),
        Wrong("other",
              "import numpy as np\n"
              "def seed_for(n):\n"
              "    v = np.zeros(n)\n"
              "    v[:n // 2] = 1 / (n // 2)\n"
              "    return v\n",
              "what is the weight of the last element",
              "the term - 3 * y[-1] forgotten"),
        Wrong("other",
              "import numpy as np\n"
              "def seed_for(n):\n"
              "    v = np.zeros(n)\n"
              "    v[:n // 2] = 1 / n\n"
              "    v[-1] = -3\n"
              "    return v\n",
              "not over all",
              "the mean taken over all n elements"),
    ],
    "nb02.check_sum_to": [
        Wrong("fitted",
              "import numpy as np\n"
              "def sum_to(grad, shape):\n"
              "    lead = grad.ndim - len(shape)\n"
              "    return grad.sum(axis=tuple(range(lead)))\n",
              "still has the broadcast shape",
              "only the dims in front summed: right for the notebook's bias, wrong for an input with a dim of "
              "size 1"),
        Wrong("common",
              "import numpy as np\n"
              "def sum_to(grad, shape):\n"
              "    lead = grad.ndim - len(shape)\n"
              "    grad = grad.sum(axis=tuple(range(lead)))\n"
              "    ones = tuple(i for i, n in enumerate(shape) if n == 1)\n"
              "    return grad.sum(axis=ones)\n",
              "dims of size 1 are gone",
              "the stretched dims summed away instead of kept with size 1"),
        Wrong("common",
              "def sum_to(grad, shape):\n"
              "    return grad\n",
              "still has the broadcast shape",
              "the gradient of the broadcast result passed on as it is"),
        Wrong("other",
              "def sum_to(grad, shape):\n"
              "    return grad.sum()\n",
              "summed over every dim",
              "everything summed, as if every input were a scalar"),
    ],
    "nb02.check_dual": [
        Wrong("fitted",
              DUAL.replace("np.cos(self.value) * self.tangent", "np.cos(self.value)")
                  .replace("np.exp(self.value) * self.tangent", "np.exp(self.value)"),
              "the chain rule multiplies the derivative by the tangent that comes in",
              "sin and exp give their derivative as the tangent, without the incoming tangent: right for the "
              "notebook's x.sin() seeded with the tangent 1"),
        Wrong("common",
              DUAL.replace("self.tangent * other.value + self.value * other.tangent",
                           "self.tangent * other.tangent"),
              "not the product of the tangents",
              "the tangent of a product as the product of the tangents (the eps * eps term)"),
        Wrong("common",
              DUAL.replace("self.tangent * other.value + self.value * other.tangent",
                           "self.tangent * other.value"),
              "the product rule has two terms",
              "one term of the product rule: the tangent of the left factor only"),
        Wrong("other",
              DUAL.replace("np.cos(self.value) * self.tangent", "-np.cos(self.value) * self.tangent"),
              "check the sign",
              "the derivative of sin taken as -cos"),
        Wrong("other",
              DUAL.replace("        other = as_dual(other)\n", ""),
              "a plain number next to a Dual",
              "the line that makes a plain number a Dual removed: 3 * x fails"),
    ],
}
