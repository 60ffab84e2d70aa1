"""The package's version: the mcp-cassette engine it was made for has the same one."""

__version__ = "0.1.0"
