/**
 * `prune`: drops the recorded exchanges none of the given runs asked for.
 * An exchange is the client request, its answer, and everything the replay
 * engine attributes to it (src/replay/episodes.ts): progress, log lines,
 * server requests and the client's answers to them, SSE events of its POST.
 * The lifecycle, the sessions, client notifications and the standalone
 * stream stay.
 *
 * @example
 * ```ts
 * const plan = await planPrune("suite.cassette.jsonl", ["reports/a.json", "reports/b.json"]);
 * console.log(plan.removed.map((exchange) => exchange.line));
 * ```
 *
 * @module
 */
import type { Entry } from "../cassette/format.ts";
import type { Cassette, LocatedEntry } from "../cassette/reader.ts";
import { lineBatches, loadCassette } from "../cassette/reader.ts";
import { UsageError } from "../errors/errors.ts";
import type { JsonObject } from "../jsonrpc/messages.ts";
import { buildEpisodes } from "../replay/episodes.ts";
import type { Step, Trigger } from "../replay/episodes.ts";
import { loadReports, wasAsked } from "../view/reports.ts";
import type { MergedReports } from "../view/reports.ts";

/** Requests that are never pruned: without them no client session starts. */
export const LIFECYCLE_METHODS: ReadonlySet<string> = new Set([
  "initialize",
  "notifications/initialized",
  "server/discover",
]);

/** One recorded exchange that goes. */
export interface RemovedExchange {
  /** Cassette line of the request. */
  line: number;
  method: string;
  /** The tool, prompt or resource it named. */
  name?: string;
  /** Every cassette line that goes with it, the request's included. */
  lines: number[];
}

/** What pruning a cassette would do. */
export interface PrunePlan {
  cassette: Cassette;
  removed: RemovedExchange[];
  /** The request lines `--optional` marks (those not marked already), in order. */
  marked: number[];
  /** Every line to drop, the HTTP envelopes of emptied exchanges included. */
  dropLines: Set<number>;
  reports: MergedReports;
}

/**
 * Finds each step's cassette entry. Message steps carry the entry's own
 * `msg` object, so identity finds them; raw text and SSE events are matched
 * by session, time and text, in order.
 */
function entryFinder(entries: readonly LocatedEntry[]) {
  const byMessage = new Map<unknown, LocatedEntry>();
  const byText = new Map<string, LocatedEntry[]>();
  // Entries without a session belong to the one episodes.ts calls "default".
  const textKey = (session: string | undefined, t: number, text: string) =>
    `${session ?? "default"}\u0000${t}\u0000${text}`;
  for (const entry of entries) {
    if (entry.type === "message") byMessage.set(entry.msg, entry);
    else if (entry.type === "raw" || entry.type === "sse-event") {
      const key = textKey(entry.session, entry.t, entry.type === "raw" ? entry.text : entry.data);
      const list = byText.get(key) ?? [];
      list.push(entry);
      byText.set(key, list);
    }
  }
  return {
    message: (msg: unknown) => byMessage.get(msg),
    text: (session: string | undefined, t: number, text: string) =>
      byText.get(textKey(session, t, text))?.shift(),
  };
}

function stepLines(
  step: Step,
  session: string | undefined,
  find: ReturnType<typeof entryFinder>,
): number[] {
  if (step.kind === "raw" || step.kind === "sse-event") {
    const entry = find.text(session, step.t, step.kind === "raw" ? step.text : step.data);
    return entry ? [entry.line] : [];
  }
  const lines = [find.message(step.msg)?.line];
  if (step.kind === "server-request" && step.answer) {
    lines.push(find.message(step.answer.msg)?.line);
  }
  return lines.filter((line): line is number => line !== undefined);
}

function nameOf(trigger: Trigger): string | undefined {
  const params = trigger.request.msg.params as JsonObject | undefined;
  const name = params?.name ?? params?.uri;
  return typeof name === "string" ? name : undefined;
}

function exchangeOf(
  trigger: Trigger,
  session: string | undefined,
  find: ReturnType<typeof entryFinder>,
): RemovedExchange {
  const lines = [trigger.line];
  const response = trigger.response ? find.message(trigger.response.msg) : undefined;
  if (response) lines.push(response.line);
  for (const step of [...trigger.steps, ...trigger.after]) {
    lines.push(...stepLines(step, session, find));
  }
  return {
    line: trigger.line,
    method: trigger.request.msg.method ?? "?",
    name: nameOf(trigger),
    lines,
  };
}

/**
 * An HTTP exchange's request, response and end entries go when every message
 * it carried went; an exchange that carried none (a GET, a DELETE) stays.
 */
function emptiedExchanges(
  entries: readonly LocatedEntry[],
  drop: Set<number>,
): { message: number; envelope: number[] }[] {
  const carried = new Map<
    number,
    { kept: number; dropped: number; message: number; envelope: number[] }
  >();
  for (const entry of entries) {
    if (entry.x === undefined) continue;
    let tally = carried.get(entry.x);
    if (!tally) carried.set(entry.x, tally = { kept: 0, dropped: 0, message: 0, envelope: [] });
    if (entry.type !== "message") {
      if (!drop.has(entry.line)) tally.envelope.push(entry.line);
    } else if (!drop.has(entry.line)) tally.kept++;
    else if (tally.dropped++ === 0) tally.message = entry.line;
  }
  return [...carried.values()].filter((tally) => tally.dropped > 0 && tally.kept === 0);
}

