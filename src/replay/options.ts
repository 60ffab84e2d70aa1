/**
 * The options of a replay, in a module of their own so that the engine, its
 * sessions and the front ends share them without importing each other.
 *
 * @module
 */
import type { FaultInjector } from "../faults/types.ts";
import type { PacingOptions } from "../faults/pacing.ts";
import type { FingerprintOptions } from "../match/fingerprint.ts";
import type { JsonRpcMessage } from "../jsonrpc/messages.ts";

/** A live message with the recording's redaction applied (see `rewriteRequest`). */
export interface RewrittenRequest {
  message: unknown;
  values?: ReadonlyMap<string, string>;
}

/**
 * How a live request finds its recording: `exact` (the default) answers only
 * a request whose key (method, target and params, volatile parts and ignored
 * paths removed) was recorded; `lenient` lets a request with no such
 * recording take the next unused answer for the same method and target,
 * reported as inexact.
 */
export type MatchMode = "exact" | "lenient";

/**
 * A user's rule for one method or tool: `match(recorded, live)` says whether
 * a recorded request stands for the live one. Recordings of the same method
 * (and tool) are offered to it; the rule replaces exact key equality there.
 */
export interface CustomMatcher {
  /** The JSON-RPC method, e.g. `tools/call`. */
  method: string;
  /** For `tools/call`: the tool's name (any tool when absent). */
  tool?: string;
  match: (recorded: JsonRpcMessage, live: JsonRpcMessage) => boolean;
}

/** Options of a replay. */
export interface ReplayOptions {
  /** A divergent client answer fails the replay (and the triggering request). */
  strict?: boolean;
  /** `exact` (default) or `lenient`; see {@linkcode MatchMode}. */
  match?: MatchMode;
  /** User rules for methods or tools whose requests vary in ways a path list cannot say. */
  matchers?: readonly CustomMatcher[];
  /** How long to wait for the client to answer a server request, in ms (default 10000). */
  answerTimeoutMs?: number;
  faults?: FaultInjector;
  pacing?: PacingOptions;
  /**
   * Applied to each live client message before matching: the client-direction
   * redaction rules, so a scrubbed recording still matches a real secret.
   * Called only for messages that do not match as sent; it may resolve later
   * (replay loads the redaction rules on first use). `values` maps each keyed
   * placeholder it made to the live value, which the answer gets back where
   * the recording's answer holds that placeholder.
   */
  rewriteRequest?: (message: unknown) => RewrittenRequest | Promise<RewrittenRequest>;
  /** Sees each client message as received (record mode `new_episodes` keeps the handshake). */
  observe?: (message: JsonRpcMessage) => void;
  /**
   * How many live requests the journal keeps (default 10 000, `JOURNAL_LIMIT`
   * in ./journal.ts); later ones are counted in its `dropped`.
   */
  journalLimit?: number;
  /** Diagnostics, one line each (stderr on the CLI). */
  log?: (line: string) => void;
  /** Volatile keys and ignored paths (matching only; answers are never changed). */
  fingerprint?: FingerprintOptions;
  /**
   * Called before a miss is answered (record mode `new_episodes`): resolves
   * with a live answer to send instead, or undefined to answer the miss.
   * `context.session` names the recorded session being served.
   */
  onMiss?: (
    message: JsonRpcMessage,
    context?: { session?: string },
  ) => Promise<JsonRpcMessage | undefined>;
}
