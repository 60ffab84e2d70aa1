"""An engine process the package starts itself: the HTTP recorder or replay behind ``server_url``."""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
import threading
from pathlib import Path
from typing import TYPE_CHECKING

from .errors import CassetteFailure, CassetteUsageError

if TYPE_CHECKING:
    from .result import CassetteResult

_STARTUP_SECONDS = 60


def _die_with_parent() -> None:
    """Linux: the child gets SIGTERM if this process dies, so a killed test run leaves none behind."""
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


class Background:
    """A started engine process; ``url`` is what it printed to reach it, once it did."""

    def __init__(self, argv: list[str], ready: re.Pattern[str], report: Path | None = None):
        self.argv = argv
        self.report = report
        self.url = ""
        self.code: int | None = None
        self.stderr: list[str] = []
        self._ready = threading.Event()
        self._pattern = ready
        self._process = subprocess.Popen(
            argv,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            preexec_fn=_die_with_parent if sys.platform.startswith("linux") else None,
        )
        threading.Thread(target=self._read, daemon=True).start()
        if not self._ready.wait(_STARTUP_SECONDS):
            self._process.kill()
        self.code = self._process.poll()

    def _read(self) -> None:
        assert self._process.stderr is not None
        for line in self._process.stderr:
            self.stderr.append(line.rstrip("\n"))
            found = self._pattern.search(line.strip())
            if found and not self.url:
                self.url = found.group(1)
                self._ready.set()
        self._process.wait()
        self._ready.set()

    def last_error(self) -> str:
        """The engine's last line on stderr, without its ``mcp-cassette:`` prefix."""
        lines = [line for line in self.stderr if line.strip()]
        return re.sub(r"^mcp-cassette: ", "", lines[-1]) if lines else f"exit {self._process.returncode}"

    def check_started(self) -> str:
        """The URL, or a usage error with the engine's own reason."""
        if not self.url:
            self._process.kill()
            self._process.wait()
            raise CassetteUsageError(f"{' '.join(self.argv[:3])} did not start: {self.last_error()}")
        return self.url

    def stop(self, result: CassetteResult) -> str | None:
        """Ends the process (SIGTERM: the recorder keeps what it recorded), adds its report, says what failed."""
        if self._process.poll() is None:
            self._process.send_signal(signal.SIGTERM)
        try:
            code = self._process.wait(30)
        except subprocess.TimeoutExpired:
            self._process.kill()
            code = self._process.wait()
        action = "record" if "record" in self.argv else "replay"
        launch: dict[str, object] = {"action": action, "code": code}
        if self.report is not None:
            try:
                result.add_report(json.loads(self.report.read_text(encoding="utf-8")))
            except (OSError, ValueError):
                launch["error"] = f"the HTTP replay wrote no report: {self.last_error()}"
        elif code not in (0, -signal.SIGTERM, 128 + signal.SIGTERM):
            launch["error"] = self.last_error()
        result.launches.append(launch)
        error = launch.get("error")
        return str(error) if error else None


__all__ = ["Background", "CassetteFailure"]
