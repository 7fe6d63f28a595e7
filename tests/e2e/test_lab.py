"""The notebooks in JupyterLab in a real (headless Chromium) browser.

For each notebooks/*.ipynb: open it in Lab, wait for the kernel, Run All Cells, and check what a
reader would see: no error output (except in cells tagged ``raises-exception``), the backward
graphs drawn with the expected node labels, the matplotlib figures, the BackwardStepper widget
whose Next button moves the highlight. A full-page screenshot of each notebook is saved.

``MINIGRAD_SCREENSHOTS=docs pytest tests/e2e -k screenshots`` writes docs/graph.png,
docs/stepper.png and docs/training.png for the README.
"""
from __future__ import annotations

import json
import os
import re
import time
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

import pytest

from e2e_report import REPO, record_screenshot, record_timing
from lab_page import NotebookPage, has_label, highlighted, node_centers, svg_edges, svg_nodes, svg_texts
import sample_notebook


@dataclass(frozen=True)
class Expect:
    labels: tuple = ()        # every one must be a node label of some drawn graph
    any_labels: tuple = ()    # at least one of these must be
    plot: bool = False        # a matplotlib figure (PNG) is shown
    stepper: bool = False     # a BackwardStepper: Next moves the highlighted node


# Keyed by the notebook's number (the part of its name before the first "_").
EXPECTATIONS = {
    "00": Expect(),
    "01": Expect(labels=("SumBackward0", "ReluBackward0", "AccumulateGrad"), plot=True),
    "02": Expect(labels=("AccumulateGrad",)),
    "03": Expect(labels=("AccumulateGrad",)),
    "03b": Expect(labels=("AccumulateGrad", "AddmmBackward0")),
    "04": Expect(labels=("MMFunctionBackward",)),
    "04b": Expect(labels=("MmBackward0", "CubeBackward")),
    "05": Expect(labels=("MMFunctionBackward", "ReverseGradBackward", "BackwardHookFunctionBackward")),
    "05b": Expect(labels=("MMFunctionBackward", "AddmmBackward0", "TanhBackward0"), plot=True),
    "06": Expect(stepper=True),
    "07": Expect(labels=("IndexBackward0", "MmBackward0", "AccumulateGrad"), plot=True),
}
SAMPLE_EXPECT = Expect(labels=tuple(sorted(sample_notebook.EXPECT["labels"])),
                       plot=sample_notebook.EXPECT["plot"], stepper=sample_notebook.EXPECT["stepper"])

NOTEBOOKS = sorted(p.name for p in (REPO / "notebooks").glob("*.ipynb"))
TIMEOUT = float(os.environ.get("MINIGRAD_E2E_TIMEOUT", "240"))  # seconds for one notebook's Run All


def expectations_for(name: str) -> Expect:
    return EXPECTATIONS.get(name.split("_", 1)[0], Expect())


# ---- the checks -------------------------------------------------------------------------
def read_tags(path: Path) -> list:
    nb = json.loads(path.read_text())
    return [list(c.get("metadata", {}).get("tags", [])) for c in nb["cells"]]


def find_stepper(outputs):
    for out in outputs:
        if out.svgs and any(re.search(r"\bnext\b", b, re.I) for b in out.buttons):
            return out
    return None


def step_next(nbp: NotebookPage, cell_index: int, timeout: float = 15.0):
    """Click Next in the stepper of ``cell_index``; return (svg before, svg after) of the picture
    that changed (or the first picture if none did)."""
    before = nbp.cell_outputs(cell_index).svgs
    nbp.click_button(cell_index, "Next")
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        after = nbp.cell_outputs(cell_index).svgs
        if after != before and after:
            for b, a in zip(before, after):
                if a != b:
                    return b, a
            return before[0], after[0]
        time.sleep(0.2)
    return before[0], before[0]


