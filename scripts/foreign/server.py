"""A small MCP server over stdio, for recording real sessions with other
tools' recorders (scripts/foreign/regenerate.ts). Plain Python, no
dependencies, so each tool's venv can run it as it is.

Tools: echo, add (and an unknown name answers a JSON-RPC error); one static
resource; one prompt with an argument; ping. After the first tools/call it
sends a log notification, so the samples hold server-initiated traffic.
"""

import json
import sys

SERVER_INFO = {"name": "foreign-sample-server", "version": "1.0.0"}
KNOWN_VERSIONS = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"]

TOOLS = [
    {
        "name": "echo",
        "description": "Returns its message.",
        "inputSchema": {
            "type": "object",
            "properties": {"message": {"type": "string"}},
            "required": ["message"],
        },
    },
    {
        "name": "add",
        "description": "Adds two numbers.",
        "inputSchema": {
            "type": "object",
            "properties": {"a": {"type": "number"}, "b": {"type": "number"}},
            "required": ["a", "b"],
        },
    },
]
RESOURCE = {
    "uri": "sample://notes/readme",
    "name": "readme",
    "mimeType": "text/plain",
}
PROMPT = {
    "name": "greet",
    "description": "Greets someone.",
    "arguments": [{"name": "who", "required": True}],
}


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def call_tool(params):
    name = params.get("name")
    args = params.get("arguments") or {}
    if name == "echo":
        return {"content": [{"type": "text", "text": "Echo: " + str(args.get("message"))}]}
    if name == "add":
        total = args.get("a", 0) + args.get("b", 0)
        return {"content": [{"type": "text", "text": f"The sum is {total}."}]}
    raise LookupError(f"Unknown tool: {name}")


def answer(method, params):
    if method == "initialize":
        asked = params.get("protocolVersion")
        return {
            "protocolVersion": asked if asked in KNOWN_VERSIONS else KNOWN_VERSIONS[-1],
            "capabilities": {"tools": {}, "resources": {}, "prompts": {}, "logging": {}},
            "serverInfo": SERVER_INFO,
        }
    if method == "ping":
        return {}
    if method == "tools/list":
        return {"tools": TOOLS}
    if method == "tools/call":
        return call_tool(params)
    if method == "resources/list":
        return {"resources": [RESOURCE]}
    if method == "resources/read":
        if params.get("uri") != RESOURCE["uri"]:
            raise LookupError(f"Unknown resource: {params.get('uri')}")
        return {"contents": [{"uri": RESOURCE["uri"], "mimeType": "text/plain", "text": "Hello from a sample."}]}
    if method == "prompts/list":
        return {"prompts": [PROMPT]}
    if method == "prompts/get":
        who = (params.get("arguments") or {}).get("who", "you")
        return {"messages": [{"role": "user", "content": {"type": "text", "text": f"Say hello to {who}."}}]}
    raise NotImplementedError(method)


def main():
    logged = False
    for line in sys.stdin:
        if not line.strip():
            continue
        message = json.loads(line)
        method = message.get("method")
        if "id" not in message or method is None:
            continue  # notifications and responses need no answer
        try:
            result = answer(method, message.get("params") or {})
        except NotImplementedError:
            send({"jsonrpc": "2.0", "id": message["id"], "error": {"code": -32601, "message": f"Method not found: {method}"}})
            continue
        except LookupError as error:
            send({"jsonrpc": "2.0", "id": message["id"], "error": {"code": -32602, "message": str(error)}})
            continue
        if method == "tools/call" and not logged:
            logged = True
            send({"jsonrpc": "2.0", "method": "notifications/message", "params": {"level": "info", "data": "first tool call"}})
        send({"jsonrpc": "2.0", "id": message["id"], "result": result})


if __name__ == "__main__":
    main()
