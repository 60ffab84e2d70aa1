"""pytest-mcp-cassette: record an MCP server once, replay it in every test run after.

The ``mcp_cassette`` fixture and marker come from :mod:`pytest_mcp_cassette.plugin`;
``use_cassette`` and ``use_cassette_async`` serve code that is not a pytest suite.
"""

from ._version import __version__
from .cassette import Cassette
from .context import use_cassette, use_cassette_async
from .engine import find_engine
from .errors import CassetteFailure, CassetteUsageError
from .result import CassetteResult

__all__ = [
    "Cassette",
    "CassetteFailure",
    "CassetteResult",
    "CassetteUsageError",
    "__version__",
    "find_engine",
    "use_cassette",
    "use_cassette_async",
]
