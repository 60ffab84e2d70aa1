/**
 * The {@linkcode FaultInjector} the replay engine consults once per matched
 * request: counts occurrences per entry, rolls seeded dice for probabilistic
 * entries, and reports entries that never fired.
 *
 * @module
 */
import { UsageError } from "../errors/errors.ts";
import { describeFaultEntry, matchesSubject } from "./match.ts";
import type { FaultEntry, FaultOverlay } from "./types.ts";
import { entryRandom } from "./prng.ts";
import type { Random } from "./prng.ts";
import type { Fault, FaultInjector, FaultSubject } from "./types.ts";

/** Options for {@linkcode createFaultInjector}. */
export interface FaultInjectorOptions {
  /** Overrides the overlay file's `seed` (for a `--seed` flag). */
  seed?: number;
}

/** A {@linkcode FaultInjector} that also tells what it did. */
export interface OverlayFaultInjector extends FaultInjector {
  /** The seed in use: the option, else the file's, else 0. */
  readonly seed: number;
  /** Entries that fired on this subject, in file order; counts occurrences like `faultsFor`. */
  firingEntries(subject: FaultSubject): FaultEntry[];
  /** How often each entry fired so far, in file order. */
  fireCounts(): { entry: string; fired: number }[];
}

/** The seed used when neither the file nor the caller gives one, so runs stay repeatable. */
export const DEFAULT_FAULT_SEED = 0;

interface EntryState {
  entry: FaultEntry;
  seen: number;
  fired: number;
  random: Random;
}

function selects(state: EntryState): boolean {
  const { nth, probability } = state.entry.match;
  if (nth !== "every" && !nth.includes(state.seen)) return false;
  // Dice are rolled only for occurrences nth selected, so the picks depend
  // on the seed and the sequence of matching requests, nothing else.
  return probability === undefined || state.random() < probability;
}

/**
 * Creates an injector over a loaded overlay.
 *
 * @example
 * ```ts
 * const overlay = parseFaultOverlay(
 *   `{"faults": [{"match": {"tool": "get-sum", "nth": 2}, "fault": {"kind": "error", "code": -32000, "message": "rate limited"}}]}`,
 *   "faults.json",
 * );
 * const injector = createFaultInjector(overlay);
 * const message = { jsonrpc: "2.0" as const, id: 1, method: "tools/call", params: { name: "get-sum" } };
 * injector.faultsFor({ method: "tools/call", name: "get-sum", message }); // []
 * injector.faultsFor({ method: "tools/call", name: "get-sum", message }); // [{ kind: "error", ... }]
 * injector.unfired(); // []
 * ```
 */
export function createFaultInjector(
  overlay: FaultOverlay,
  options: FaultInjectorOptions = {},
): OverlayFaultInjector {
  const seed = options.seed ?? overlay.seed ?? DEFAULT_FAULT_SEED;
  if (!Number.isSafeInteger(seed)) {
    throw new UsageError(`the fault seed must be an integer, got ${seed}`);
  }
  const states: EntryState[] = overlay.entries.map((entry) => ({
    entry,
    seen: 0,
    fired: 0,
    random: entryRandom(seed, entry.name ?? `#${entry.index}`),
  }));

  function firingEntries(subject: FaultSubject): FaultEntry[] {
    const firing: FaultEntry[] = [];
    for (const state of states) {
      if (!matchesSubject(state.entry.match, subject)) continue;
      state.seen++;
      if (!selects(state)) continue;
      state.fired++;
      firing.push(state.entry);
    }
    return firing;
  }

  return {
    seed,
    firingEntries,
    faultsFor(subject: FaultSubject): Fault[] {
      // Copies, so an engine that annotates a fault cannot change the overlay.
      return firingEntries(subject).flatMap((entry) =>
        entry.faults.map((fault) => structuredClone(fault))
      );
    },
    unfired(): string[] {
      return states.filter((state) => state.fired === 0).map((state) =>
        `${describeFaultEntry(state.entry)} never fired`
      );
    },
    fireCounts() {
      return states.map((state) => ({
        entry: describeFaultEntry(state.entry),
        fired: state.fired,
      }));
    },
  };
}

/** Parses a `--seed` style flag value; a {@linkcode UsageError} unless it is an integer. */
export function parseFaultSeed(value: string, flag = "--seed"): number {
  const seed = /^-?\d+$/.test(value.trim()) ? Number(value) : NaN;
  if (!Number.isSafeInteger(seed)) {
    throw new UsageError(`${flag} must be an integer, got ${JSON.stringify(value)}`);
  }
  return seed;
}
