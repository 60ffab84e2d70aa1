/**
 * The cassette format, version 2 (version 1 is still read). The normative description is
 * docs/cassette-format.md; these types are its machine-readable twin.
 *
 * A cassette is JSONL: line 1 is a {@linkcode CassetteHeader}, every later
 * line one {@linkcode Entry}, in arrival order.
 *
 * @module
 */
import type { Json, JsonObject } from "../jsonrpc/messages.ts";

/** The value of `format` on a header line. */
export const FORMAT_NAME = "mcp-cassette";
/** The newest format version this build writes and reads. */
export const FORMAT_VERSION = 2;
/** Version of the recorder, written into headers. */
export const RECORDER_VERSION = "0.1.0";

/** Which wire a cassette was recorded on. */
export type Transport = "stdio" | "http" | "sse";

/**
 * The protocol era: `legacy` is the session-based protocol (revisions up to
 * 2025-11-25, opened by `initialize`); `modern` the stateless 2026-07-28 one.
 * Absent on a header means legacy.
 */
export type Era = "legacy" | "modern";

/** Which way a frame travelled. */
export type Direction = "c2s" | "s2c";

/** What redaction scrubbed a cassette. */
export interface RedactionInfo {
  /** Rule names or descriptions, e.g. `keys:default`, `detector:email`, `pointer:/params/x`. */
  rules: string[];
  /** TOML rule packs, by name and SHA-256 of their content. */
  packs?: { name: string; sha256: string }[];
  /** `record --secret-env`: the environment variables whose values became `[SECRET:NAME]`. */
  secretEnv?: string[];
  /**
   * Present when `replace` placeholders carry a keyed digest
   * (`[REDACTED:email:3f9a…]`, src/redact/digest.ts): the cassette's salt
   * and the key's id under it. The key itself is never in the file.
   */
  digest?: { salt: string; key: string };
}

/** Line 1 of a cassette. */
export interface CassetteHeader {
  format: typeof FORMAT_NAME;
  version: number;
  recorder: string;
  /** ISO-8601 time the recording started. */
  created: string;
  transport: Transport;
  era?: Era;
  /** The negotiated protocol revision, when one was seen. */
  protocolVersion?: string;
  /** The recorded server: its command line (stdio) or URL (HTTP). */
  server: { command?: string[]; url?: string; name?: string; version?: string };
  redaction?: RedactionInfo;
  /** Free-form labels a user or tool adds. */
  meta?: JsonObject;
}

/** Fields every entry carries. */
interface EntryBase {
  /** Milliseconds since the recording started (monotonic clock). */
  t: number;
  /**
   * Which client session the entry belongs to: stdio launches and HTTP
   * sessions each get their own. Absent means the single, default session.
   */
  session?: string;
  /** The HTTP exchange (one HTTP request and its response) the entry belongs to. */
  x?: number;
  /** Set on entries that `new_episodes` appended after the original recording. */
  appended?: true;
}

/** SSE framing of a message that arrived as an event. */
export interface SseFields {
  /** The event's `id`, if it had one. */
  id?: string;
  /** The event type, if not the default `message`. */
  event?: string;
  /** The `retry` field, if present. */
  retry?: number;
  /** Which stream: the POST response stream or the standalone GET stream. */
  stream?: "post" | "get";
}

/**
 * A JSON-RPC message, kept verbatim: `msg` is the frame's own text, the
 * entry's last member (version 2). A frame whose text spans lines keeps it
 * in `frame` instead, beside a serialised `msg`; readers take it off the
 * entry (see ./frame_text.ts).
 */
export interface MessageEntry extends EntryBase {
  type: "message";
  dir: Direction;
  /**
   * On a client request: the recording may go unplayed. Expectations
   * (`expectAllPlayed`), `--fail-on-unplayed` and the report's `unplayed`
   * pass it over, and `prune` keeps it. Set by `prune --optional` or by hand.
   */
  optional?: true;
  msg: Json;
  sse?: SseFields;
}

/** Output that is not JSON-RPC (a banner on stdout, a log line), kept as text. */
export interface RawEntry extends EntryBase {
  type: "raw";
  dir: Direction;
  text: string;
  sse?: SseFields;
}

/** A client session starting or ending. */
export interface SessionEntry extends EntryBase {
  type: "session";
  session: string;
  event: "start" | "end";
  /** The session id the server minted (HTTP), when there was one. */
  sessionId?: string;
  /** For `end`: the server's exit code (stdio) or why it ended. */
  exitCode?: number;
  reason?: string;
}

/** The HTTP request half of an exchange (no body: messages carry it). */
export interface HttpRequestEntry extends EntryBase {
  type: "http-request";
  x: number;
  method: string;
  /** Path and query, with secrets in the query redacted. */
  path: string;
  /** Headers with credential-bearing values removed. */
  headers: Record<string, string>;
  /** Names of credential-bearing headers that were present (values never written). */
  credentials?: string[];
}

/** The HTTP response half of an exchange. */
export interface HttpResponseEntry extends EntryBase {
  type: "http-response";
  x: number;
  status: number;
  headers: Record<string, string>;
  /** How the body came: a JSON document, an SSE stream, nothing, or other text. */
  body: "json" | "sse" | "none" | "text";
  /** The body, when it was neither JSON-RPC nor SSE (an error page, metadata JSON). */
  text?: string;
}

/** An SSE event without a JSON-RPC payload (a priming event, an endpoint event). */
export interface SseEventEntry extends EntryBase {
  type: "sse-event";
  x: number;
  sse: SseFields;
  data: string;
}

/** The end of an HTTP response body. */
export interface HttpEndEntry extends EntryBase {
  type: "http-end";
  x: number;
  /** `complete`, or what cut it short. */
  reason: "complete" | "client-closed" | "upstream-closed" | "upstream-error";
  error?: string;
}

/** One line after the header. */
export type Entry =
  | MessageEntry
  | RawEntry
  | SessionEntry
  | HttpRequestEntry
  | HttpResponseEntry
  | SseEventEntry
  | HttpEndEntry;

/** The entry types this version knows. */
export const ENTRY_TYPES: ReadonlySet<string> = new Set([
  "message",
  "raw",
  "session",
  "http-request",
  "http-response",
  "sse-event",
  "http-end",
]);

/** Builds a header with the defaults filled in. */
export function makeHeader(
  fields: Omit<CassetteHeader, "format" | "version" | "recorder" | "created"> & {
    created?: string;
  },
): CassetteHeader {
  return {
    format: FORMAT_NAME,
    version: FORMAT_VERSION,
    recorder: `mcp-cassette/${RECORDER_VERSION}`,
    created: fields.created ?? new Date().toISOString(),
    ...fields,
  };
}

/**
 * Where a writer whose header is deferred (the HTTP recorder, until the era
 * is known) keeps the entries it holds: a recorder killed before then leaves
 * them here rather than nowhere.
 */
export function pendingPath(cassette: string): string {
  return `${cassette}.pending`;
}
