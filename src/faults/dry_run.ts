/**
 * What an overlay would do to a recording, without replaying it: for
 * `inspect CASSETTE --faults FILE`.
 *
 * @module
 */
import type { Entry } from "../cassette/format.ts";
import { classify } from "../jsonrpc/messages.ts";
import type { JsonRpcMessage } from "../jsonrpc/messages.ts";
import { createFaultInjector } from "./injector.ts";
import type { FaultInjectorOptions } from "./injector.ts";
import { describeFaultEntry, faultSubjectFromRequest } from "./match.ts";
import type { FaultOverlay } from "./types.ts";
import type { FaultSubject } from "./types.ts";

/** One request a fault would hit: `index` is its position in the list given (0-based). */
export interface DryRunHit {
  index: number;
  method: string;
  name?: string;
}

/** One overlay entry and the requests it would hit. */
export interface DryRunResult {
  /** The entry as reports name it, e.g. `fault #1 (error on tools/call get-sum nth 2)`. */
  entry: string;
  hits: DryRunHit[];
}

/**
 * Runs the recorded client requests, in order, through a fresh injector and
 * lists which each entry would hit. Every entry appears, with no hits if it
 * would never fire. A `disconnect` or `timeout` would end or stall a real
 * session early; the dry run does not model that and keeps counting.
 *
 * @example
 * ```ts
 * const cassette = await loadCassette("weather.cassette.jsonl");
 * for (const { entry, hits } of dryRunFaults(overlay, recordedRequests(cassette.entries))) {
 *   console.log(entry, hits.map((hit) => hit.index));
 * }
 * ```
 */
export function dryRunFaults(
  overlay: FaultOverlay,
  requests: readonly FaultSubject[],
  options: FaultInjectorOptions = {},
): DryRunResult[] {
  const injector = createFaultInjector(overlay, options);
  const results = overlay.entries.map((entry) => ({
    entry: describeFaultEntry(entry),
    hits: [] as DryRunHit[],
  }));
  const position = new Map(overlay.entries.map((entry, i) => [entry, i]));
  requests.forEach((subject, index) => {
    for (const entry of injector.firingEntries(subject)) {
      const hit: DryRunHit = { index, method: subject.method };
      if (subject.name !== undefined) hit.name = subject.name;
      results[position.get(entry)!].hits.push(hit);
    }
  });
  return results;
}

/**
 * The client requests of a cassette, in recorded order, as fault subjects
 * (batch members included, notifications and responses left out).
 */
export function recordedRequests(entries: readonly Entry[]): FaultSubject[] {
  const subjects: FaultSubject[] = [];
  for (const entry of entries) {
    if (entry.type !== "message" || entry.dir !== "c2s") continue;
    const messages = Array.isArray(entry.msg) ? entry.msg : [entry.msg];
    for (const message of messages) {
      if (classify(message) === "request") {
        subjects.push(faultSubjectFromRequest(message as JsonRpcMessage));
      }
    }
  }
  return subjects;
}
