/**
 * The journal: every live request a replay received, in arrival order, with
 * how it was answered and the cassette line that answered it. It is what a
 * test asks the double ("which tools did the agent call, with what?"), in
 * the report (`journal`), the helpers' results and the control endpoint.
 *
 * Memory is bounded: the first {@linkcode JOURNAL_LIMIT} requests are kept
 * (or `ReplayOptions.journalLimit`), later ones only counted in `dropped`.
 * Keeping the first ones, not the last, keeps "called in order" and "called
 * N times" answerable from the start of a run; `reset` starts afresh.
 *
 * @module
 */
import type { JsonObject, JsonRpcMessage } from "../jsonrpc/messages.ts";
import type { RequestKey } from "../match/fingerprint.ts";
import type { Match } from "../match/answer_book.ts";
import type { Trigger } from "./episodes.ts";
import type { RewrittenRequest } from "./options.ts";

/** How a live request was answered. */
export type JournalOutcome =
  | "exact"
  | "inexact"
  | "repeat"
  | "out-of-order"
  | "live"
  | "miss"
  | "fault";

/** One live request. */
export interface JournalEntry {
  /** The JSON-RPC method, e.g. `tools/call`. */
  method: string;
  /** For `tools/call`: the tool's name. */
  tool?: string;
  /** For `prompts/get`: the prompt's name. */
  prompt?: string;
  /** For `resources/read`, `resources/subscribe`, `resources/unsubscribe`: the URI. */
  resource?: string;
  /**
   * For `tools/call` and `prompts/get`, `params.arguments`; for other
   * methods, `params`. After the recording's redaction, when it has rules.
   */
  arguments?: unknown;
  /** The live session it came in on (the front end's session id, or its number). */
  session: string;
  outcome: JournalOutcome;
  /** The cassette line (1-based) of the recording that answered it; absent for a miss or a live answer. */
  line?: number;
}

/** The journal as the report and the control endpoint give it. */
export interface Journal {
  /** The requests kept, in arrival order. */
  requests: JournalEntry[];
  /** Requests received after `limit` were kept: counted, not kept. */
  dropped: number;
  /** How many requests are kept at most. */
  limit: number;
}

/** How many requests a journal keeps by default. */
export const JOURNAL_LIMIT = 10_000;

/** An empty journal keeping at most `limit` requests. */
export function emptyJournal(limit = JOURNAL_LIMIT): Journal {
  return { requests: [], dropped: 0, limit };
}

/** Empties `journal` in place (the report holds it). */
export function resetJournal(journal: Journal): void {
  journal.requests.length = 0;
  journal.dropped = 0;
  delete (journal as Held)[WAITING];
}

/** Redacts a live message as the recording's rules would (`ReplayOptions.rewriteRequest`). */
export type Redact = (message: unknown) => RewrittenRequest | Promise<RewrittenRequest>;

/**
 * Requests whose arguments wait for the recording's redaction, as pairs
 * (entry, arguments as sent) in one flat list: redaction waits until the
 * journal is read ({@linkcode settleJournal}), as scrubbing every request as
 * it came cost the HTTP replay a third of its throughput. Held under a
 * symbol, which JSON leaves out.
 */
const WAITING = Symbol("unredacted");
type Waiting = { redact: Redact; pairs: unknown[]; settled: Promise<void> };
type Held = Journal & { [WAITING]?: Waiting };

/**
 * Adds a live request; returns its entry (so a fault found later can mark
 * it), or undefined when the journal is full. With `redact`, the entry's
 * arguments are absent until {@linkcode settleJournal} fills them in from
 * the redacted copy: a secret the client sent is never shown. Only the
 * arguments are held, not the message: fewer objects kept alive.
 */
