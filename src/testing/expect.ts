/**
 * Expectations over a replay's journal: did the client call the right
 * tools, how often, with what arguments, in what order, and was every
 * recording played? Each is one line in any runner (`node:test`, vitest,
 * jest, `bun:test`, `Deno.test`): it throws an {@linkcode ExpectationError}
 * (an `AssertionError`, with `actual` and `expected`) whose message shows
 * what was expected and what the journal holds.
 *
 * They read a test's result (`await server.finish()`), a replay report
 * (`--report`, `ReplayTransport.report`), or anything with a `journal`.
 * A tool the recording neither lists nor calls, and the client never
 * called, is a mistake in the test: a {@linkcode UsageError} naming it.
 *
 * @example
 * ```ts
 * const result = await server.finish();
 * expectCalled(result, "get-sum", { times: 1, with: { a: 2 } });
 * expectCalledInOrder(result, ["echo", "get-sum"]);
 * expectNeverCalled(result, "delete-everything");
 * expectAllPlayed(result, { optional: ["get-env"] });
 * ```
 *
 * @module
 */
import { UsageError } from "../errors/errors.ts";
import type { Journal, JournalEntry } from "../replay/journal.ts";
import type { RecordedUse } from "../replay/report.ts";
import {
  brief,
  entryLine,
  ExpectationError,
  subsetDifference,
  times,
  valueAt,
} from "./expect_text.ts";

export { ExpectationError } from "./expect_text.ts";

/** What the expectations read: a test's result, a replay report, or the like. */
export interface JournalSource {
  journal: Journal;
  /** Every recorded request and how it was used (for {@linkcode expectAllPlayed}). */
  recorded?: readonly RecordedUse[];
  /** The tools the recording lists or calls (to catch a misspelt tool). */
  tools?: readonly string[];
}

/** A call to look for: a tool, and optionally a subset its arguments must contain. */
export type ExpectedCall = string | { tool: string; with?: Record<string, unknown> };

/** Options of {@linkcode expectCalled}. */
export interface CalledOptions {
  /** Exactly this many calls (default: at least one). */
  times?: number;
  /** Count only calls whose arguments contain this subset (objects recursively, arrays whole). */
  with?: Record<string, unknown>;
}

/**
 * The tool was called: at least once, or exactly `times` times; with
 * `with`, counting only calls whose arguments contain that subset.
 */
export function expectCalled(
  source: JournalSource,
  tool: string,
  options: CalledOptions = {},
): void {
  const calls = callsOf(source, tool, "expectCalled");
  const matching = options.with ? calls.filter(([entry]) => contains(entry, options.with!)) : calls;
  const wanted = options.times;
  if (wanted === undefined ? matching.length > 0 : matching.length === wanted) return;
  if (wanted !== undefined) certain(source, "expectCalled");
  const what = `${tool}${options.with ? ` with arguments containing ${brief(options.with)}` : ""}`;
  const lines = [
    `expected ${what} to be called ${wanted === undefined ? "at least once" : times(wanted)}, ` +
    `it was called ${times(matching.length)}`,
  ];
  if (options.with && calls.length > 0) lines.push(...closest(calls, options.with));
  else lines.push(...listed(calls, tool));
  throw new ExpectationError(lines.join("\n"), matching.length, wanted ?? ">= 1");
}

/** The tool was never called. */
export function expectNeverCalled(source: JournalSource, tool: string): void {
  const calls = callsOf(source, tool, "expectNeverCalled");
  certain(source, "expectNeverCalled");
  if (calls.length === 0) return;
  const lines = [`expected ${tool} never to be called, it was called ${times(calls.length)}`];
  throw new ExpectationError([...lines, ...listed(calls, tool)].join("\n"), calls.length, 0);
}

/**
 * The calls were made in this order, others allowed before, between and
 * after (each call found after the one before it).
 */
export function expectCalledInOrder(
  source: JournalSource,
  expected: readonly ExpectedCall[],
): void {
  const wanted = expected.map((call) => typeof call === "string" ? { tool: call } : call);
  for (const call of wanted) callsOf(source, call.tool, "expectCalledInOrder");
  const { requests } = source.journal;
  let from = 0;
  const found: string[] = [];
  for (const call of wanted) {
    const at = requests.findIndex((entry, index) =>
      index >= from && entry.tool === call.tool && (!call.with || contains(entry, call.with))
    );
    if (at < 0) {
      const tools = requests.filter((entry) => entry.tool !== undefined).map((entry) => entry.tool);
      const lines = [
        `expected the calls in order: ${wanted.map(describeCall).join(", ")}`,
        ...found.map((text) => `  found ${text}`),
        `  missing: ${describeCall(call)}${from > 0 ? ` after #${from}` : ""}`,
        `the tools called, in order: ${tools.length > 0 ? tools.join(", ") : "none"}`,
      ];
      throw new ExpectationError(lines.join("\n"), tools, wanted.map((c) => c.tool));
    }
    found.push(`${describeCall(call)} at #${at + 1}`);
    from = at + 1;
  }
}