def check_notebook(tab, lab, name: str, expect: Expect, screenshot_dir: Path) -> None:
    tags = read_tags(Path(lab.root_dir) / name)
    nbp = NotebookPage(tab, lab, name, timeout=TIMEOUT)
    problems = []
    t0 = time.monotonic()
    phases, last = {}, [t0]

    def phase(label):
        now = time.monotonic()
        phases[label], last[0] = now - last[0], now

    try:
        nbp.open()
        phase("open")
        n_dom = len(nbp.prompts())
        assert n_dom == len(tags), (f"{name}: Lab shows {n_dom} cells, the file has {len(tags)} "
                                    "(is windowingMode 'none' in effect?)")
        nbp.run_all()
        phase("run")
        nbp.save()
        outputs = nbp.outputs()
        phase("save+read")

        # 1. every code cell ran, and no error but where one is meant
        saved = lab.api("GET", f"/api/contents/{quote(name)}?content=1&type=notebook")["content"]["cells"]
        for i, cell in enumerate(saved):
            source = "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
            if cell["cell_type"] != "code" or not source.strip():  # Lab does not run an empty cell
                continue
            allowed = "raises-exception" in tags[i]
            if cell.get("execution_count") is None:
                problems.append(f"cell {i} did not run")
            for o in cell.get("outputs", []):
                if o.get("output_type") == "error" and not allowed:
                    problems.append(f"cell {i} raised {o.get('ename')}: {o.get('evalue')}")
        for out in outputs:
            if "raises-exception" in tags[out.index]:
                continue
            for tb in out.tracebacks:
                msg = f"cell {out.index} shows an error: {tb.strip().splitlines()[-1][:300]}"
                if not any(p.startswith(f"cell {out.index} raised") for p in problems):
                    problems.append(msg)
            for w in out.widget_problems:
                problems.append(f"cell {out.index}: widget not rendered ({w})")

        # 2. graphs, plots
        svgs = [s for out in outputs for s in out.svgs]
        found = sorted({t for s in svgs for t in svg_texts(s) if t})
        missing = [lbl for lbl in expect.labels if not has_label(svgs, lbl)]
        if missing:
            problems.append(f"no drawn graph has the node label(s) {missing}; "
                            f"{len(svgs)} SVG(s) with labels {found[:40]}")
        if expect.any_labels and not any(has_label(svgs, lbl) for lbl in expect.any_labels):
            problems.append(f"no drawn graph has any of {list(expect.any_labels)}; labels {found[:40]}")
        if expect.plot and not any(out.pngs for out in outputs):
            problems.append("no matplotlib figure (data:image/png) is shown")

        # 3. the stepper
        if expect.stepper:
            stepper = find_stepper(outputs)
            if stepper is None:
                problems.append("no stepper widget (a Next button beside a graph) is shown")
            else:
                before, after = step_next(nbp, stepper.index)
                hb, ha = highlighted(before), highlighted(after)
                if before == after:
                    problems.append(f"cell {stepper.index}: clicking Next did not change the graph")
                elif not ha or [n.id for n in hb] == [n.id for n in ha]:
                    problems.append(f"cell {stepper.index}: clicking Next did not move the highlight "
                                    f"(highlighted before {hb}, after {ha}; nodes {svg_nodes(after)[:8]})")
    finally:
        try:
            if tab.url.startswith(lab.url):
                phase("checks")
                shot = screenshot_dir / (Path(name).stem + ".png")
                for p in nbp.screenshot_full(shot):
                    record_screenshot(p)
                phase("screenshot")
        except Exception as exc:  # noqa: BLE001 - a missing picture must not hide the real failure
            print(f"screenshot of {name} failed: {exc}")
        lab.shutdown_kernels_for(name)
        record_timing(name, time.monotonic() - t0, phases)
    assert not problems, f"{name}:\n  " + "\n  ".join(problems)


# ---- the tests --------------------------------------------------------------------------
def test_sample_notebook(tab, lab, screenshot_dir):
    """The harness itself, on a notebook it writes: graph, plot, stepper, raises-exception."""
    check_notebook(tab, lab, sample_notebook.NAME, SAMPLE_EXPECT, screenshot_dir)


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_notebook(tab, lab, screenshot_dir, name):
    check_notebook(tab, lab, name, expectations_for(name), screenshot_dir)


