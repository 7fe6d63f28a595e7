"""How minigrad.viz writes numbers and shapes: ``[3, 2]``, ``(3, 2)``, ``[[1, 2], [3, 4]]``."""
import numpy as np


def values_of(t):
    """A tensor's numbers as a numpy array: minigrad's ``_data``, else ``.data`` (PyTorch, your own)."""
    data = getattr(t, "_data", None)
    if data is None:
        data = getattr(t, "data", t)
    return np.asarray(data)


def tensor_shape(t):
    return tuple(np.shape(values_of(t)))


def shape_list(shape):
    """``[3, 2]``: how PyTorch's messages write a shape."""
    return "[" + ", ".join(str(int(s)) for s in shape) + "]"


def shape_tuple(shape):
    """``(3, 2)``: how torchviz writes a shape in its boxes (``(10)`` for one dimension)."""
    return "(" + ", ".join(str(int(s)) for s in shape) + ")"


def short_values(t, limit=6):
    """The first ``limit`` numbers of a tensor: ``[0, 0, 1, 1, …]``, or ``1`` for a scalar."""
    data = values_of(t)
    if data.ndim == 0:
        return _number(data.item())
    flat = data.reshape(-1)
    text = ", ".join(_number(x) for x in flat[:limit].tolist())
    return "[" + text + (", …" if flat.size > limit else "") + "]"


def value_lines(t, limit=12, per_line=6):
    """A tensor's numbers as text lines: all of them when there are at most ``limit``.

    ``[[1, 2], [3, 4]]`` gives one line per row; a long vector wraps every ``per_line`` numbers;
    more than ``limit`` numbers give a summary, the first three and the last two:
    ``[-100, -77.78, -55.56, …, 77.78, 100]`` (what numpy does for long arrays).
    """
    data = values_of(t)
    if data.ndim == 0:
        return [_number(data.item())]
    flat = data.reshape(-1).tolist()
    if len(flat) > limit:
        return ["[" + ", ".join(_number(x) for x in flat[:3]) + ", …, "
                + ", ".join(_number(x) for x in flat[-2:]) + "]"]
    if data.ndim == 1:
        lines = []
        for start in range(0, max(len(flat), 1), per_line):
            chunk = ", ".join(_number(x) for x in flat[start:start + per_line])
            last = start + per_line >= len(flat)
            lines.append(("[" if start == 0 else " ") + chunk + ("]" if last else ","))
        return lines
    rows = [_nested(row) for row in data.tolist()]
    return [("[" if i == 0 else " ") + row + ("," if i < len(rows) - 1 else "]") for i, row in enumerate(rows)]


def values_text(t, limit=12):
    """``value_lines`` on one line, for the text summary: ``[[1, 2], [3, 4]]``."""
    return " ".join(line.strip() for line in value_lines(t, limit, per_line=limit))


def _nested(x):
    if isinstance(x, list):
        return "[" + ", ".join(_nested(v) for v in x) + "]"
    return _number(x)


def plural(n, word):
    return f"{n} {word}" + ("" if n == 1 else "s")


def _number(x):
    if isinstance(x, bool):
        return str(x)
    text = f"{x:.4g}"
    return "0" if text == "-0" else text


def _dot_text(s):
    """User text inside a DOT label: backslashes would start DOT escapes such as ``\\n``."""
    return str(s).replace("\\", "\\\\")
