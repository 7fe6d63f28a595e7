"""Drive one notebook in JupyterLab 4 through Playwright, the way a person would.

``NotebookPage(page, server, name)``: ``open()`` (waits for the kernel status "Idle"),
``run_all()`` (Edit > Clear Outputs of All Cells, Run > Run All Cells, waits until the kernel is
idle and every code cell has an execution count), ``save()``, ``outputs()`` (what every cell
shows: errors, SVG documents, PNG images, widget buttons), ``click_button()``,
``screenshot_full()``.  SVG helpers: ``svg_texts()``, ``svg_nodes()``, ``highlighted()``.
"""
from __future__ import annotations

import contextlib
import html
import re
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote

# ---- the page ---------------------------------------------------------------------------
# The notebook panel that is on show (Lab may keep others, hidden, in the dock).
PANEL = ".jp-NotebookPanel:not(.lm-mod-hidden)"

_KERNEL_STATUS_JS = r"""() => {
  const items = [...document.querySelectorAll('#jp-main-statusbar .jp-StatusBar-TextItem')];
  for (const e of items) {
    const m = /\|\s*(\w[\w ]*)\s*$/.exec(e.textContent.trim());
    if (m) return (/No Kernel/.test(e.textContent) ? 'nokernel:' : '') + m[1].trim().toLowerCase();
  }
  return '';
}"""

_PROMPTS_JS = r"""(panel) => {
  const root = document.querySelector(panel);
  if (!root) return null;
  return [...root.querySelectorAll('.jp-Notebook .jp-Cell')].map(c => ({
    // an empty code cell is not sent to the kernel: it never gets an execution count
    code: c.classList.contains('jp-CodeCell') && !!(c.querySelector('.jp-InputArea-editor') || {textContent: 'x'}).textContent.trim(),
    prompt: (c.querySelector('.jp-InputPrompt') || {textContent: ''}).textContent.trim(),
  }));
}"""

# Everything the test looks at in the outputs, cell by cell (index = index in the .ipynb).
_OUTPUTS_JS = r"""async ([panel, only]) => {
  const root = document.querySelector(panel);
  const decode = async (src) => {
    if (src.startsWith('blob:')) { try { return await (await fetch(src)).text(); } catch (e) { return ''; } }
    const comma = src.indexOf(',');
    const head = src.slice(0, comma), body = src.slice(comma + 1);
    try { return head.endsWith(';base64') ? new TextDecoder().decode(Uint8Array.from(atob(body), c => c.charCodeAt(0)))
                                           : decodeURIComponent(body); } catch (e) { return ''; }
  };
  const cells = [...root.querySelectorAll('.jp-Notebook .jp-Cell')];
  const shown = e => e.getClientRects().length > 0;  // not display:none (a stepper's hidden picture)
  const out = [];
  for (const [i, cell] of cells.entries()) {
    if (only !== null && i !== only) { out.push(null); continue; }
    const area = cell.querySelector('.jp-Cell-outputArea');
    const r = {errors: [], stderr: [], svgs: [], pngs: 0, buttons: [], widget_problems: [], text: ''};
    if (area) {
      for (const e of area.querySelectorAll('.jp-OutputArea-output[data-mime-type="application/vnd.jupyter.error"], .jp-RenderedText[data-mime-type="application/vnd.jupyter.error"]'))
        r.errors.push(e.innerText);
      for (const e of area.querySelectorAll('.jp-OutputArea-output[data-mime-type="application/vnd.jupyter.stderr"]'))
        r.stderr.push(e.innerText);
      for (const svg of area.querySelectorAll('svg')) {
        if (!shown(svg)) continue;
        if (svg.closest('.jp-OutputArea-promptOverlay, .jp-OutputPrompt, button, .jp-icon3, .widget-slider')) continue;
        if (svg.parentElement && svg.parentElement.closest('svg')) continue;
        if (!svg.querySelector('text')) continue;
        r.svgs.push(svg.outerHTML);
      }
      for (const img of area.querySelectorAll('img')) {
        if (!shown(img)) continue;
        const src = img.getAttribute('src') || '';
        if (src.startsWith('data:image/svg+xml') || (src.startsWith('blob:') && /svg/.test(img.getAttribute('type') || 'svg'))) {
          const text = await decode(src);
          if (text.includes('<svg')) r.svgs.push(text);
        } else if (src.startsWith('data:image/png') && img.naturalWidth > 0) {
          r.pngs += 1;
        }
      }
      for (const b of area.querySelectorAll('button'))
        if (shown(b)) r.buttons.push((b.innerText || b.getAttribute('title') || b.getAttribute('aria-label') || '').trim());
      const t = area.innerText;
      for (const bad of ['Error displaying widget', 'Failed to load model class', 'Error creating widget', 'Loading widget...'])
        if (t.includes(bad)) r.widget_problems.push(bad);
      r.text = t.slice(0, 4000);
    }
    out.push(r);
  }
  return out;
}"""