/** Options of {@linkcode expectAllPlayed}. */
export interface AllPlayedOptions {
  /**
   * More recordings that may go unplayed, beside those the cassette marks
   * `optional`: a tool's name (its every call) or a cassette line.
   */
  optional?: readonly (string | number)[];
}

/**
 * Every recorded request was played, but those marked `optional`: in the
 * cassette (`"optional": true` on the request's line, see
 * docs/cassette-format.md) or in `options.optional`.
 */
export function expectAllPlayed(source: JournalSource, options: AllPlayedOptions = {}): void {
  if (!source.recorded) {
    throw new UsageError(
      "expectAllPlayed needs the recorded requests: pass a test's result or a replay report",
    );
  }
  const optional = new Set(options.optional ?? []);
  for (const name of optional) if (typeof name === "string") known(source, name, "expectAllPlayed");
  const unplayed = source.recorded.filter((row) =>
    row.played + row.inexact + row.repeated + row.outOfOrder === 0 && row.optional !== true &&
    !optional.has(row.line) && !(row.name !== undefined && optional.has(row.name))
  );
  if (unplayed.length === 0) return;
  const lines = [
    `expected every recording to be played, ${unplayed.length} never was ` +
    `(mark those that may go unplayed \`optional\` in the cassette, or list them in \`optional\`):`,
    ...unplayed.map((row) => `  line ${row.line}: ${row.method}${row.name ? ` ${row.name}` : ""}`),
  ];
  throw new ExpectationError(lines.join("\n"), unplayed.map((row) => row.line), []);
}

/** The journal's calls of `tool`, with their places; checks that the tool is one the test can mean. */
function callsOf(source: JournalSource, tool: string, who: string): [JournalEntry, number][] {
  known(source, tool, who);
  const calls: [JournalEntry, number][] = [];
  source.journal.requests.forEach((entry, index) => {
    if (entry.tool === tool) calls.push([entry, index]);
  });
  return calls;
}

function known(source: JournalSource, tool: string, who: string): void {
  if (!source.journal || !Array.isArray(source.journal.requests)) {
    throw new UsageError(
      `${who}: what was passed has no journal (a test's result or a replay report has one)`,
    );
  }
  const tools = source.tools;
  if (!tools || tools.length === 0 || tools.includes(tool)) return;
  if (source.journal.requests.some((entry) => entry.tool === tool)) return;
  throw new UsageError(
    `${who}: the cassette knows no tool "${tool}" (it knows ${tools.join(", ")})`,
  );
}

/** A count the journal cannot vouch for once it dropped requests. */
function certain(source: JournalSource, who: string): void {
  const { dropped, limit } = source.journal;
  if (dropped > 0) {
    throw new UsageError(
      `${who}: the journal kept only its first ${limit} requests and dropped ${dropped}; raise journalLimit`,
    );
  }
}

function contains(entry: JournalEntry, subset: Record<string, unknown>): boolean {
  return subsetDifference(entry.arguments ?? {}, subset) === undefined;
}

function listed(calls: [JournalEntry, number][], tool: string): string[] {
  if (calls.length === 0) return [`  no call of ${tool} in the journal`];
  return calls.map(([entry, index]) => `  ${entryLine(entry, index)}`);
}

/** Each call beside the subset, with where its arguments first differ from it. */
function closest(calls: [JournalEntry, number][], subset: Record<string, unknown>): string[] {
  return calls.map(([entry, index]) => {
    const args = entry.arguments ?? {};
    const path = subsetDifference(args, subset);
    const differs = path
      ? `\n    ${path}: expected ${brief(valueAt(subset, path))}, got ${brief(valueAt(args, path))}`
      : "";
    return `  ${entryLine(entry, index)}${differs}`;
  });
}

function describeCall(call: { tool: string; with?: Record<string, unknown> }): string {
  return call.with ? `${call.tool} ${brief(call.with)}` : call.tool;
}
