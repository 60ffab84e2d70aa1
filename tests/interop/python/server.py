"""A tiny reference server built with the Python SDK's MCPServer (the 2.x
name of FastMCP), recorded through `mcp-cassette record` and replayed to the
TypeScript SDK client by the interop suite. Runs over stdio."""

from mcp.server.mcpserver import MCPServer

server = MCPServer("interop-python-server", version="1.0.0")


@server.tool()
def add(a: int, b: int) -> str:
    """Adds two integers."""
    return f"{a} + {b} = {a + b}"


@server.tool()
def greet(name: str) -> str:
    """Greets someone by name."""
    return f"Hello, {name}!"


@server.resource("interop://readme")
def readme() -> str:
    """A fixed text resource."""
    return "Recorded once, replayed everywhere."


@server.prompt()
def review(topic: str) -> str:
    """Asks for a review of a topic."""
    return f"Please review {topic}."


if __name__ == "__main__":
    server.run("stdio")