export function journalRequest(
  journal: Journal,
  message: JsonRpcMessage,
  key: RequestKey,
  session: string,
  outcome: JournalOutcome,
  line: number | undefined,
  redact?: Redact,
): JournalEntry | undefined {
  if (journal.requests.length >= journal.limit) {
    journal.dropped++;
    return undefined;
  }
  const entry = newEntry(key.method, key.name, session, outcome, line);
  const args = argumentsOf(message);
  if (redact) {
    const held = journal as Held;
    (held[WAITING] ??= { redact, pairs: [], settled: Promise.resolve() }).pairs.push(entry, args);
  } else if (args !== undefined) entry.arguments = args;
  journal.requests.push(entry);
  return entry;
}

/**
 * Fills in the arguments of every request still waiting for redaction;
 * resolves once they are in. A request whose redaction fails keeps none.
 */
export function settleJournal(journal: Journal): Promise<void> {
  const waiting = (journal as Held)[WAITING];
  if (!waiting) return Promise.resolve();
  waiting.settled = waiting.settled.then(async () => {
    const pairs = waiting.pairs;
    waiting.pairs = [];
    for (let i = 0; i < pairs.length; i += 2) {
      const entry = pairs[i] as JournalEntry;
      if (pairs[i + 1] === undefined) continue;
      try {
        const redacted = await waiting.redact(messageOf(entry, pairs[i + 1]));
        const args = argumentsOf(redacted.message as JsonRpcMessage);
        if (args !== undefined) entry.arguments = args;
      } catch {
        // Left without arguments: better missing than shown unredacted.
      }
    }
  });
  return waiting.settled;
}

/** A request carrying `args` as the entry's method does, for the redaction rules to read. */
function messageOf(entry: JournalEntry, args: unknown): JsonRpcMessage {
  const named = entry.method === "tools/call" || entry.method === "prompts/get";
  const params = named ? { name: entry.tool ?? entry.prompt, arguments: args } : args;
  return { jsonrpc: "2.0", id: 0, method: entry.method, params } as JsonRpcMessage;
}

/**
 * An entry built whole, by one object literal per shape, its keys in the
 * order the report prints them: thousands are kept alive, and an entry
 * grown key by key needs a second object for the keys past its first three
 * (V8 sizes a literal's object to its keys), which the collector then
 * copies and marks with the rest of the replay's heap on every pass.
 */
function newEntry(
  method: string,
  name: string | undefined,
  session: string,
  outcome: JournalOutcome,
  line: number | undefined,
): JournalEntry {
  if (name === undefined) {
    return line === undefined ? { method, session, outcome } : { method, session, outcome, line };
  }
  if (method === "tools/call") {
    return line === undefined
      ? { method, session, outcome, tool: name }
      : { method, session, outcome, tool: name, line };
  }
  if (method === "prompts/get") {
    return line === undefined
      ? { method, session, outcome, prompt: name }
      : { method, session, outcome, prompt: name, line };
  }
  return line === undefined
    ? { method, session, outcome, resource: name }
    : { method, session, outcome, resource: name, line };
}

function argumentsOf(message: JsonRpcMessage): unknown {
  const params = message.params as JsonObject | undefined;
  if (message.method === "tools/call" || message.method === "prompts/get") {
    return params && typeof params === "object" ? params.arguments : undefined;
  }
  return params;
}

/**
 * The journal's word for a match: its kind when not exact (a repeat or an
 * inexact stand-in say more than their order), else whether it was in order.
 */
export function outcomeOf(match: Match<Trigger>): JournalOutcome {
  if (match.kind !== "exact") return match.kind;
  return match.outOfOrder ? "out-of-order" : "exact";
}

/**
 * Appends `from`'s requests to `into`, as far as `into`'s limit allows (the
 * rest counted as dropped), each named `session` when given: a test's stdio
 * launches are one client session each, all numbered "1" by their own replay.
 */
export function appendJournal(into: Journal, from: Journal | undefined, session?: string): void {
  if (!from) return;
  into.dropped += from.dropped;
  for (const entry of from.requests) {
    if (into.requests.length >= into.limit) into.dropped++;
    else into.requests.push(session === undefined ? entry : { ...entry, session });
  }
}