# The right edge of what an element shows: its pictures, widgets' text, and the text of its code
# and outputs (measured with a Range, since a code line's box is as wide as the cell).
_CONTENT_RIGHT_JS = r"""(el) => {
  let right = 0;
  const grow = r => { if (r.width > 0 && r.height > 0) right = Math.max(right, r.right); };
  for (const e of el.querySelectorAll('img, svg, button, .widget-slider, .widget-readout'))
    if (!(e.parentElement && e.parentElement.closest('svg'))) grow(e.getBoundingClientRect());
  const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    if (!n.textContent.trim() || n.parentElement.closest('svg, .jp-OutputArea-promptOverlay')) continue;
    const range = document.createRange(); range.selectNodeContents(n);
    for (const r of range.getClientRects()) grow(r);
  }
  return right;
}"""


@dataclass
class CellOutputs:
    index: int
    errors: list = field(default_factory=list)
    stderr: list = field(default_factory=list)
    svgs: list = field(default_factory=list)
    pngs: int = 0
    buttons: list = field(default_factory=list)
    widget_problems: list = field(default_factory=list)
    text: str = ""

    @property
    def tracebacks(self) -> list:
        """Error outputs. Lab 4 renders an error output with the stderr mime type, so a stderr
        output that holds a Python traceback counts as an error too."""
        return self.errors + [s for s in self.stderr if looks_like_traceback(s)]


def looks_like_traceback(text: str) -> bool:
    return ("Traceback (most recent call last)" in text
            or bool(re.search(r"^-{20,}\s*$", text, re.M) and re.search(r"^\w*(Error|Exception)\b", text, re.M)))


