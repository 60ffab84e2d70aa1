/**
 * mcp-cassette's own small MCP client: transports, a JSON-RPC connection,
 * the lifecycle, and where a server is (a command line or a URL).
 *
 * @example
 * ```ts
 * import { McpConnection, StdioClientTransport, initialize, listAll } from "./mod.ts";
 * const connection = new McpConnection(new StdioClientTransport(["node", "server.js"]));
 * const hello = await initialize(connection);
 * const tools = await listAll(connection, "tools/list", "tools");
 * await connection.close();
 * ```
 *
 * @module
 */
export * from "./transport.ts";
export * from "./stdio.ts";
export * from "./connection.ts";
export * from "./session.ts";
export * from "./http.ts";
export * from "./command_line.ts";
export * from "./target.ts";