# ---- pictures for the README --------------------------------------------------------------
def _by_number(number: str):
    return next((n for n in NOTEBOOKS if n.split("_", 1)[0] == number), None)


@pytest.mark.skipif(not os.environ.get("MINIGRAD_SCREENSHOTS"),
                    reason="set MINIGRAD_SCREENSHOTS=docs (or a folder) to write the README pictures")
def test_screenshots(tab, lab):
    """MINIGRAD_SCREENSHOTS=docs: docs/graph.png, docs/stepper.png, docs/training.png."""
    target = os.environ["MINIGRAD_SCREENSHOTS"]
    dest = REPO / "docs" if target == "docs" else Path(target).resolve()
    dest.mkdir(parents=True, exist_ok=True)
    made, failed = [], []

    def run(name):
        nbp = NotebookPage(tab, lab, name, timeout=TIMEOUT)
        nbp.open()
        nbp.run_all()
        return nbp, nbp.outputs()

    # graph.png: the first drawn graph of notebook 01 (its cell: code and picture)
    name = _by_number("01")
    if name:
        nbp, outs = run(name)
        want = EXPECTATIONS["01"].labels
        cell = (next((o for o in outs if o.svgs and all(has_label(o.svgs, lbl) for lbl in want)), None)
                or next((o for o in outs if o.svgs), None))
        if cell:
            nbp.screenshot_of(nbp.cell(cell.index), dest / "graph.png")
            made.append(dest / "graph.png")
        else:
            failed.append(f"graph.png: {name} draws no graph")
        lab.shutdown_kernels_for(name)
    else:
        failed.append("graph.png: no notebook 01_*.ipynb")

    # stepper.png: the stepper of notebook 06, half-way through
    name = _by_number("06")
    if name:
        nbp, outs = run(name)
        stepper = find_stepper(outs)
        if stepper:
            area = nbp.cell(stepper.index).locator(".jp-Cell-outputArea")
            top = area.locator("[aria-valuemax]").first  # the slider's last step
            last = int(float(top.get_attribute("aria-valuemax"))) if top.count() else 0
            for _ in range(max(1, last // 2 if last else len(svg_nodes(stepper.svgs[0])) // 3)):
                step_next(nbp, stepper.index)
            tab.evaluate("() => document.activeElement && document.activeElement.blur()")
            tab.mouse.move(0, 0)
            nbp.screenshot_of(nbp.cell(stepper.index).locator(".jp-Cell-outputArea"), dest / "stepper.png")
            made.append(dest / "stepper.png")
        else:
            failed.append(f"stepper.png: {name} shows no stepper")
        lab.shutdown_kernels_for(name)
    else:
        failed.append("stepper.png: no notebook 06_*.ipynb")

    # training.png: the last matplotlib figure of notebook 05b (else 05, else 01)
    for number in ("05b", "05", "01"):
        name = _by_number(number)
        if not name:
            continue
        nbp, outs = run(name)
        cell = next((o for o in reversed(outs) if o.pngs), None)
        if cell:
            area = nbp.cell(cell.index).locator(".jp-Cell-outputArea")
            img = area.locator('img[src^="data:image/png"]').last
            nbp.screenshot_of(img, dest / "training.png")
            made.append(dest / "training.png")
            lab.shutdown_kernels_for(name)
            break
        lab.shutdown_kernels_for(name)
    else:
        failed.append("training.png: no matplotlib figure in notebooks 05 or 01")

    for p in made:
        record_screenshot(p)
    assert not failed, "could not make: " + "; ".join(failed)


# ---- minigrad's own drawings, the stepper's direction, show_source, figures, make lab ---------------
_LEGEND_OVERLAP_JS = r"""(area) => {
  // the stepper's visible picture: does the legend (the graph's own label) cover any other text or box?
  const svg = [...area.querySelectorAll('svg')].find(s => s.getClientRects().length && s.querySelector('g.node'));
  if (!svg) return 'no visible graph';
  const box = e => e.getBoundingClientRect();
  const legend = [...svg.querySelectorAll('text')].filter(t => !t.closest('g.node, g.edge'));
  const others = [...svg.querySelectorAll('g.node polygon, g.node text, g.edge text')];
  if (!legend.length) return 'no legend';
  const hits = [];
  for (const a of legend) for (const b of others) {
    const r = box(a), q = box(b);
    if (r.left < q.right && q.left < r.right && r.top < q.bottom && q.top < r.bottom)
      hits.push(a.textContent + ' / ' + (b.textContent || b.tagName));
  }
  return hits.join('; ');
}"""

_SOURCE_LINES_JS = r"""(area) => {
  // how the excerpt is laid out: its white-space, whether it scrolls, and how many lines it shows
  const pre = area.querySelector('.minigrad-source pre');
  if (!pre) return null;
  const range = document.createRange();
  range.selectNodeContents(pre);
  const tops = new Set([...range.getClientRects()].filter(r => r.width > 0).map(r => Math.round(r.top)));
  return {whiteSpace: getComputedStyle(pre).whiteSpace, scrolls: pre.scrollWidth > pre.clientWidth,
          lines: tops.size, text: pre.innerText};
}"""


def _errors(outputs) -> list:
    return [f"cell {o.index}: {tb.strip().splitlines()[-1][:200]}" for o in outputs for tb in o.tracebacks]


def test_minigrad_drawings_in_the_browser(tab, lab, screenshot_dir):
    """draw(show_values=True, names=...), the stepper's arrows and labels, show_source, show_figure."""
    import viz_notebook as vn
    nbp = NotebookPage(tab, lab, vn.VIZ, timeout=TIMEOUT)
    try:
        nbp.open()
        nbp.run_all()
        outs = nbp.outputs()
        assert not _errors(outs), _errors(outs)

        # the graph with its numbers, names and alt text
        drawing = outs[2]
        assert len(drawing.svgs) == 1, drawing
        texts = svg_texts(drawing.svgs[0])
        missing = [want for want in vn.DRAW_TEXTS if not any(want in t for t in texts)]
        assert not missing, f"the drawing lacks {missing}; its texts: {texts}"
        assert 'role="img"' in drawing.svgs[0] and "minigrad graph: " in drawing.svgs[0].split(">")[0]

        # the stepper: one picture (the static one is hidden), Next moves the gradient along
        cell = 3
        stepper = nbp.cell_outputs(cell)
        assert len(stepper.svgs) == 1 and any("Next" in b for b in stepper.buttons), stepper
        before, after = step_next(nbp, cell)
        assert before != after, "clicking Next did not change the picture"
        centers, flows = node_centers(after), [e for e in svg_edges(after) if "flow" in e[2].split()]
        assert len(flows) == 2, f"MulBackward0 sends a gradient along its two edges: {svg_edges(after)}"
        (current,) = [n.id for n in highlighted(after)]
        for tail, head, _, label, arrow in flows:
            assert label == vn.FIRST_FLOW, f"edge {tail}->{head} says {label!r}, not the values {vn.FIRST_FLOW}"
            receiver = tail if head == current else head
            dist = {n: (centers[n][0] - arrow[0]) ** 2 + (centers[n][1] - arrow[1]) ** 2 for n in (tail, head)}
            assert head == current and dist[receiver] < dist[current], (
                f"the arrow of {tail}->{head} points at {min(dist, key=dist.get)}, not at the node "
                f"receiving the gradient ({receiver})")
        ids = {t for t in svg_texts(after) if re.fullmatch(r"n\d+", t)}
        assert {"n1", "n2", "n3"} <= ids, f"node ids in the drawing: {sorted(ids)}"
        area = nbp.cell(cell).locator(".jp-Cell-outputArea")
        overlap = area.evaluate(_LEGEND_OVERLAP_JS)
        assert overlap == "", f"the legend covers: {overlap}"

        # show_source: a long line scrolls sideways, no line wraps (mid-word or at all)
        layout = nbp.cell(4).locator(".jp-Cell-outputArea").evaluate(_SOURCE_LINES_JS)
        assert layout and layout["whiteSpace"] == "pre" and layout["scrolls"], layout
        assert layout["lines"] == len(vn.LONG_SOURCE.strip().splitlines()), layout

        # show_figure: the picture has its alt text
        img = nbp.cell(5).locator('.jp-Cell-outputArea img[alt="a straight line falling from 3 to 0"]')
        assert img.count() == 1 and img.first.is_visible()
    finally:
        try:
            for p in nbp.screenshot_full(screenshot_dir / "e2e_viz.png"):
                record_screenshot(p)
        except Exception as exc:  # noqa: BLE001
            print(f"screenshot failed: {exc}")
        lab.shutdown_kernels_for(vn.VIZ)


def test_a_stored_stepper_shows_its_first_step_before_the_notebook_runs(tab, lab, screenshot_dir):
    """Opened without running: the stepper's static picture (step 0 highlighted), no dead buttons,
    no "Error displaying widget"; after Run All, the live widget instead."""
    import viz_notebook as vn
    nbp = NotebookPage(tab, lab, vn.STORED, timeout=TIMEOUT)
    try:
        nbp.open()
        tab.wait_for_timeout(2500)  # the widget manager gives up on the (missing) widget state
        out = nbp.cell_outputs(1)
        for p in nbp.screenshot_full(screenshot_dir / "e2e_stored_stepper.png"):
            record_screenshot(p)
        assert len(out.svgs) == 1, f"{len(out.svgs)} pictures shown"
        assert not out.buttons, f"buttons that cannot work: {out.buttons}"
        assert "Error displaying widget" not in out.text and "Loading widget" not in out.text, out.text
        assert "Step 0 of 2" in out.text
        assert [str(n).split()[0] for n in highlighted(out.svgs[0])] == ["SumBackward0"]
        nbp.run_all()
        live = nbp.cell_outputs(1)
        assert len(live.svgs) == 1 and any("Next" in b for b in live.buttons), live
        before, after = step_next(nbp, 1)
        assert [n.id for n in highlighted(before)] != [n.id for n in highlighted(after)]
    finally:
        lab.shutdown_kernels_for(vn.STORED)


def test_make_lab_opens_the_repository_root_with_notebook_00(e2e_tools, chromium):
    """What `make lab` runs: the workspace import, then Lab at the repository root."""
    import subprocess
    import sys
    import lab_server
    recipe = re.search(r"^lab:.*\n((?:\t.*\n)+)", (REPO / "Makefile").read_text(), re.M).group(1)
    assert "workspaces import --name=minigrad scripts/lab_workspace.json" in recipe
    assert "--LabApp.default_url=/lab/workspaces/minigrad" in recipe and "LAB_AT_ROOT" in recipe
    assert "--ServerApp.root_dir=." in (REPO / "Makefile").read_text()
    server = lab_server.LabServer(REPO)
    subprocess.run([sys.executable, "-m", "jupyterlab", "workspaces", "import", "--name=minigrad",
                    str(REPO / "scripts" / "lab_workspace.json")], env=server._env(), check=True,
                   capture_output=True)
    page = None
    try:
        server.start()
        page = chromium.new_page()
        page.goto(f"{server.url}/lab/workspaces/minigrad?token={server.token}")
        page.locator(".jp-NotebookPanel .jp-Cell").first.wait_for(timeout=90_000)
        page.locator(".jp-DirListing-itemName").first.wait_for(timeout=30_000)
        tabs = page.locator(".lm-DockPanel-tabBar .lm-TabBar-tabLabel").all_inner_texts()
        items = page.locator(".jp-DirListing-itemName").all_inner_texts()
        assert "00_start_here.ipynb" in tabs, tabs
        assert {"minigrad", "notebooks"} <= set(items), items
    finally:
        if page is not None:
            page.close()
        server.stop()