class NotebookPage:
    def __init__(self, page, server, name: str, timeout: float = 240.0):
        self.page = page
        self.server = server
        self.name = name
        self.timeout = timeout
        self.panel = page.locator(PANEL)

    # ---- opening ----------------------------------------------------------------------
    def open(self) -> "NotebookPage":
        # A workspace of its own, so Lab restores no tab left open by an earlier test.
        ws = "e2e-" + uuid.uuid4().hex[:10]
        self.page.goto(f"{self.server.url}/lab/workspaces/{ws}/tree/{quote(self.name)}?token={self.server.token}")
        self.panel.locator(".jp-Notebook .jp-Cell").first.wait_for(timeout=90_000)
        self.wait_kernel("idle", timeout=120)
        self._collapse_left_sidebar()
        self.dismiss_popups()
        return self

    def kernel_status(self) -> str:
        return self.page.evaluate(_KERNEL_STATUS_JS)

    def wait_kernel(self, status: str, timeout: float = 60, stable: float = 0.0) -> None:
        """Wait until the status bar says ``<kernel> | <Status>`` (and stays so ``stable`` seconds).

        The toolbar's execution indicator says "idle" before any kernel exists, and a Run All
        sent then never starts, so this reads the status bar, which names the kernel."""
        deadline = time.monotonic() + timeout
        since = None
        while True:
            self.accept_kernel_dialog()
            now = time.monotonic()
            if self.kernel_status() == status:
                since = since or now
                if now - since >= stable:
                    return
            else:
                since = None
            if now > deadline:
                raise TimeoutError(f"{self.name}: kernel status is {self.kernel_status()!r}, "
                                   f"not {status!r}, after {timeout:.0f}s")
            time.sleep(0.2)

    def accept_kernel_dialog(self) -> None:
        """If Lab asks which kernel to use, take the one it proposes (the notebook's own)."""
        dialog = self.page.locator(".jp-Dialog")
        if dialog.count() and "Select Kernel" in (dialog.first.inner_text() or ""):
            dialog.first.locator(".jp-Dialog-button.jp-mod-accept").click()

    def dismiss_popups(self) -> None:
        for close in self.page.locator(".jp-Notification-Toast-Close, .Toastify__close-button").all():
            try:
                close.click(timeout=1000)
            except Exception:  # noqa: BLE001 - it may have gone by itself
                pass

    def _collapse_left_sidebar(self) -> None:
        tab = self.page.locator(".jp-SideBar.jp-mod-left .lm-TabBar-tab.lm-mod-current")
        if tab.count():
            tab.first.click()

    # ---- menus ------------------------------------------------------------------------
    def menu(self, top: str, item: str) -> None:
        self.panel.locator(".jp-Notebook").first.click(position={"x": 5, "y": 5})  # make it current
        self.page.locator("#jp-menu-panel .lm-MenuBar-itemLabel, .lm-MenuBar-itemLabel").get_by_text(
            top, exact=True).first.click()
        self.page.locator(".lm-Menu:visible .lm-Menu-itemLabel").get_by_text(item, exact=True).first.click()

    # ---- running ------------------------------------------------------------------------
    def prompts(self) -> list:
        return self.page.evaluate(_PROMPTS_JS, PANEL) or []

    def run_all(self) -> dict:
        """Clear every output, Run All Cells, wait for the end. Returns timing/progress info."""
        t0 = time.monotonic()
        self.menu("Edit", "Clear Outputs of All Cells")
        self.page.wait_for_function(
            f"""() => [...document.querySelectorAll('{PANEL} .jp-Notebook .jp-CodeCell .jp-InputPrompt')]
                     .every(p => !/\\[\\d+\\]/.test(p.textContent))""", timeout=30_000)
        self.wait_kernel("idle", timeout=60)
        self.menu("Run", "Run All Cells")
        deadline = time.monotonic() + self.timeout
        idle_since = None
        while True:
            self.accept_kernel_dialog()
            code = [c["prompt"] for c in self.prompts() if c["code"]]
            pending = any("*" in p for p in code)
            counted = all(re.search(r"\[\d+\]", p) for p in code)
            idle = self.kernel_status() == "idle"
            now = time.monotonic()
            if idle and not pending and counted:
                break
            # A cell that fails (untagged) aborts the rest: they stay "[ ]" for good.
            idle_since = (idle_since or now) if (idle and not pending) else None
            if idle_since and now - idle_since > 3.0:
                break
            if now > deadline:
                raise TimeoutError(f"{self.name}: Run All did not finish in {self.timeout:.0f}s "
                                   f"(prompts {code}, kernel {self.kernel_status()!r})")
            time.sleep(0.25)
        # Let the last outputs (images, widget views) render.
        self.page.wait_for_timeout(750)
        return {"seconds": time.monotonic() - t0,
                "unexecuted": [i for i, c in enumerate(self.prompts())
                               if c["code"] and not re.search(r"\[\d+\]", c["prompt"])]}

    def save(self) -> None:
        self.menu("File", "Save Notebook")
        self.page.wait_for_function(
            """() => !document.querySelector('.lm-DockPanel-tabBar .lm-TabBar-tab.lm-mod-current.jp-mod-dirty')""",
            timeout=30_000)

    # ---- reading --------------------------------------------------------------------------
    def outputs(self) -> list:
        """What every cell shows, as ``CellOutputs``, in the order of the .ipynb's cells."""
        return [CellOutputs(index=i, **r) for i, r in enumerate(self.page.evaluate(_OUTPUTS_JS, [PANEL, None]))]

    def cell_outputs(self, index: int) -> CellOutputs:
        return CellOutputs(index=index, **self.page.evaluate(_OUTPUTS_JS, [PANEL, index])[index])

    def cell(self, index: int):
        return self.panel.locator(".jp-Notebook .jp-Cell").nth(index)

    def click_button(self, index: int, word: str) -> None:
        """Click the widget button of cell ``index`` whose text or title is ``word``."""
        area = self.cell(index).locator(".jp-Cell-outputArea")
        pattern = re.compile(rf"\b{re.escape(word)}\b", re.I)
        buttons = area.locator("button").filter(has_text=pattern)
        if not buttons.count():
            buttons = area.locator(f'button[title*="{word}" i], button[aria-label*="{word}" i]')
        buttons.first.click()

    # ---- pictures -----------------------------------------------------------------------
    @contextlib.contextmanager
    def tall(self, max_height: int = 16000):
        """Grow the window to the notebook's full height (Lab scrolls inside its own panel, so a
        plain full-page screenshot would only show one screen); restore it afterwards."""
        vp = self.page.viewport_size or {"width": 1280, "height": 900}
        scroller = self._scroller()
        heights = scroller.evaluate("e => [e.scrollHeight, e.clientHeight]")
        extra = max(0, heights[0] - heights[1])
        self.page.set_viewport_size({"width": vp["width"], "height": min(max_height, vp["height"] + extra)})
        try:
            self.page.wait_for_timeout(400)
            scroller.evaluate("e => e.scrollTo(0, 0)")
            yield
        finally:
            self.page.set_viewport_size(vp)

    def screenshot_full(self, path, max_height: int = 15000) -> list:
        """The whole notebook: one picture, or ``name.png``, ``name-2.png``, ... when it is taller
        than ``max_height`` pixels (Chromium cannot capture much more in one go)."""
        path = Path(path)
        vp = self.page.viewport_size or {"width": 1280, "height": 900}
        scroller = self._scroller()
        total, client = scroller.evaluate("e => [e.scrollHeight, e.clientHeight]")
        chrome = vp["height"] - client  # menu, tabs, toolbar, status bar
        height = min(max_height, chrome + total)
        self.page.set_viewport_size({"width": vp["width"], "height": height})
        for stale in path.parent.glob(f"{path.stem}-*{path.suffix}"):
            if stale.stem[len(path.stem) + 1:].isdigit():
                stale.unlink()
        paths = []
        try:
            self.page.wait_for_timeout(400)
            visible = scroller.evaluate("e => e.clientHeight")
            top, k = 0, 1
            while True:
                scroller.evaluate("(e, y) => e.scrollTo(0, y)", top)
                self.page.wait_for_timeout(150)
                p = path if k == 1 else path.with_name(f"{path.stem}-{k}{path.suffix}")
                self.page.screenshot(path=str(p))
                paths.append(p)
                if top + visible >= total or k >= 20:
                    break
                top += visible - 40  # a little overlap between the parts
                k += 1
        finally:
            self.page.set_viewport_size(vp)
        return paths

    def _scroller(self):
        scroller = self.panel.locator(".jp-WindowedPanel-outer")
        if not scroller.count():  # older Lab: the notebook itself scrolls
            scroller = self.panel.locator(".jp-Notebook")
        return scroller.first

    def screenshot_of(self, locator, path, trim: bool = True, pad: int = 24) -> None:
        """A picture of one element; ``trim`` cuts the empty right-hand side (a cell is as wide
        as the window, its code and picture are usually not)."""
        with self.tall():
            locator.scroll_into_view_if_needed()
            box = locator.bounding_box()
            if trim and box:
                right = locator.evaluate(_CONTENT_RIGHT_JS)
                if right and right > box["x"]:
                    box["width"] = min(box["width"], right - box["x"] + pad)
            self.page.screenshot(path=str(path), clip=box)


