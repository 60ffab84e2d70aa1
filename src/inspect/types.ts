/**
 * What `inspect` reports.
 *
 * @module
 */
import type { CassetteHeader } from "../cassette/format.ts";
import type { JsonRpcId } from "../jsonrpc/messages.ts";

/** p50, p95 and max of a set of durations, in milliseconds. */
export interface Percentiles {
  p50: number;
  p95: number;
  max: number;
}

/** Counts for one method in one direction. */
export interface MethodStats {
  method: string;
  dir: "c2s" | "s2c";
  kind: "request" | "notification";
  count: number;
  /** Requests that got an answer (result or error). */
  answered: number;
  /** Answers that were JSON-RPC errors. */
  errors: number;
  /** Request-to-response times of the answered requests. */
  latency?: Percentiles;
}

/** One session of the cassette. */
export interface SessionStats {
  session: string;
  messages: number;
  firstT: number;
  lastT: number;
  sessionId?: string;
  exitCode?: number;
  endReason?: string;
}

/** A request the server sent the client. */
export interface ServerRequest {
  method: string;
  id: JsonRpcId;
  session: string;
  line: number;
  t: number;
  /** Whether the cassette holds the client's answer. */
  answered: boolean;
}

/** The summary. */
export interface InspectReport {
  file: string;
  importedFrom?: string;
  header: CassetteHeader;
  /** What the server called itself in its handshake answer (`serverInfo`), when it answered one. */
  serverInfo?: { name?: string; version?: string };
  entries: number;
  messages: number;
  torn?: { line: number };
  sessions: SessionStats[];
  methods: MethodStats[];
  serverInitiated: {
    requests: ServerRequest[];
    notifications: { method: string; count: number }[];
  };
  surface: { tools: number; prompts: number; resources: number; templates: number };
}

/** One timeline row. */
export interface TimelineRow {
  t: number;
  session: string;
  dir: string;
  kind: string;
  what: string;
  line: number;
}
