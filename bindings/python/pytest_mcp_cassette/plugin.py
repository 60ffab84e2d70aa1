"""The pytest plugin: the ``mcp_cassette`` fixture, its marker, ini options and command-line option.

The record mode is, first found: the ``MCP_CASSETTE_MODE`` environment variable,
``--mcp-cassette-mode``, the marker's ``mode=``, the ``mcp_cassette_mode`` ini option,
``[testing] mode`` of mcp-cassette.toml, then ``once``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .cassette import Cassette
from .config import testing_defaults
from .engine import find_engine
from .errors import CassetteFailure, CassetteUsageError
from .options import KEYWORDS, check_keywords, parse_mode, resolve_mode

MARKER = "mcp_cassette"
_REPORT = pytest.StashKey[dict[str, pytest.TestReport]]()


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("mcp-cassette")
    group.addoption(
        "--mcp-cassette-mode",
        default=None,
        help="Record mode for every cassette: once, none, all, new_episodes (MCP_CASSETTE_MODE wins)",
    )
    parser.addini("mcp_cassette_dir", "Folder of the cassettes, relative to rootdir (default tests/cassettes)")
    parser.addini("mcp_cassette_mode", "Record mode when a test sets none: once, none, all, new_episodes")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        f"{MARKER}({', '.join(KEYWORDS)}): options of the test's MCP cassette (see pytest-mcp-cassette)",
    )
    try:
        resolve_mode((config.getoption("mcp_cassette_mode"), "--mcp-cassette-mode"))
        if config.getini("mcp_cassette_mode"):
            parse_mode(config.getini("mcp_cassette_mode"), "the mcp_cassette_mode ini option")
    except CassetteUsageError as error:
        raise pytest.UsageError(f"pytest-mcp-cassette: {error}") from None


def pytest_report_header(config: pytest.Config) -> str:
    try:
        return f"mcp-cassette: {find_engine().describe()}"
    except CassetteUsageError as error:
        return f"mcp-cassette: {error}"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Checks every marker before any test runs: a typo stops the run with one line."""
    for item in items:
        for marker in item.iter_markers(MARKER):
            try:
                if marker.args:
                    raise CassetteUsageError(f"takes keywords only, not {marker.args!r}")
                check_keywords(marker.kwargs, f"@pytest.mark.{MARKER}")
                if "mode" in marker.kwargs:
                    parse_mode(marker.kwargs["mode"], f"@pytest.mark.{MARKER}(mode=...)")
            except CassetteUsageError as error:
                raise pytest.UsageError(f"{item.nodeid}: {error}") from None


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    report = yield
    item.stash.setdefault(_REPORT, {})[report.when] = report
    return report


def _marker_options(item: pytest.Item) -> dict[str, Any]:
    options: dict[str, Any] = {}
    # The closest marker wins: a test's over its class's over its module's.
    for marker in reversed(list(item.iter_markers(MARKER))):
        options.update(marker.kwargs)
    return options


def default_cassette(item: pytest.Item, folder: Path) -> Path:
    """``<folder>/<module>/<test>.cassette.jsonl``, the test's name made safe for a file name."""
    module = Path(str(item.path)).stem
    name = re.sub(r"[^A-Za-z0-9_.-]+", "-", item.name).strip("-")[:120]
    return folder / module / f"{name}.cassette.jsonl"


def _open(request: pytest.FixtureRequest) -> Cassette:
    config = request.config
    item = request.node
    options = _marker_options(item)
    defaults = testing_defaults(config.rootpath)
    ini_dir = config.getini("mcp_cassette_dir")
    folder = config.rootpath / ini_dir if ini_dir else defaults.pop("cassette_dir", config.rootpath / "tests" / "cassettes")
    defaults.pop("cassette_dir", None)
    given = options.pop("cassette", None)
    path = folder / given if given else default_cassette(item, folder)
    mode = resolve_mode(
        (config.getoption("mcp_cassette_mode"), "--mcp-cassette-mode"),
        (options.pop("mode", None), f"@pytest.mark.{MARKER}(mode=...)"),
        (config.getini("mcp_cassette_mode") or None, "the mcp_cassette_mode ini option"),
        (defaults.pop("mode", None), "mcp-cassette.toml [testing] mode"),
    )
    return Cassette(path, mode, {**defaults, **options}, config.rootpath, f"@pytest.mark.{MARKER}")


@pytest.fixture
def mcp_cassette(request: pytest.FixtureRequest) -> Iterator[Cassette]:
    """The test's cassette: ``server_command([...])`` or ``server_url(url)`` for the client,
    ``path`` and ``mode``; after the test, ``result`` (``misses``, ``inexact``, ``out_of_order``,
    ``unplayed``, the whole ``report``). A miss fails the test at teardown with replay's message."""
    try:
        cassette = _open(request)
    except CassetteUsageError as error:
        pytest.fail(f"pytest-mcp-cassette: {error}", pytrace=False)
    try:
        yield cassette
    finally:
        call = request.node.stash.get(_REPORT, {}).get("call")
        failed = call is None or call.failed
        try:
            cassette.finish(failed=failed)
        except (CassetteFailure, CassetteUsageError) as error:
            pytest.fail(f"mcp-cassette: {error}", pytrace=False)
