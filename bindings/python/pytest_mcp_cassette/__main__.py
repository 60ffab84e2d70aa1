"""``python -m pytest_mcp_cassette``: says which mcp-cassette engine the package uses."""

import sys

from .engine import find_engine
from .errors import CassetteUsageError

try:
    print(find_engine().describe())
except CassetteUsageError as error:
    print(error, file=sys.stderr)
    sys.exit(2)