# ---- SVG helpers ------------------------------------------------------------------------
_TEXT_RE = re.compile(r"<text\b[^>]*>(.*?)</text>", re.S)
_NODE_RE = re.compile(r'<g\b[^>]*class="([^"]*\bnode\b[^"]*)"[^>]*>(.*?)</g>', re.S)
_STYLE_RE = re.compile(r'\b(fill|stroke|stroke-width|font-weight|stroke-dasharray|style)="([^"]*)"')


def _plain(fragment: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", fragment)).strip()


def svg_texts(svg: str) -> list:
    return [_plain(t) for t in _TEXT_RE.findall(svg)]


def has_label(svgs, label: str) -> bool:
    return any(label in t for svg in svgs for t in svg_texts(svg))


class Node(str):
    """A node's label (what the reader sees) that remembers the node's graphviz id: two nodes
    can share a label (two AccumulateGrad), so compare ``.id`` to tell them apart."""

    def __new__(cls, label: str, node_id: str = ""):
        obj = super().__new__(cls, label)
        obj.id = node_id
        return obj


def svg_nodes(svg: str) -> list:
    """[(label, classes, style signature)] of the graphviz nodes in one SVG; the label is
    ``Node(text)``, a str that also carries the node's graphviz id as ``.id``."""
    nodes = []
    for classes, body in _NODE_RE.findall(svg):
        title = re.search(r"<title>(.*?)</title>", body, re.S)
        label = Node(" ".join(t for t in (_plain(x) for x in _TEXT_RE.findall(body)) if t),
                     _plain(title.group(1)) if title else "")
        shapes = re.findall(r"<(?:polygon|ellipse|path|rect|polyline)\b([^>]*)>", body)
        texts = re.findall(r"<text\b([^>]*)>", body)
        sig = tuple(tuple(re.findall(_STYLE_RE, attrs)) for attrs in shapes + texts)
        nodes.append((label, classes, sig))
    return nodes


_EDGE_RE = re.compile(r'<g\b[^>]*class="([^"]*\bedge\b[^"]*)"[^>]*>(.*?)</g>', re.S)


def _points(body: str) -> list:
    """Every (x, y) of the polygons and paths in an SVG fragment (Graphviz's coordinates)."""
    pts = []
    for attr in re.findall(r'\b(?:points|d)="([^"]*)"', body):
        nums = [float(v) for v in re.findall(r"-?\d+(?:\.\d+)?", attr)]
        pts.extend(zip(nums[0::2], nums[1::2]))
    return pts


def _center(pts: list) -> tuple:
    return (sum(x for x, _ in pts) / len(pts), sum(y for _, y in pts) / len(pts))


def node_centers(svg: str) -> dict:
    """{graphviz node id: (x, y)}: the middle of each node's box."""
    centers = {}
    for _, body in _NODE_RE.findall(svg):
        title = re.search(r"<title>(.*?)</title>", body, re.S)
        pts = _points(body)
        if title and pts:
            centers[_plain(title.group(1))] = _center(pts)
    return centers


def svg_edges(svg: str) -> list:
    """[(tail id, head id, classes, label, arrowhead centre or None)] of the edges of one SVG.

    Graphviz draws an edge ``tail -> head``'s arrowhead (its polygon) at the head, or at the
    tail with ``dir=back``: where the arrowhead is, is where the arrow points."""
    edges = []
    for classes, body in _EDGE_RE.findall(svg):
        title = _plain(re.search(r"<title>(.*?)</title>", body, re.S).group(1))
        tail, _, head = title.partition("->")
        polygons = re.findall(r"<polygon\b[^>]*>", body)
        arrow = _center(_points(polygons[0])) if polygons else None
        label = " ".join(t for t in (_plain(x) for x in _TEXT_RE.findall(body)) if t)
        edges.append((tail.strip(), head.strip(), classes, label, arrow))
    return edges


def highlighted(svg: str) -> list:
    """Labels of the highlighted node(s) of a stepper SVG (``minigrad.viz.BackwardStepper`` draws
    the current node gold with a 3-wide outline).

    A node whose class names it (``current``, ``highlight``, ``active``) wins; then the node(s)
    with the thickest outline, if thicker than the rest; then the node(s) drawn in a fill that no
    other node has. Legend-like nodes (HTML tables: many shapes) are left out."""
    nodes = [(lbl, cls, sig) for lbl, cls, sig in svg_nodes(svg) if len(sig) <= 3]
    marked = [lbl for lbl, cls, _ in nodes if re.search(r"\b(current|highlight\w*|active)\b", cls)]
    if marked:
        return marked

    def width(sig):
        return max((float(v) for attrs in sig for k, v in attrs if k == "stroke-width"
                    and re.fullmatch(r"[\d.]+", v)), default=1.0)

    widths = [width(sig) for _, _, sig in nodes]
    if widths and max(widths) > min(widths):
        return [lbl for (lbl, _, _), w in zip(nodes, widths) if w == max(widths)]

    def fill(sig):
        return next((v for attrs in sig for k, v in attrs if k == "fill" and v not in ("none", "transparent")), None)

    counts = {}
    for _, _, sig in nodes:
        counts[fill(sig)] = counts.get(fill(sig), 0) + 1
    if len(counts) < 2:
        return []
    return [lbl for lbl, _, sig in nodes if counts[fill(sig)] == 1]
