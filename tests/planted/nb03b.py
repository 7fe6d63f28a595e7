"""Wrong answers planted in the checks of ``03b_cutting_the_graph.ipynb`` (see ``__init__.py``)."""
from . import Wrong

_EVALUATE = ("import minigrad\n"
             "def evaluate(model, data, targets):\n"
             "{body}")


def _evaluate(body):
    return _EVALUATE.format(body="".join(f"    {line}\n" for line in body.splitlines()))


WRONG = {
    "nb03b.check_q_detach": [
        Wrong("fitted", "q_detach = 'a'",
              "is not it",
              "zeros: as if a leaf that gets no gradient got a gradient of zeros"),
        Wrong("common", "q_detach = 'c'",
              "is not it",
              "as through full: as if detach() only hid the graph from the drawing"),
    ],
    "nb03b.check_q_eval": [
        Wrong("fitted", "q_eval = 'no'",
              "should be one of",
              "the answer in the question's own words (does it record? no), not one of the letters"),
        Wrong("common", "q_eval = 'b'",
              "is not it",
              "the common mix-up: eval() taken for no_grad()"),
    ],
    "nb03b.check_td_loss": [
        Wrong("fitted",
              "def td_loss(model, x, r, x_next, gamma):\n"
              "    target = (r + 0.9 * model(x_next)).detach()\n"
              "    return ((model(x) - target) ** 2).mean()\n",
              "that is the loss with gamma = 0.9",
              "the usual discount 0.9 typed in instead of the argument gamma"),
        Wrong("common",
              "def td_loss(model, x, r, x_next, gamma):\n"
              "    return ((model(x) - (r + gamma * model(x_next))) ** 2).mean()\n",
              "the gradient also flows through the target",
              "the formula as it stands: backward differentiates the target too"),
        Wrong("common",
              "def td_loss(model, x, r, x_next, gamma):\n"
              "    return ((model(x).detach() - (r + gamma * model(x_next))) ** 2).mean()\n",
              "Swap which term you cut",
              "the prediction cut instead of the target"),
        Wrong("common",
              "def td_loss(model, x, r, x_next, gamma):\n"
              "    return ((model(x) - (r + gamma * model(x_next))) ** 2).mean().detach()\n",
              "the loss does not require grad",
              "the whole loss detached: nothing left to train"),
        Wrong("common",
              "def td_loss(model, x, r, x_next, gamma):\n"
              "    target = r + gamma * model(x_next)\n"
              "    target.requires_grad_(False)\n"
              "    return ((model(x) - target) ** 2).mean()\n",
              "requires_grad_(False) works on leaves only",
              "freezing (section 2) tried on a computed tensor, which raises"),
        Wrong("other",
              "def td_loss(model, x, r, x_next, gamma):\n"
              "    target = (r + gamma * model(x_next)).detach()\n"
              "    return ((model(x) - target) ** 2).sum()\n",
              "that is the sum of the squared errors",
              "the sum of the squared errors, not their mean"),
    ],
    "nb03b.check_evaluate": [
        Wrong("fitted",
              _evaluate("model.eval()\n"
                        "with minigrad.no_grad():\n"
                        "    loss = ((model(data) - targets) ** 2).mean()\n"
                        "model.train()\n"
                        "return loss.item()\n"),
              "afterwards the model is in training mode, but it was in evaluation mode",
              "model.train() at the end: right for a model that was training, the usual case"),
        Wrong("common",
              _evaluate("with minigrad.no_grad():\n"
                        "    loss = ((model(data) - targets) ** 2).mean()\n"
                        "return loss.item()\n"),
              "the model ran in training mode",
              "no_grad() alone: the layers still behave as in training"),
        Wrong("common",
              _evaluate("was_training = model.training\n"
                        "model.eval()\n"
                        "loss = ((model(data) - targets) ** 2).mean()\n"
                        "model.train(was_training)\n"
                        "return loss.item()\n"),
              "recording was on while the model ran",
              "eval() alone, taken for no_grad(): the graph is still recorded"),
        Wrong("common",
              _evaluate("model.eval()\n"
                        "with minigrad.no_grad():\n"
                        "    return ((model(data) - targets) ** 2).mean().item()\n"),
              "afterwards the model is in evaluation mode, but it was in training mode",
              "the mode never put back"),
        Wrong("other",
              _evaluate("was_training = model.training\n"
                        "model.eval()\n"
                        "with minigrad.no_grad():\n"
                        "    loss = ((model(data) - targets) ** 2).mean()\n"
                        "model.train(was_training)\n"
                        "return loss\n"),
              "Python float, got a tensor",
              "the loss tensor returned instead of its number"),
    ],
}
