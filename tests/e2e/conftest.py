"""Fixtures for the browser tests: a throw-away JupyterLab serving a copy of notebooks/, and
headless Debian Chromium driven by Playwright.

Skipped when /usr/bin/chromium or playwright is missing, unless MINIGRAD_E2E_REQUIRED=1 (CI),
which turns the skip into a failure.
"""
from __future__ import annotations

import os
import shutil
import sys
import time
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path.insert(0, str(HERE))

import lab_server  # noqa: E402
import sample_notebook  # noqa: E402
import viz_notebook  # noqa: E402
from e2e_report import record_timing, saved as _saved, timings as _timings  # noqa: E402

CHROMIUM = os.environ.get("MINIGRAD_CHROMIUM", "/usr/bin/chromium")
REQUIRED = os.environ.get("MINIGRAD_E2E_REQUIRED", "") not in ("", "0", "false", "no")
SCREENSHOT_DIR = Path(os.environ.get("MINIGRAD_E2E_SCREENSHOT_DIR", HERE / "screenshots")).resolve()
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--no-first-run", "--disable-quic", "--disable-sync",
    "--disable-dev-shm-usage", "--hide-scrollbars", "--font-render-hinting=none",
]
VIEWPORT = {"width": 1280, "height": 900}

def _missing() -> list[str]:
    reasons = []
    if not (os.path.isfile(CHROMIUM) and os.access(CHROMIUM, os.X_OK)):
        reasons.append(f"{CHROMIUM} not found (Debian: apt-get install -y chromium)")
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        reasons.append(f"playwright is not installed ({sys.executable} -m pip install playwright)")
    return reasons


@pytest.fixture(scope="session")
def e2e_tools() -> str:
    reasons = _missing()
    if reasons:
        msg = "browser tests need " + "; ".join(reasons)
        if REQUIRED:
            pytest.fail(msg + " [MINIGRAD_E2E_REQUIRED=1]", pytrace=False)
        pytest.skip(msg)
    return CHROMIUM


@pytest.fixture(scope="session")
def served_dir(tmp_path_factory) -> Path:
    """A copy of notebooks/ (runs must not touch the committed notebooks) plus the samples."""
    root = tmp_path_factory.mktemp("served") / "notebooks"
    src = REPO / "notebooks"
    if src.is_dir():
        shutil.copytree(src, root, ignore=shutil.ignore_patterns(".ipynb_checkpoints", "__pycache__"))
    else:
        root.mkdir()
    sample_notebook.write(root)
    viz_notebook.write(root)
    return root


@pytest.fixture(scope="session")
def lab(e2e_tools, served_dir):
    server = lab_server.LabServer(served_dir)
    try:
        t0 = time.monotonic()
        server.start()
        record_timing("(JupyterLab start)", time.monotonic() - t0)
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def chromium(e2e_tools, tmp_path_factory):
    from playwright.sync_api import sync_playwright

    profile = tmp_path_factory.mktemp("chromium-profile")
    with sync_playwright() as pw:
        context = pw.chromium.launch_persistent_context(
            str(profile), executable_path=e2e_tools, headless=True, args=CHROMIUM_ARGS,
            viewport=VIEWPORT, device_scale_factor=1, locale="en-US", timezone_id="UTC")
        try:
            context.set_default_timeout(30_000)
            yield context
        finally:
            context.close()


@pytest.fixture
def tab(chromium, lab):
    p = chromium.new_page()
    try:
        yield p
    finally:
        p.close()


@pytest.fixture(scope="session")
def screenshot_dir() -> Path:
    SCREENSHOT_DIR.mkdir(parents=True, exist_ok=True)
    return SCREENSHOT_DIR


def pytest_terminal_summary(terminalreporter):
    if _timings:
        terminalreporter.write_sep("-", "browser tests: seconds per notebook")
        for name, (secs, phases) in _timings.items():
            detail = ", ".join(f"{k} {v:.1f}" for k, v in phases.items())
            terminalreporter.write_line(f"  {secs:6.1f}  {name}" + (f"  ({detail})" if detail else ""))
    if _saved:
        folders = sorted({str(p.parent) for p in _saved})
        terminalreporter.write_sep("-", "browser tests: screenshots")
        for folder in folders:
            names = ", ".join(p.name for p in _saved if str(p.parent) == folder)
            terminalreporter.write_line(f"  {folder}/: {names}")
