"""One cassette for one test: decide by the record mode whether to record or replay, hand
the client the engine's command line (or a local URL), and after the session say how it went.

Everything that touches the cassette is done by the mcp-cassette engine: ``record``
(which takes the cassette's claim, so parallel workers record it once and the others
wait, then replay) and ``replay``. This module only builds their command lines and
reads the run log they append to (``--run-log``).
"""

from __future__ import annotations

import os
import re
import secrets
import shutil
import signal
import tempfile
import time
from pathlib import Path
from typing import Any

from .engine import find_engine
from .errors import CassetteFailure, CassetteUsageError
from .options import check_keywords, flags_for
from .process import Background
from .result import CassetteResult, open_launches, read_run_log, summarise, verdict


def action_for(mode: str, exists: bool, cassette: Path) -> str:
    """``record``, ``replay`` or ``replay-append``, as the engine's modes decide."""
    if mode == "all":
        return "record"
    if exists:
        return "replay-append" if mode == "new_episodes" else "replay"
    if mode == "none":
        raise CassetteUsageError(
            f'the cassette {cassette} does not exist and record mode "none" forbids recording it '
            '(record it locally with mode "once", or commit it)'
        )
    return "record"


class Cassette:
    """A recorder or replay waiting for the client under test.

    ``server_command`` / ``server_url`` give the client what to connect to; ``finish``
    waits for the session to end and raises ``CassetteFailure`` on a miss.
    """

    def __init__(self, path: str | os.PathLike[str], mode: str, options: dict[str, Any], base: Path, where: str):
        check_keywords(options, where)
        self.path = Path(path).resolve()
        self.mode = mode
        self._options = {key: value for key, value in options.items() if key not in ("cassette", "mode")}
        self._base = base
        self._where = where
        if self.path.is_dir():
            raise CassetteUsageError(f"the cassette {self.path} is a directory")
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.action = action_for(mode, self.path.is_file(), self.path)
        # A cassette with a live claim is still being written: the recorder waits for it, then replays.
        if self.action == "replay" and mode == "once" and Path(f"{self.path}.claim").exists():
            self.action = "record"
        self._engine = find_engine()
        self._work = Path(tempfile.mkdtemp(prefix="mcp-cassette-py-"))
        self._run_log = self._work / "run.jsonl"
        self._group = f"{os.getpid()}-{secrets.token_hex(4)}"
        self._http: Background | None = None
        self._finished: tuple[CassetteResult, str | None] | None = None

    def _flags(self, command: str) -> list[str]:
        return flags_for(command, self._options, self._base, self._where)

    def _need_server(self, what: list[str] | str) -> None:
        if self.action != "replay" and not what:
            raise CassetteUsageError(f'record mode "{self.mode}" needs the live server to write {self.path}')

    def server_command(self, command: list[str]) -> list[str]:
        """The command line to give the client in place of ``command``: it records the first time, replays after."""
        command = [str(part) for part in command]
        self._need_server(command)
        engine = list(self._engine.argv)
        if self.action == "record":
            flags = ["-o", str(self.path), "--mode", self.mode, "--group", self._group, "--run-log", str(self._run_log)]
            return [*engine, "record", *flags, *self._flags("record"), "--", *command]
        if self.action == "replay-append":
            flags = ["--new-episodes", "--group", self._group, "--run-log", str(self._run_log)]
            return [*engine, "replay", str(self.path), *flags, *self._flags("replay"), "--", *command]
        return [*engine, "replay", str(self.path), "--run-log", str(self._run_log), *self._flags("replay")]

    def server_url(self, url: str) -> str:
        """A local URL to give the client in place of ``url``: a recording proxy the first time, a replay after."""
        self._need_server(url)
        if self._http is not None:
            return self._http.url
        if self.action == "replay-append":
            raise CassetteUsageError('record mode "new_episodes" works over stdio only (server_command)')
        engine = list(self._engine.argv)
        listen = ["--listen", "127.0.0.1:0"]
        if self.action == "record":
            recorder = Background([*engine, "record", "-o", str(self.path), "--url", url, *listen, *self._flags("record")],
                                  re.compile(r"point the client at (\S+)"))
            if recorder.url or self.mode != "once" or recorder.code != 6:
                self._http = recorder
                return recorder.check_started()
            # Exit 6: another worker holds the claim. Wait for its cassette, then replay it.
            self._wait_for_claim()
            self.action = "replay"
        report = self._work / "report.json"
        self._http = Background([*engine, "replay", str(self.path), *listen, "--report", str(report), *self._flags("replay")],
                                re.compile(r"replaying .* at (\S+)$"), report)
        return self._http.check_started()

    def _wait_for_claim(self) -> None:
        claim = Path(f"{self.path}.claim")
        deadline = time.monotonic() + 600
        while claim.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        if not self.path.is_file():
            raise CassetteFailure(f"another worker's recording of {self.path} was not kept")

    def finish(self, failed: bool = False, wait: float = 10.0) -> CassetteResult:
        """Waits for the session to end and sums it up; raises ``CassetteFailure`` on a miss.

        With ``failed`` (the test failed already) it ends what is still running at once
        and raises nothing: the test's own error matters more than the misses it caused.
        """
        if self._finished is None:
            self._finished = self._collect(failed, wait)
        result, failure = self._finished
        if failure and not failed:
            raise CassetteFailure(failure)
        return result

    @property
    def result(self) -> CassetteResult | None:
        """The result, once ``finish`` ran."""
        return self._finished[0] if self._finished else None

    def _collect(self, failed: bool, wait: float) -> tuple[CassetteResult, str | None]:
        try:
            lines = read_run_log(self._run_log)
            if failed:
                _terminate(open_launches(lines))
            deadline = time.monotonic() + wait
            while open_launches(lines) and time.monotonic() < deadline:
                time.sleep(0.025)
                lines = read_run_log(self._run_log)
            unended = open_launches(lines)
            _terminate(unended)  # nothing outlives the test
            result = CassetteResult(str(self.path), self.mode, self.action)
            summarise(result, lines)
            http_failure = self._http.stop(result) if self._http else None
        finally:
            shutil.rmtree(self._work, ignore_errors=True)
        failure = http_failure or verdict(
            result,
            lenient=bool(self._options.get("lenient")),
            strict=bool(self._options.get("strict")),
            fail_on_unplayed=bool(self._options.get("fail_on_unplayed")),
        )
        if failure is None and unended:
            failure = (
                f"the engine serving {self.path} did not report how it ended (still running after the test): "
                "close the client before the test ends"
            )
        return result, failure

    def close(self) -> None:
        """Ends whatever still runs, without a verdict (for a session that crashed)."""
        if self._finished is None:
            self.finish(failed=True, wait=0)


def _terminate(pids: list[int]) -> None:
    for pid in pids:
        try:
            os.kill(pid, signal.SIGTERM)
        except OSError:
            pass
