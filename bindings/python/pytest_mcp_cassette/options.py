"""The options a cassette takes, one to one with mcp-cassette's command-line options.

Each keyword of ``@pytest.mark.mcp_cassette(...)`` and of ``use_cassette(...)``
is either handled here (``cassette``, ``mode``, ``fail_on_unplayed``) or is
one flag of ``mcp-cassette record`` and/or ``mcp-cassette replay``. The
package's tests check every flag below against the engine's ``--help``.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .errors import CassetteUsageError

RECORD_MODES = ("once", "none", "all", "new_episodes")
MODE_ENV = "MCP_CASSETTE_MODE"


@dataclass(frozen=True)
class Flag:
    """One command-line option: its name, its kind, and the commands that take it."""

    flag: str
    kind: str  # "bool", "value", "list" or "path" (a file, made absolute)
    commands: tuple[str, ...]


REPLAY = ("replay",)
BOTH = ("record", "replay")

FLAGS: dict[str, Flag] = {
    "lenient": Flag("--lenient", "bool", REPLAY),
    "strict": Flag("--strict", "bool", REPLAY),
    "match_ignore": Flag("--match-ignore", "list", REPLAY),
    "answer_timeout_ms": Flag("--answer-timeout-ms", "value", REPLAY),
    "faults": Flag("--faults", "path", REPLAY),
    "seed": Flag("--seed", "value", REPLAY),
    "pace": Flag("--pace", "value", REPLAY),
    "pace_scale": Flag("--pace-scale", "value", REPLAY),
    "pace_cap_ms": Flag("--pace-cap-ms", "value", REPLAY),
    "redact": Flag("--redact", "list", BOTH),
    "pack": Flag("--pack", "path_list", BOTH),
    "no_detectors": Flag("--no-detectors", "bool", BOTH),
    "grace": Flag("--grace", "value", ("record",)),
}

# Keywords that are not flags of the engine.
OWN = ("cassette", "mode", "fail_on_unplayed")
KEYWORDS = (*OWN, *FLAGS)


def check_keywords(given: dict[str, Any], where: str) -> None:
    """Raises for a keyword the marker or ``use_cassette`` does not know."""
    unknown = sorted(set(given) - set(KEYWORDS))
    if unknown:
        raise CassetteUsageError(
            f"{where}: unknown option {unknown[0]!r} (known: {', '.join(KEYWORDS)})"
        )


def parse_mode(value: str, source: str) -> str:
    """A record mode's name, checked; ``source`` says where it came from."""
    normal = str(value).strip().lower().replace("-", "_")
    if normal not in RECORD_MODES:
        raise CassetteUsageError(
            f"unknown record mode {value!r} from {source} (expected one of {', '.join(RECORD_MODES)})"
        )
    return normal


def resolve_mode(*candidates: tuple[str | None, str]) -> str:
    """The environment variable, else the first candidate given (value, source), else ``once``."""
    env = os.environ.get(MODE_ENV, "")
    if env:
        return parse_mode(env, f"the {MODE_ENV} environment variable")
    for value, source in candidates:
        if value not in (None, ""):
            return parse_mode(value, source)  # type: ignore[arg-type]
    return "once"


def flags_for(command: str, options: dict[str, Any], base: Path, where: str) -> list[str]:
    """The flags ``command`` (``record`` or ``replay``) gets for the options; paths relative to ``base``."""
    args: list[str] = []
    for key, value in options.items():
        spec = FLAGS.get(key)
        if spec is None or command not in spec.commands or value is None or value is False:
            continue
        if spec.kind == "bool":
            if value is not True:
                raise CassetteUsageError(f"{where}: {key} must be True or False, not {value!r}")
            args.append(spec.flag)
        elif spec.kind in ("list", "path_list"):
            items = [value] if isinstance(value, (str, os.PathLike)) else list(value)
            for item in items:
                text = str(base / item) if spec.kind == "path_list" else str(item)
                args += [spec.flag, text]
        else:
            text = str(base / value) if spec.kind == "path" else str(value)
            args += [spec.flag, text]
    return args
