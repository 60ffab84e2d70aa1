"""Finding the mcp-cassette engine the package drives, and checking its version.

The order: ``MCP_CASSETTE_BIN`` (a path, or a command line such as
``deno run -A cli.ts``), then the binary bundled in the wheel, then
``mcp-cassette`` on ``PATH``. The engine must be the package's own version:
the command-line options and the run log it reads are those of that version.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from ._version import __version__
from .errors import CassetteUsageError

ENGINE_ENV = "MCP_CASSETTE_BIN"
_BUNDLED = Path(__file__).parent / "bin" / ("mcp-cassette.exe" if sys.platform == "win32" else "mcp-cassette")


@dataclass(frozen=True)
class Engine:
    """The engine found: how to start it, where it came from, and its version."""

    argv: tuple[str, ...]
    source: str
    version: str

    def describe(self) -> str:
        """One line saying which engine is used, e.g. for ``pytest`` 's header."""
        return f"mcp-cassette {self.version} at {shlex.join(self.argv)} ({self.source})"


def _locate() -> tuple[list[str], str]:
    given = os.environ.get(ENGINE_ENV, "").strip()
    if given:
        return shlex.split(given), f"from {ENGINE_ENV}"
    if _BUNDLED.is_file() and os.access(_BUNDLED, os.X_OK):
        return [str(_BUNDLED)], "bundled in the wheel"
    on_path = shutil.which("mcp-cassette")
    if on_path:
        return [on_path], "mcp-cassette on PATH"
    raise CassetteUsageError(
        "pytest-mcp-cassette found no mcp-cassette engine: this installation bundles none for "
        f"{sys.platform}; set {ENGINE_ENV} to the mcp-cassette binary or put mcp-cassette on PATH"
    )


def _version_of(argv: list[str], source: str) -> str:
    try:
        done = subprocess.run([*argv, "--version"], capture_output=True, text=True, timeout=60)
    except OSError as error:
        raise CassetteUsageError(
            f"the mcp-cassette engine {shlex.join(argv)} ({source}) does not start: {error.strerror or error}; "
            f"set {ENGINE_ENV} to a working mcp-cassette binary"
        ) from None
    except subprocess.TimeoutExpired:
        raise CassetteUsageError(
            f"the mcp-cassette engine {shlex.join(argv)} ({source}) did not answer --version within 60 s"
        ) from None
    words = done.stdout.split()
    if done.returncode != 0 or len(words) < 2 or words[0] != "mcp-cassette":
        raise CassetteUsageError(
            f"{shlex.join(argv)} ({source}) is not an mcp-cassette engine (--version printed "
            f"{done.stdout.strip()[:80]!r}); set {ENGINE_ENV} to the mcp-cassette binary"
        )
    return words[1]


_found: Engine | None = None


def find_engine() -> Engine:
    """The engine to drive, found once per process; raises ``CassetteUsageError`` naming what to do."""
    global _found
    if _found is not None and os.environ.get(ENGINE_ENV, "").strip() == _found_env:
        return _found
    argv, source = _locate()
    version = _version_of(argv, source)
    if version != __version__:
        raise CassetteUsageError(
            f"pytest-mcp-cassette {__version__} needs mcp-cassette {__version__}, but the engine "
            f"{shlex.join(argv)} ({source}) is {version}: install the matching versions, or point "
            f"{ENGINE_ENV} at mcp-cassette {__version__}"
        )
    _remember(Engine(tuple(argv), source, version))
    return _found  # type: ignore[return-value]


_found_env = ""


def _remember(engine: Engine) -> None:
    global _found, _found_env
    _found = engine
    _found_env = os.environ.get(ENGINE_ENV, "").strip()
