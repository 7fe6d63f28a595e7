"""Start and stop a throw-away JupyterLab for the browser tests.

``LabServer(root_dir)`` runs ``python -m jupyterlab`` from the interpreter running pytest (the
project's venv) on a free localhost port with a random token, with its own config, settings,
workspaces and runtime dirs so that the user's JupyterLab set-up is neither read nor changed.
``stop()`` always ends it: a polite ``/api/shutdown`` (which also shuts the kernels down), then
SIGTERM to its process group, then SIGKILL.
"""
from __future__ import annotations

import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from urllib.parse import quote
from pathlib import Path

# Notebook / lab settings for a deterministic, fully-rendered page.
LAB_SETTINGS = {
    # Lab 4 only renders the cells on screen by default: render them all.
    "@jupyterlab/notebook-extension/tracker.jupyterlab-settings": {"windowingMode": "none", "scrollPastEnd": False},
    # No "would you like to receive news?" toast, no update checks.
    "@jupyterlab/apputils-extension/notification.jupyterlab-settings": {
        "fetchNews": "false", "checkForUpdates": False},
    # No "are you sure?" dialog when a tab is closed on a dirty notebook.
    "@jupyterlab/docmanager-extension/plugin.jupyterlab-settings": {"autosave": False},
}


def _die_with_parent() -> None:
    """Linux: SIGTERM JupyterLab if the test process dies (killed by a CI timeout, say), since
    its own process group and session keep it out of reach of a signal sent to pytest's."""
    try:
        import ctypes
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except Exception:  # noqa: BLE001 - best effort
        pass


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class LabServer:
    def __init__(self, root_dir: Path, python: str | None = None, startup_timeout: float = 90.0):
        self.root_dir = Path(root_dir)
        self.python = python or sys.executable
        self.startup_timeout = startup_timeout
        self.port = free_port()
        self.token = secrets.token_hex(24)
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen | None = None
        self._home = Path(tempfile.mkdtemp(prefix="minigrad-e2e-lab-"))
        self.log_path = self._home / "jupyterlab.log"
        self._log = None

    # ---- helpers ------------------------------------------------------------------------
    def _env(self) -> dict:
        env = dict(os.environ)
        dirs = {
            "JUPYTER_CONFIG_DIR": self._home / "config",
            "JUPYTERLAB_SETTINGS_DIR": self._home / "settings",
            "JUPYTERLAB_WORKSPACES_DIR": self._home / "workspaces",
            "JUPYTER_RUNTIME_DIR": self._home / "runtime",
            "IPYTHONDIR": self._home / "ipython",
            "MPLCONFIGDIR": self._home / "matplotlib",
        }
        for key, path in dirs.items():
            path.mkdir(parents=True, exist_ok=True)
            env[key] = str(path)
        for rel, content in LAB_SETTINGS.items():
            f = dirs["JUPYTERLAB_SETTINGS_DIR"] / rel
            f.parent.mkdir(parents=True, exist_ok=True)
            f.write_text(json.dumps(content))
        # No news feed or update check from the server side either (no network here anyway).
        (dirs["JUPYTER_CONFIG_DIR"] / "jupyter_server_config.json").write_text(json.dumps({
            "LabApp": {"news_url": None, "check_for_updates_class": "jupyterlab.NeverCheckForUpdate"}}))
        env.pop("JUPYTER_TOKEN", None)
        env["PYTHONUNBUFFERED"] = "1"
        return env

    def api(self, method: str, path: str, body: dict | None = None, timeout: float = 10.0):
        req = urllib.request.Request(
            self.url + path, method=method,
            data=None if body is None else json.dumps(body).encode(),
            headers={"Authorization": f"token {self.token}", "Content-Type": "application/json"})
        with urllib.request.urlopen(req, timeout=timeout) as r:
            raw = r.read()
        return json.loads(raw) if raw else None

    def log_tail(self, n: int = 60) -> str:
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-n:])
        except OSError:
            return ""

    def lab_url(self, notebook: str) -> str:
        return f"{self.url}/lab/tree/{quote(notebook)}?token={self.token}"

    # ---- life cycle ---------------------------------------------------------------------
    def start(self) -> "LabServer":
        cmd = [
            self.python, "-m", "jupyterlab",
            "--no-browser", "--ServerApp.open_browser=False",
            "--ServerApp.ip=127.0.0.1", f"--ServerApp.port={self.port}", "--ServerApp.port_retries=0",
            f"--IdentityProvider.token={self.token}",
            f"--ServerApp.root_dir={self.root_dir}",
        ]
        if hasattr(os, "geteuid") and os.geteuid() == 0:  # CI runs as root
            cmd.append("--allow-root")
        self._log = open(self.log_path, "wb")
        self.proc = subprocess.Popen(cmd, cwd=self.root_dir, env=self._env(), stdin=subprocess.DEVNULL,
                                     stdout=self._log, stderr=subprocess.STDOUT, start_new_session=True,
                                     preexec_fn=_die_with_parent if sys.platform.startswith("linux") else None)
        deadline = time.monotonic() + self.startup_timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"JupyterLab exited with code {self.proc.returncode}:\n{self.log_tail()}")
            try:
                status = self.api("GET", "/api/status", timeout=2)
                if status is not None:
                    return self
            except (urllib.error.URLError, ConnectionError, OSError, ValueError):
                pass
            time.sleep(0.25)
        tail = self.log_tail()
        self.stop()
        raise RuntimeError(f"JupyterLab did not answer /api/status in {self.startup_timeout:.0f}s:\n{tail}")

    def shutdown_kernels_for(self, path: str) -> None:
        """Delete the sessions (and so the kernels) of one notebook; errors are ignored."""
        try:
            for s in self.api("GET", "/api/sessions") or []:
                if s.get("path") == path or s.get("path", "").endswith("/" + path):
                    self.api("DELETE", f"/api/sessions/{s['id']}")
        except Exception:  # noqa: BLE001 - best effort clean-up
            pass

    def stop(self) -> None:
        proc, self.proc = self.proc, None
        if proc is not None and proc.poll() is None:
            try:  # polite: the server shuts its kernels down too
                self.api("POST", "/api/shutdown", timeout=5)
                proc.wait(timeout=15)
            except Exception:  # noqa: BLE001
                pass
            for sig, wait in ((signal.SIGTERM, 10), (signal.SIGKILL, 5)):
                if proc.poll() is not None:
                    break
                try:
                    os.killpg(proc.pid, sig)
                except ProcessLookupError:
                    break
                try:
                    proc.wait(timeout=wait)
                except subprocess.TimeoutExpired:
                    pass
        if self._log is not None:
            self._log.close()
            self._log = None
        if proc is not None and os.environ.get("MINIGRAD_E2E_KEEP_LAB_DIR", "") in ("", "0"):
            shutil.rmtree(self._home, ignore_errors=True)

    def __enter__(self) -> "LabServer":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()
