"""What the browser tests made, for the summary pytest prints at the end (see conftest.py)."""
from __future__ import annotations

from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
saved: list[Path] = []
timings: dict[str, tuple] = {}


def record_screenshot(path: Path) -> None:
    saved.append(Path(path))


def record_timing(name: str, seconds: float, phases: dict | None = None) -> None:
    timings[name] = (seconds, dict(phases or {}))
