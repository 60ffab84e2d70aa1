/**
 * mcp-cassette as a library: record an MCP server once, replay it in tests
 * forever, from code.
 *
 * - {@linkcode startCassette}: a recorder or replay for the client under
 *   test, chosen by the record mode; hand the client `command`/`args` (or
 *   `url`), then `finish()` to fail on misses.
 * - {@linkcode ReplayTransport}: the SDK client `Transport` shape, served
 *   from a cassette in this process.
 * - {@linkcode replayHandler}: the HTTP replay as a fetch-shaped function,
 *   to drive in process or mount in your own server.
 * - Record modes `once`, `none`, `all`, `new_episodes`; the
 *   `MCP_CASSETTE_MODE` environment variable wins over code and config.
 *
 * Every error raised on purpose is a {@linkcode CassetteError} with the
 * CLI's exit code. Test-runner helpers live in `@mcp-cassette/mcp-cassette/testing`
 * (the same name on npm and JSR).
 *
 * The examples here run (`deno task test:doc`), against cassettes committed
 * in the repository.
 *
 * @example Replay a recording of the reference "everything" server in process
 * ```ts
 * import { Client } from "@modelcontextprotocol/sdk/client/index.js";
 * import { ReplayTransport } from "@mcp-cassette/mcp-cassette";
 *
 * const transport = await ReplayTransport.open("tests/interop/golden/everything.cassette.jsonl");
 * const client = new Client({ name: "test", version: "1.0.0" });
 * await client.connect(transport);
 * const { tools } = await client.listTools();
 * console.log(tools.length > 0); // true
 * await client.close();
 * await transport.finish(); // throws ReplayMissError if a request had no recording
 * ```
 *
 * @module
 */

/**
 * Starts what the record mode asks for on a cassette and tells the client
 * under test how to reach it; `finish()` says how it went.
 *
 * @example Replay a committed cassette to an SDK client over stdio
 * ```ts
 * import { Client } from "@modelcontextprotocol/sdk/client/index.js";
 * import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
 * import { startCassette } from "@mcp-cassette/mcp-cassette";
 *
 * const server = await startCassette({
 *   path: "examples/cassettes/weather.cassette.jsonl",
 *   mode: "none", // replay only: never start the live server
 * });
 * const client = new Client({ name: "example-client", version: "1.0.0" });
 * await client.connect(new StdioClientTransport({ command: server.command, args: server.args }));
 * const answer = await client.callTool({ name: "get_forecast", arguments: { city: "Lyon", days: 2 } });
 * console.log(answer.content); // the recorded forecast for Lyon
 * await client.close();
 * const result = await server.finish();
 * console.log(result.misses.length); // 0
 * ```
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
export type { RunAction } from "./src/modes/run_report.ts";
export { ReplayTransport } from "./src/api/transport.ts";
export type { ReplayTransportOptions, SdkMessage, TransportMessage } from "./src/api/transport.ts";

/**
 * The record mode a run uses: the `MCP_CASSETTE_MODE` variable, else the
 * one the code gives, else the config's, else `once`; an unknown name is a
 * {@linkcode UsageError}.
 *
 * @example
 * ```ts
 * import { resolveRecordMode, UsageError } from "@mcp-cassette/mcp-cassette";
 *
 * console.log(resolveRecordMode("none", "all")); // "none" (unless MCP_CASSETTE_MODE is set)
 * try {
 *   resolveRecordMode("sometimes");
 * } catch (error) {
 *   console.log(error instanceof UsageError); // true
 * }
 * ```
 */
export { MODE_ENV, RECORD_MODES, resolveRecordMode } from "./src/modes/mode.ts";
export type { ModeAction, RecordMode } from "./src/modes/mode.ts";

/**
 * The errors public functions throw. A user's mistake is a
 * {@linkcode CassetteError} subclass whose `exitCode` is what the CLI exits
 * with.
 *
 * @example A file that is not a cassette names the file and the line
 * ```ts
 * import { CassetteFormatError, ExitCode, loadCassette } from "@mcp-cassette/mcp-cassette";
 *
 * try {
 *   await loadCassette("deno.json");
 * } catch (error) {
 *   if (!(error instanceof CassetteFormatError)) throw error;
 *   console.log(error.file, error.line, error.exitCode === ExitCode.BadInput); // deno.json 1 true
 * }
 * ```
 */
