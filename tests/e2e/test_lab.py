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
from lab_page import NotebookPage, has_label, highlighted, svg_nodes, svg_texts
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
    "04": Expect(labels=("MMFunctionBackward",)),
    "04b": Expect(labels=("MmBackward0", "MulBackward")),
    "05": Expect(labels=("MMFunctionBackward", "ReverseGradBackward", "BackwardHookFunctionBackward")),
    "05b": Expect(labels=("MMFunctionBackward", "AddmmBackward0", "TanhBackward0"), plot=True),
    "06": Expect(stepper=True),
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