/** What else {@linkcode planPrune} does. */
export interface PruneOptions {
  /**
   * Recordings to mark `optional` (and keep): a tool, prompt or resource
   * name (its every request) or a request's cassette line.
   */
  optional?: readonly (string | number)[];
}

/**
 * Works out what to remove from `path` given the reports of the runs that
 * used it, and which requests `options.optional` marks.
 */
export async function planPrune(
  path: string,
  reportFiles: readonly string[],
  options: PruneOptions = {},
): Promise<PrunePlan> {
  const selectors = options.optional ?? [];
  if (reportFiles.length === 0 && selectors.length === 0) {
    throw new UsageError(
      "prune needs at least one --report (without one every exchange would go) or an --optional",
    );
  }
  const cassette = await loadCassette(path);
  if (cassette.importedFrom) {
    throw new UsageError(
      `${path} is a ${cassette.importedFrom} file: convert it with \`mcp-cassette import\` first`,
    );
  }
  const reports: MergedReports = reportFiles.length > 0
    ? await loadReports(reportFiles, cassette)
    : { files: [], recorded: new Map(), misses: [] };
  const sessions = buildEpisodes(cassette).sessions;
  const marked = markedLines(path, sessions.flatMap((session) => session.triggers), selectors);
  const find = entryFinder(cassette.entries);
  const removed: RemovedExchange[] = [];
  for (const session of sessions) {
    for (const trigger of session.triggers) {
      if (!trigger.isRequest || LIFECYCLE_METHODS.has(trigger.request.msg.method ?? "")) continue;
      // A recording marked optional may go unplayed: it is kept for the runs that do ask.
      if (trigger.optional || marked.has(trigger.line)) continue;
      const use = reports.recorded.get(trigger.line);
      // A request no report lists is kept: nothing says it went unused.
      if (use === undefined || wasAsked(use)) continue;
      removed.push(exchangeOf(trigger, session.id, find));
    }
  }
  const dropLines = new Set(removed.flatMap((exchange) => exchange.lines));
  // An emptied exchange goes with the removed exchange that took its messages
  // (a POST carrying the client's answer to a server request goes with the call).
  const owner = new Map(
    removed.flatMap((exchange) => exchange.lines.map((line) => [line, exchange])),
  );
  for (const { message, envelope } of emptiedExchanges(cassette.entries, dropLines)) {
    owner.get(message)?.lines.push(...envelope);
    for (const line of envelope) dropLines.add(line);
  }
  removed.sort((a, b) => a.line - b.line);
  const newly = [...marked].filter((line) => !alreadyOptional(cassette, line));
  return { cassette, removed, marked: newly.sort((a, b) => a - b), dropLines, reports };
}

/**
 * The request lines the selectors name: a number is a cassette line, which
 * must hold a recorded request; a name must be named by at least one.
 */
function markedLines(
  path: string,
  triggers: readonly Trigger[],
  selectors: readonly (string | number)[],
): Set<number> {
  const requests = triggers.filter((trigger) => trigger.isRequest);
  const lines = new Set<number>();
  for (const selector of selectors) {
    const line = typeof selector === "number" ? selector : /^\d+$/.test(selector) ? +selector : -1;
    const hits = requests.filter((trigger) =>
      line >= 0 ? trigger.line === line : nameOf(trigger) === selector
    );
    if (hits.length === 0) {
      const names = [...new Set(requests.map(nameOf).filter((name) => name !== undefined))];
      throw new UsageError(
        line >= 0
          ? `--optional ${line}: line ${line} of ${path} holds no recorded request`
          : `--optional ${selector}: no recorded request of ${path} names it (they name ${
            names.length > 0 ? names.join(", ") : "nothing"
          })`,
      );
    }
    for (const trigger of hits) lines.add(trigger.line);
  }
  return lines;
}

function alreadyOptional(cassette: Cassette, line: number): boolean {
  const entry = cassette.entries.find((entry) => entry.line === line);
  const value = (entry as { optional?: unknown } | undefined)?.optional;
  if (value === undefined) return false;
  if (value === true) return true;
  // A member put first would be overridden by this one, the last of the two.
  throw new UsageError(
    `${cassette.path}:${line} has "optional": ${JSON.stringify(value)}; remove it to mark the line`,
  );
}

/**
 * A request's line marked optional: the member goes first, so every other
 * byte (and `msg`, last in the line) stays as written.
 */
function markOptional(text: string): string {
  const start = text.indexOf("{");
  return `${text.slice(0, start + 1)}"optional":true,${text.slice(start + 1)}`;
}

/**
 * The pruned cassette's text: the kept lines exactly as they were written
 * (the header too, so reports of the same runs still name it), the marked
 * ones with `"optional":true` put first, and no torn last line.
 */
export async function prunedText(plan: PrunePlan): Promise<string> {
  const keep: string[] = [];
  const torn = plan.cassette.torn?.line;
  const marked = new Set(plan.marked);
  let line = 0;
  for await (const batch of lineBatches(plan.cassette.path)) {
    for (const text of batch) {
      line++;
      if (plan.dropLines.has(line) || line === torn || text.trim() === "") continue;
      keep.push(marked.has(line) ? markOptional(text) : text);
    }
  }
  return keep.join("\n") + "\n";
}

/** The entries the plan keeps (for tests and dry runs). */
export function keptEntries(plan: PrunePlan): Entry[] {
  return plan.cassette.entries.filter((entry) => !plan.dropLines.has(entry.line));
}