export {
  CassetteError,
  CassetteFormatError,
  ClaimError,
  ExitCode,
  ExpiredError,
  ReplayMissError,
  ServerUnreachableError,
  UsageError,
} from "./src/errors/errors.ts";
export type { MissReport } from "./src/errors/errors.ts";
export { ClaimFileError } from "./src/claim/claim.ts";
export { ConfigError } from "./src/config/file.ts";

/**
 * Reads a whole cassette: its header and its entries, each with its line.
 *
 * @example
 * ```ts
 * import { loadCassette } from "@mcp-cassette/mcp-cassette";
 *
 * const cassette = await loadCassette("tests/interop/golden/everything.cassette.jsonl");
 * console.log(cassette.header.transport); // "stdio"
 * const first = cassette.entries.find((entry) => entry.type === "message");
 * console.log(first?.line, first?.type === "message" && first.dir); // 3 "c2s"
 * ```
 */
export { loadCassette } from "./src/cassette/reader.ts";
export type { Cassette, LocatedEntry } from "./src/cassette/reader.ts";
export type {
  CassetteHeader,
  Direction,
  Entry,
  Era,
  HttpEndEntry,
  HttpRequestEntry,
  HttpResponseEntry,
  MessageEntry,
  RawEntry,
  RedactionInfo,
  SessionEntry,
  SseEventEntry,
  SseFields,
  Transport,
} from "./src/cassette/format.ts";

/**
 * The replay engine and its HTTP front end as a fetch-shaped handler, for
 * tests that drive HTTP replay in process and servers that mount it.
 *
 * @example Answer an HTTP `initialize` from a cassette, no socket involved
 * ```ts
 * import { loadCassette, ReplayEngine, replayHandler } from "@mcp-cassette/mcp-cassette";
 *
 * const cassette = await loadCassette("examples/cassettes/weather.cassette.jsonl");
 * const handler = replayHandler(new ReplayEngine(cassette));
 * const response = await handler.fetch(
 *   new Request(`http://127.0.0.1${handler.path}`, {
 *     method: "POST",
 *     headers: {
 *       host: "127.0.0.1", // a Request made in process carries no Host header of its own
 *       "content-type": "application/json",
 *       accept: "application/json, text/event-stream",
 *     },
 *     body: JSON.stringify({
 *       jsonrpc: "2.0",
 *       id: 0,
 *       method: "initialize",
 *       params: {
 *         protocolVersion: "2025-11-25",
 *         capabilities: {},
 *         clientInfo: { name: "example-client", version: "1.0.0" },
 *       },
 *     }),
 *   }),
 * );
 * console.log(response.status); // 200
 * await response.body?.cancel();
 * console.log(handler.finish().misses.length); // 0
 * ```
 */
export { replayHandler, serveHttp } from "./src/replay/http.ts";
export type { HttpServeOptions, ReplayHandler } from "./src/replay/http.ts";
export { ReplayEngine } from "./src/replay/engine.ts";
export type { CustomMatcher, MatchMode, ReplayOptions } from "./src/replay/options.ts";
export type {
  Divergence,
  RecordedUse,
  ReplayReport,
  ReportedCassette,
  ServerInitiated,
} from "./src/replay/report.ts";
export type { Journal, JournalEntry, JournalOutcome } from "./src/replay/journal.ts";
export { ReplayControl } from "./src/replay/control.ts";
export type { CassetteControl, FaultOverlayValue, OpenCassette } from "./src/replay/control.ts";
export type { Fault, FaultInjector, FaultSubject } from "./src/faults/types.ts";
export type { PacingOptions } from "./src/faults/pacing.ts";
export type { FingerprintOptions } from "./src/match/fingerprint.ts";
export type { IgnorePath, PathStep } from "./src/match/ignore_paths.ts";
export type { Json, JsonObject, JsonRpcId, JsonRpcMessage } from "./src/jsonrpc/messages.ts";
