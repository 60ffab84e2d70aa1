"""The package's own suite: each test writes a small test suite and runs pytest on it
(``pytester``), with the official Python SDK client against the FastMCP server in
servers/weather.py, so what is tested is the plugin as a user's suite sees it."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest_plugins = ["pytester"]

SERVER = Path(__file__).parent / "servers" / "weather.py"

# What an inner suite imports: a client session over stdio or HTTP, run with anyio.
CLIENT = '''
import os
import anyio
from mcp import Client
from mcp.client.stdio import StdioServerParameters


def ask(target, city="Paris", tool="forecast", mode="auto", **extra):
    async def session():
        server = target if isinstance(target, str) else StdioServerParameters(command=target[0], args=target[1:], env=dict(os.environ))
        async with Client(server, cache=None, mode=mode) as client:
            result = await client.call_tool(tool, {"city": city, **extra})
            return result.content[0].text
    return anyio.run(session)
'''


@pytest.fixture
def suite(pytester: pytest.Pytester, tmp_path: Path) -> pytest.Pytester:
    """A pytester folder with the server (as weather_server.py), the client helper, and a call counter."""
    shutil.copy(SERVER, pytester.path / "weather_server.py")
    pytester.makepyfile(mcp_client=CLIENT)
    pytester.makeini("[pytest]\n")
    os.environ["WEATHER_CALLS"] = str(tmp_path / "calls.txt")
    return pytester


def calls(tmp_path: Path) -> int:
    """How many tool calls reached the live server."""
    file = tmp_path / "calls.txt"
    return len(file.read_text().splitlines()) if file.exists() else 0


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture
def http_server() -> Iterator[str]:
    """The FastMCP server over Streamable HTTP; its URL."""
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, str(SERVER), "--http", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), 0.2).close()
                break
            except OSError:
                time.sleep(0.1)
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        process.terminate()
        process.wait(10)


def engine_processes(marker: str) -> list[str]:
    """Command lines of running processes that mention ``marker`` (Linux /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            line = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if marker in line and state != "Z":
            found.append(line)
    return found
