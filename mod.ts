/**
 * mcp-cassette as a library: record an MCP server once, replay it in tests
 * forever, from code.
 *
 * - {@linkcode startCassette}: a recorder or replay for the client under
 *   test, chosen by the record mode; hand the client `command`/`args` (or
 *   `url`), then `finish()` to fail on misses.
 * - {@linkcode ReplayTransport}: the SDK client `Transport` shape, served
 *   from a cassette in this process.
 * - Record modes `once`, `none`, `all`, `new_episodes`; the
 *   `MCP_CASSETTE_MODE` environment variable wins over code and config.
 *
 * Test-runner helpers live in `mcp-cassette/testing` (npm; JSR:
 * `@mcp-cassette/mcp-cassette/testing`).
 *
 * @example
 * ```ts
 * import { Client } from "@modelcontextprotocol/sdk/client/index.js";
 * import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
 * import { startCassette } from "@mcp-cassette/mcp-cassette";
 *
 * const server = await startCassette({
 *   path: "tests/cassettes/weather.cassette.jsonl",
 *   server: ["node", "weather-server.js"],
 * });
 * const client = new Client({ name: "test", version: "1.0.0" });
 * await client.connect(new StdioClientTransport({ command: server.command, args: server.args }));
 * await client.callTool({ name: "forecast", arguments: { city: "Paris" } });
 * await client.close();
 * await server.finish();
 * ```
 *
 * @module
 */

export { startCassette } from "./src/api/start.ts";
export type {
  CassetteOptions,
  CassetteResult,
  CassetteServer,
  FinishOptions,
  LaunchSummary,
} from "./src/api/start.ts";
export type { ReplayFlags } from "./src/api/replay_flags.ts";
export { ReplayTransport } from "./src/api/transport.ts";
export type { ReplayTransportOptions, SdkMessage, TransportMessage } from "./src/api/transport.ts";
export { MODE_ENV, RECORD_MODES, resolveRecordMode } from "./src/modes/mode.ts";
export type { RecordMode } from "./src/modes/mode.ts";
export { CassetteError, ClaimError, ExitCode, ReplayMissError, UsageError } from "./src/errors.ts";
export type { MissReport } from "./src/errors.ts";
export { ClaimFileError } from "./src/claim/claim.ts";
export type { ReplayReport } from "./src/replay/report.ts";
export { loadCassette } from "./src/cassette/reader.ts";
export type { Cassette } from "./src/cassette/reader.ts";
