/**
 * What the replay engine asks of a fault overlay, and what it gets back.
 * The overlay file format and the selection logic live beside this file;
 * the engine and the transport front ends only see these types.
 *
 * @module
 */
import type { Json, JsonRpcMessage } from "../jsonrpc/messages.ts";

/** One fault to apply to a matched request. */
export type Fault =
  /** Wait before answering (adds to pacing). */
  | { kind: "delay"; ms: number }
  /** Never answer. */
  | { kind: "timeout" }
  /** Answer with this JSON-RPC error instead of the recording. */
  | { kind: "error"; code: number; message: string; data?: Json }
  /** Send a broken answer. */
  | { kind: "malformed"; strategy: "truncate" | "not_json" | "wrong_id" }
  /** stdio: the replay exits; HTTP: the connection is dropped. */
  | { kind: "disconnect" }
  /** HTTP only: answer with this status (and headers, such as Retry-After). */
  | { kind: "http-status"; status: number; headers?: Record<string, string>; body?: string }
  /** HTTP only: cut the SSE stream after this many events. */
  | { kind: "sse-drop"; afterEvents: number };

/** What a fault can be aimed at: the request that matched. */
export interface FaultSubject {
  method: string;
  /** Tool name, prompt name or resource URI, when the method has one. */
  name?: string;
  message: JsonRpcMessage;
}

/** The engine's view of a loaded overlay. */
export interface FaultInjector {
  /** Faults to apply to this matched request, in order; counts occurrences. */
  faultsFor(subject: FaultSubject): Fault[];
  /** One line per overlay entry that never fired, to report at the end. */
  unfired(): string[];
}

/** Which occurrences of a matching request an entry fires on. */
export type NthSelector = "every" | number[];

/** What an overlay entry is aimed at, after validation. */
export interface FaultMatch {
  /** JSON-RPC method; `*` matches any run of characters. */
  method?: string;
  /** Tool name of a `tools/call`; `*` is a wildcard. */
  tool?: string;
  /** Prompt name of a `prompts/get`; `*` is a wildcard. */
  prompt?: string;
  /** Resource URI of a `resources/read` (or subscribe/unsubscribe); `*` is a wildcard. */
  uri?: string;
  /** 1-based occurrences among the requests this entry matches, sorted; or every one. */
  nth: NthSelector;
  /** Chance in [0, 1] that a selected occurrence fires, drawn from the seeded generator. */
  probability?: number;
}

/** One validated overlay entry. */
export interface FaultEntry {
  /** 1-based position in the file, used in every message about it. */
  index: number;
  name?: string;
  match: FaultMatch;
  /** Applied in this order when the entry fires. */
  faults: Fault[];
}

/** A loaded overlay. */
export interface FaultOverlay {
  /** The file it came from (or the name given to `parseFaultOverlay`). */
  source: string;
  /** Seed for probabilistic entries, when the file sets one. */
  seed?: number;
  entries: FaultEntry[];
}
