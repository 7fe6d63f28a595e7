"""minigrad_course.notebook: show_source (the right file, short excerpts, no mid-word wrapping) and
show_figure (a matplotlib figure with alt text)."""
import base64
from pathlib import Path

import pytest

import minigrad
from minigrad import optim
from minigrad_course.notebook import SOURCE_CSS, show_figure, show_source

ROOT = Path(__file__).resolve().parent.parent


def file_lines(title):
    """The lines of the file a title names, and the (first, last) line numbers it gives."""
    path, rest = title.split(" — ")[0].split(", lines ") if ", lines " in title else (title.split(" — ")[0], None)
    lines = (ROOT / path).read_text().splitlines()
    if rest is None:
        return lines, None
    first, last = (int(n) for n in rest.split("-"))
    return lines, (first, last)


def test_a_decorated_method_is_shown_from_its_own_file():
    src = show_source(optim.SGD.step)  # decorated with no_grad(), which lives in autograd/grad_mode.py
    assert src.title == "minigrad/optim/sgd.py — SGD.step"
    assert "def step(self" in src.code and "grad_mode.py" not in src.title


def test_markers_pick_a_short_excerpt_with_its_line_numbers():
    src = show_source(optim.SGD.step, "for group in", "for p in")
    lines = src.code.splitlines()
    assert lines[0].startswith("for group in") and lines[-1].lstrip().startswith("for p in")
    file, (first, last) = file_lines(src.title)
    assert last - first + 1 == len(lines)
    assert [line.strip() for line in file[first - 1:last]] == [line.strip() for line in lines]
    with pytest.raises(ValueError, match="no line contains 'not in the source'"):
        show_source(optim.SGD.step, "not in the source")


def test_numbers_slice_the_lines_as_before():
    whole = show_source(minigrad.ops.Sum).code.splitlines()
    part = show_source(minigrad.ops.Sum, 0, 2)
    assert part.code.splitlines() == whole[:2]
    file, (first, last) = file_lines(part.title)
    assert (last - first) == 1 and file[first - 1].startswith("class Sum")
    assert show_source(minigrad.ops.Sum, 2).code.splitlines()[0].strip() == whole[2].strip()


def test_a_property_shows_its_getter():
    src = show_source(minigrad.autograd.BackwardNode.saved_tensors)
    assert src.title.endswith("BackwardNode.saved_tensors") and "def saved_tensors" in src.code


def test_markdown_scrolls_long_lines_instead_of_wrapping_them():
    md = show_source(optim.SGD.step)._repr_markdown_()
    assert md.startswith(SOURCE_CSS) and "white-space: pre !important" in SOURCE_CSS
    assert '<div class="minigrad-source">' in md and "```python\n" in md


def test_show_figure_has_alt_text_everywhere():
    plt = pytest.importorskip("matplotlib.pyplot")
    fig, ax = plt.subplots(figsize=(2, 1.5))
    ax.plot([0, 1, 2], [3, 1, 0.5])
    number = fig.number
    fig_out = show_figure(fig, 'loss falls from 3 to 0.5 "quickly"')
    assert number not in plt.get_fignums()  # closed: the notebook does not show it twice
    bundle, metadata = fig_out._repr_mimebundle_()
    assert base64.b64decode(bundle["image/png"])[:4] == b"\x89PNG"
    assert bundle["text/html"].startswith('<img alt="loss falls from 3 to 0.5 &quot;quickly&quot;" src="data:image/png;base64,')
    assert metadata == {"image/png": {"alt": 'loss falls from 3 to 0.5 "quickly"'}}
    assert bundle["text/plain"] == '<figure: loss falls from 3 to 0.5 "quickly">'
