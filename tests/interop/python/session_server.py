"""The Python SDK's side of the modern-era (2026-07-28) golden cassettes: a
server built with mcp 2.3.0's MCPServer offering what the shared session
(session.json) asks for - the tools echo and get-sum, the resource
demo://resource/static/document/architecture.md, the prompts simple-prompt and
args-prompt. The SDK serves both eras from the same definitions: over stdio
its dual-era loop picks the era from the opening request, and over Streamable
HTTP a request carrying the 2026-07-28 `_meta` envelope is served statelessly.

Usage: python session_server.py (--stdio | --http PORT)
Over HTTP it prints "listening on http://127.0.0.1:PORT/mcp" on stderr once
the port is bound.
"""

from __future__ import annotations

import socket
import sys

import anyio
import uvicorn
from mcp.server.mcpserver import MCPServer

ARCHITECTURE = "demo://resource/static/document/architecture.md"

server = MCPServer("interop-python-session-server", version="1.0.0")


@server.tool(title="Echo Tool")
def echo(message: str) -> str:
    """Echoes back the input string"""
    return f"Echo: {message}"


@server.tool(name="get-sum", title="Get Sum Tool")
def get_sum(a: int, b: int) -> str:
    """Returns the sum of two numbers"""
    return f"The sum of {a} and {b} is {a + b}."


@server.resource(ARCHITECTURE, name="architecture.md", mime_type="text/markdown")
def architecture() -> str:
    """A static document"""
    return "# Architecture\n\nRecorded once, replayed to every SDK.\n"


@server.prompt(name="simple-prompt", title="Simple Prompt")
def simple_prompt() -> str:
    """A prompt with no arguments"""
    return "This is a simple prompt without arguments."


@server.prompt(name="args-prompt", title="Arguments Prompt")
def args_prompt(city: str, state: str | None = None) -> str:
    """A prompt with two arguments, one required and one optional"""
    return f"What's weather in {city}{', ' + state if state else ''}?"


async def serve_http(port: int) -> None:
    # Bind first, so the URL printed is one that already accepts connections.
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", port))
    app = server.streamable_http_app()
    config = uvicorn.Config(app, log_level="warning")
    print(f"listening on http://127.0.0.1:{sock.getsockname()[1]}/mcp", file=sys.stderr, flush=True)
    await uvicorn.Server(config).serve(sockets=[sock])


if __name__ == "__main__":
    if sys.argv[1:2] == ["--stdio"]:
        server.run("stdio")
    elif sys.argv[1:2] == ["--http"] and len(sys.argv) == 3:
        anyio.run(serve_http, int(sys.argv[2]))
    else:
        sys.exit("usage: session_server.py (--stdio | --http PORT)")
