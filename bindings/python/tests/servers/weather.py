"""A small FastMCP server for the package's tests: stdio by default, Streamable HTTP with --http PORT.

Each call appends a line to the file named by WEATHER_CALLS (when set), so a test
can tell a replay (no calls) from a recording.
"""

import os
import sys

from fastmcp import FastMCP

server = FastMCP("weather")


def _count() -> None:
    calls = os.environ.get("WEATHER_CALLS")
    if calls:
        with open(calls, "a", encoding="utf-8") as file:
            file.write(f"{os.getpid()}\n")


@server.tool
def forecast(city: str) -> str:
    """Tomorrow's weather in a city."""
    _count()
    return {"Paris": "sunny", "Oslo": "snow"}.get(city, "rain")


@server.tool
def stamp(city: str, request_id: str) -> str:
    """Like forecast, with an argument that changes every run."""
    _count()
    return f"{city}: sunny"


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "--http":
        server.run(transport="http", host="127.0.0.1", port=int(sys.argv[2]), show_banner=False)
    else:
        server.run(show_banner=False)
