"""``[testing]`` of ``mcp-cassette.toml``: the suite's defaults, as the TypeScript helpers read them.

The file is the first ``mcp-cassette.toml`` found from the working folder up.
``cassette-dir`` (relative to the file), ``mode``, ``match``, ``match-ignore``,
``redact`` and ``pack`` fill in what a test did not set. The engine reads its
own sections (``[record]``, ``[replay]``) itself.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from .errors import CassetteUsageError

CONFIG_FILE = "mcp-cassette.toml"


def find_config(start: Path) -> Path | None:
    """The config file that applies in ``start``, if any."""
    for folder in (start, *start.parents):
        candidate = folder / CONFIG_FILE
        if candidate.is_file():
            return candidate
    return None


def testing_defaults(start: Path) -> dict[str, Any]:
    """The ``[testing]`` table, as option keywords; ``cassette_dir`` made absolute."""
    file = find_config(start.resolve())
    if file is None:
        return {}
    try:
        table = tomllib.loads(file.read_text(encoding="utf-8")).get("testing", {})
    except (OSError, tomllib.TOMLDecodeError) as error:
        raise CassetteUsageError(f"{file}: {error}") from None
    out: dict[str, Any] = {}
    if "cassette-dir" in table:
        out["cassette_dir"] = file.parent / str(table["cassette-dir"])
    if "mode" in table:
        out["mode"] = str(table["mode"])
    match = table.get("match")
    if match not in (None, "exact", "lenient"):
        raise CassetteUsageError(f'{file}: [testing] match must be "exact" or "lenient", not {match!r}')
    if match == "lenient":
        out["lenient"] = True
    for key in ("match-ignore", "redact"):
        if key in table:
            out[key.replace("-", "_")] = [str(item) for item in table[key]]
    if "pack" in table:
        out["pack"] = [str(file.parent / str(item)) for item in table["pack"]]
    return out
