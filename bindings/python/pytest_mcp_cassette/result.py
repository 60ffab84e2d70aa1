"""What a cassette's session did, read from the run log the engine's launches append to."""

from __future__ import annotations

import json
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

JOURNAL_LIMIT = 10_000
"""The most requests ``CassetteResult.journal`` keeps (the engine's own journal limit)."""


def _empty_journal() -> dict[str, Any]:
    return {"requests": [], "dropped": 0, "limit": JOURNAL_LIMIT}


@dataclass
class CassetteResult:
    """The outcome of one cassette's session, summed over every launch of the engine.

    ``reports`` holds each replay's whole end-of-session report as the engine wrote
    it (every field, including any the engine adds later); ``report`` is the last.
    ``journal`` is every replay's journal in one, as the TypeScript helpers' result
    has it: ``{"requests": [...], "dropped": n, "limit": n}``, each request a dict
    with ``method``, ``tool`` / ``prompt`` / ``resource``, ``arguments``, ``session``,
    ``outcome`` and ``line`` (docs/replay.md, "The journal"). A stdio launch is one
    client session, so its requests are named by the launch's number.
    """

    cassette: str
    mode: str
    action: str
    launches: list[dict[str, Any]] = field(default_factory=list)
    misses: list[dict[str, Any]] = field(default_factory=list)
    inexact: list[str] = field(default_factory=list)
    repeats: list[str] = field(default_factory=list)
    out_of_order: list[str] = field(default_factory=list)
    unplayed: list[str] = field(default_factory=list)
    divergences: list[Any] = field(default_factory=list)
    timeouts: list[str] = field(default_factory=list)
    appended: int = 0
    reports: list[dict[str, Any]] = field(default_factory=list)
    journal: dict[str, Any] = field(default_factory=_empty_journal)

    @property
    def report(self) -> dict[str, Any] | None:
        """The last replay's whole report (``None`` when nothing was replayed)."""
        return self.reports[-1] if self.reports else None

    def add_report(self, report: dict[str, Any], session: str | None = None) -> None:
        """Adds one replay's report to the sums, and keeps it whole; its journal's
        requests are named ``session`` when given (a stdio launch)."""
        self.reports.append(report)
        self._add_journal(report.get("journal"), session)
        self.misses += report.get("misses", [])
        self.inexact += report.get("inexact", [])
        self.repeats += report.get("repeats", [])
        self.out_of_order += report.get("outOfOrder", [])
        self.unplayed += report.get("unplayed", [])
        self.divergences += report.get("divergences", [])
        self.timeouts += report.get("timeouts", [])

    def _add_journal(self, journal: Any, session: str | None) -> None:
        if not isinstance(journal, dict):
            return
        into = self.journal
        into["dropped"] += int(journal.get("dropped") or 0)
        for entry in journal.get("requests") or []:
            if len(into["requests"]) >= into["limit"]:
                into["dropped"] += 1
            else:
                into["requests"].append(entry if session is None else {**entry, "session": session})


def read_run_log(file: Path) -> list[dict[str, Any]]:
    """The run log's lines; a missing file or a torn last line reads as nothing."""
    try:
        text = file.read_text(encoding="utf-8")
    except OSError:
        return []
    lines = []
    for line in text.splitlines():
        try:
            lines.append(json.loads(line))
        except ValueError:
            continue
    return lines


def alive(pid: int) -> bool:
    """Whether a process still runs (a zombie does not: it will never write its end line)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    if sys.platform.startswith("linux"):
        try:
            stat = Path(f"/proc/{pid}/stat").read_text()
            return stat[stat.rindex(")") + 2] != "Z"
        except (OSError, ValueError, IndexError):
            return False
    return True


def open_launches(lines: list[dict[str, Any]]) -> list[int]:
    """The pids of launches that started, have not ended, and still run."""
    ended = {line.get("pid") for line in lines if line.get("event") == "end"}
    return [
        line["pid"]
        for line in lines
        if line.get("event") == "start" and line.get("pid") not in ended and alive(line["pid"])
    ]


def summarise(result: CassetteResult, lines: list[dict[str, Any]]) -> None:
    """Fills ``result`` from the run log: one launch per ``start`` line, with its ``end``."""
    for start in (line for line in lines if line.get("event") == "start"):
        end = next(
            (line for line in lines if line.get("event") == "end" and line.get("pid") == start.get("pid")),
            {},
        )
        launch = {"action": start.get("action")}
        for key in ("code", "appended", "error"):
            if end.get(key) is not None:
                launch[key] = end[key]
        result.launches.append(launch)
        if isinstance(end.get("report"), dict):
            result.add_report(end["report"], str(len(result.launches)))
        result.appended += int(end.get("appended") or 0)


def verdict(result: CassetteResult, lenient: bool, strict: bool, fail_on_unplayed: bool) -> str | None:
    """Why the session failed, in one message, or ``None``: the TypeScript helpers' rules."""
    failed = next((launch for launch in result.launches if launch.get("error")), None)
    if failed:
        return str(failed["error"])
    doubtful = [str(miss.get("message", miss)) for miss in result.misses]
    if not lenient:
        doubtful += [f"inexact answer: {text}" for text in result.inexact]
    if doubtful:
        return f"Replay of {result.cassette} missed {len(doubtful)} request(s): {'; '.join(doubtful)}"
    if strict and (result.divergences or result.timeouts):
        what = [json.dumps(item) if not isinstance(item, str) else item for item in result.divergences]
        return f"Replay of {result.cassette} (strict) saw the client diverge: {'; '.join(what + result.timeouts)}"
    if fail_on_unplayed and result.unplayed:
        return (
            f"Replay of {result.cassette} left {len(result.unplayed)} recorded request(s) unplayed: "
            + ", ".join(result.unplayed)
        )
    return None
