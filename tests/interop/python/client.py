"""Runs the interop session (tests/interop/session.json) with the official
Python SDK's high-level Client and prints what it got back as one JSON document.

Usage:
  python client.py --session FILE [--mode auto|legacy] (--url URL | -- <server command...>)

`--mode auto` (the SDK's default) probes `server/discover` (2026-07-28) and
falls back to the `initialize` handshake when the server answers it as a
legacy server would; `--mode legacy` sends only `initialize`. The response
cache is off, so every step reaches the server. Every step goes through the
SDK's own typed method (list_tools, call_tool, read_resource, get_prompt...),
so what is exercised is the SDK's parsing of the replayed answers, not a raw
JSON-RPC pipe.
"""

from __future__ import annotations

import argparse
import json
import sys
from importlib.metadata import version
from typing import Any

import anyio
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp.shared.exceptions import MCPError


def dump(model: Any) -> Any:
    """The wire form of an SDK model: aliases, no unset optional fields."""
    return model.model_dump(mode="json", by_alias=True, exclude_none=True)


async def run_step(client: Client, step: dict[str, Any]) -> dict[str, Any]:
    method = step["method"]
    params = step.get("params", {})
    try:
        if method == "tools/list":
            result = await client.list_tools()
        elif method == "resources/list":
            result = await client.list_resources()
        elif method == "prompts/list":
            result = await client.list_prompts()
        elif method == "tools/call":
            result = await client.call_tool(params["name"], params.get("arguments", {}))
        elif method == "resources/read":
            result = await client.read_resource(params["uri"])
        elif method == "prompts/get":
            result = await client.get_prompt(params["name"], params.get("arguments"))
        else:
            return {"error": {"code": None, "message": f"client does not know {method}"}}
    except MCPError as error:
        return {"error": {"code": error.code, "message": error.error.message}}
    return {"result": dump(result)}


async def main() -> None:
    argv = sys.argv[1:]
    command: list[str] = []
    if "--" in argv:
        command = argv[argv.index("--") + 1 :]
        argv = argv[: argv.index("--")]
    parser = argparse.ArgumentParser()
    parser.add_argument("--session", required=True)
    parser.add_argument("--url")
    parser.add_argument("--mode", choices=["auto", "legacy"], default="auto")
    args = parser.parse_args(argv)
    with open(args.session, encoding="utf-8") as file:
        steps = json.load(file)["steps"]
    if not args.url and not command:
        parser.error("give --url URL or -- <server command>")
    server: str | StdioServerParameters = args.url or StdioServerParameters(command=command[0], args=command[1:])

    async with Client(server, mode=args.mode, cache=None) as client:
        info = client.server_info
        out: dict[str, Any] = {
            "sdk": f"python mcp {version('mcp')}",
            "transport": "http" if args.url else "stdio",
            "era": "modern" if client.protocol_version >= "2026-07-28" else "legacy",
            "initialize": {
                "serverInfo": None if info is None else dump(info),
                "protocolVersion": client.protocol_version,
            },
            "steps": {},
        }
        for step in steps:
            out["steps"][step["name"]] = await run_step(client, step)
    sys.stdout.write(json.dumps(out, indent=2, sort_keys=True) + "\n")
    sys.stdout.flush()


if __name__ == "__main__":
    anyio.run(main)
