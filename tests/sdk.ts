/**
 * The parts of the official SDK v1 (`@modelcontextprotocol/sdk`) the tests
 * and scripts use, re-exported with their types named explicitly.
 *
 * Why: the package maps its subpaths with `"./*": { "types":
 * "./dist/esm/*.d.ts" }`, so `client/index.js` points the type checker at
 * `client/index.js.d.ts`, which does not exist, and `deno check` fails.
 * Runtimes resolve the same specifiers fine, so the imports stay as users
 * write them; only the types are pointed at the real declaration files.
 *
 * @module
 */

// @ts-types="../node_modules/@modelcontextprotocol/sdk/dist/esm/client/index.d.ts"
export { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="../node_modules/@modelcontextprotocol/sdk/dist/esm/client/stdio.d.ts"
export {
  getDefaultEnvironment,
  StdioClientTransport,
} from "@modelcontextprotocol/sdk/client/stdio.js";
// @ts-types="../node_modules/@modelcontextprotocol/sdk/dist/esm/client/streamableHttp.d.ts"
export { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
// @ts-types="../node_modules/@modelcontextprotocol/sdk/dist/esm/client/sse.d.ts"
export { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
// @ts-types="../node_modules/@modelcontextprotocol/sdk/dist/esm/client/auth.d.ts"
export {
  discoverOAuthServerInfo,
  extractWWWAuthenticateParams,
  selectResourceURL,
} from "@modelcontextprotocol/sdk/client/auth.js";
// @ts-types="../node_modules/@modelcontextprotocol/sdk/dist/esm/server/mcp.d.ts"
export { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
// @ts-types="../node_modules/@modelcontextprotocol/sdk/dist/esm/server/streamableHttp.d.ts"
export { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
// @ts-types="../node_modules/@modelcontextprotocol/sdk/dist/esm/server/auth/router.d.ts"
export {
  getOAuthProtectedResourceMetadataUrl,
  mcpAuthMetadataRouter,
} from "@modelcontextprotocol/sdk/server/auth/router.js";
// @ts-types="../node_modules/@modelcontextprotocol/sdk/dist/esm/server/auth/middleware/bearerAuth.d.ts"
export { requireBearerAuth } from "@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js";
// @ts-types="../node_modules/@modelcontextprotocol/sdk/dist/esm/server/auth/errors.d.ts"
export { InvalidTokenError } from "@modelcontextprotocol/sdk/server/auth/errors.js";
// @ts-types="../node_modules/@modelcontextprotocol/sdk/dist/esm/server/stdio.d.ts"
export { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
// @ts-types="../node_modules/@modelcontextprotocol/sdk/dist/esm/shared/transport.d.ts"
export type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
// @ts-types="../node_modules/@modelcontextprotocol/sdk/dist/esm/types.d.ts"
export {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ErrorCode,
  isInitializeRequest,
  ListRootsRequestSchema,
  ResultSchema,
} from "@modelcontextprotocol/sdk/types.js";
