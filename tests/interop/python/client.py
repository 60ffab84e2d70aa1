"""Runs the interop session (tests/interop/session.json) with the official
Python SDK's ClientSession and prints what it got back as one JSON document.

Usage:
  python client.py --session FILE (--url URL | -- <server command...>)

Every step goes through the SDK's own typed method (list_tools, call_tool,
read_resource, get_prompt...), so what is exercised is the SDK's parsing of
the replayed answers, not a raw JSON-RPC pipe.
"""

from __future__ import annotations

import argparse
import json
import sys
from importlib.metadata import version
from typing import Any

import anyio
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError


def dump(model: Any) -> Any:
    """The wire form of an SDK model: aliases, no unset optional fields."""
    return model.model_dump(mode="json", by_alias=True, exclude_none=True)


async def run_step(session: ClientSession, step: dict[str, Any]) -> dict[str, Any]:
    method = step["method"]
    params = step.get("params", {})
    try:
        if method == "tools/list":
            result = await session.list_tools()
        elif method == "resources/list":
            result = await session.list_resources()
        elif method == "prompts/list":
            result = await session.list_prompts()
        elif method == "tools/call":
            result = await session.call_tool(params["name"], params.get("arguments", {}))
        elif method == "resources/read":
            result = await session.read_resource(params["uri"])
        elif method == "prompts/get":
            result = await session.get_prompt(params["name"], params.get("arguments"))
        else:
            return {"error": {"code": None, "message": f"client does not know {method}"}}
    except MCPError as error:
        return {"error": {"code": error.code, "message": error.error.message}}
    return {"result": dump(result)}


async def run_session(session: ClientSession, steps: list[dict[str, Any]], transport: str) -> dict[str, Any]:
    init = await session.initialize()
    out: dict[str, Any] = {
        "sdk": f"python mcp {version('mcp')}",
        "transport": transport,
        "era": "legacy",
        "initialize": {"serverInfo": dump(init.server_info), "protocolVersion": init.protocol_version},
        "steps": {},
    }
    for step in steps:
        out["steps"][step["name"]] = await run_step(session, step)
    return out


async def main() -> None:
    argv = sys.argv[1:]
    command: list[str] = []
    if "--" in argv:
        command = argv[argv.index("--") + 1 :]
        argv = argv[: argv.index("--")]
    parser = argparse.ArgumentParser()
    parser.add_argument("--session", required=True)
    parser.add_argument("--url")
    args = parser.parse_args(argv)
    with open(args.session, encoding="utf-8") as file:
        steps = json.load(file)["steps"]

    if args.url:
        async with streamable_http_client(args.url) as (read, write):
            async with ClientSession(read, write) as session:
                out = await run_session(session, steps, "http")
    else:
        if not command:
            parser.error("give --url URL or -- <server command>")
        server = StdioServerParameters(command=command[0], args=command[1:])
        async with stdio_client(server) as (read, write):
            async with ClientSession(read, write) as session:
                out = await run_session(session, steps, "stdio")
    sys.stdout.write(json.dumps(out, indent=2, sort_keys=True) + "\n")
    sys.stdout.flush()


if __name__ == "__main__":
    anyio.run(main)
