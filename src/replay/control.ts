/**
 * Steering a running replay, whatever its transport: read the journal,
 * start afresh, put a fault overlay in force (or take it away), and, for a
 * front end that opens sessions (HTTP), serve new ones from another
 * cassette. The HTTP replay serves these at `/__cassette/…` with
 * `--control` (./http/control.ts); in process, `ReplayTransport.control`
 * is one.
 *
 * @module
 */
import { CassetteError } from "../errors/errors.ts";
import type { FaultInjector } from "../faults/types.ts";
import { createFaultInjector, parseFaultOverlay } from "../faults/mod.ts";
import type { ReplayEngine } from "./engine.ts";
import { settleJournal } from "./journal.ts";
import type { Journal } from "./journal.ts";

/** The controls of one replay. */
export class ReplayControl {
  /** Every engine served so far, each with the faults it started with (`--faults`). */
  readonly #engines = new Map<ReplayEngine, FaultInjector | undefined>();
  #overlay: FaultInjector | undefined;
  #engine: ReplayEngine;

  constructor(engine: ReplayEngine) {
    this.#engine = engine;
    this.#engines.set(engine, engine.options.faults);
  }

  /** The engine new sessions are served from. */
  get engine(): ReplayEngine {
    return this.#engine;
  }

  /** The journal (one for every cassette served), its arguments redacted (see ./journal.ts). */
  async journal(): Promise<Journal> {
    await settleJournal(this.#engine.report.journal);
    return this.#engine.report.journal;
  }

  /** Every session's state, the use counts, the report and the journal start afresh. */
  reset(): void {
    for (const engine of this.#engines.keys()) engine.reset();
  }

  /**
   * Puts a fault overlay (the `--faults` format, JSON or JSONC text) in
   * force from the next request, in place of any before it. Throws a
   * one-line error naming what is wrong; the faults in force stay then.
   */
  setFaults(text: string, source = "the fault overlay"): void {
    let overlay;
    try {
      overlay = parseFaultOverlay(text, source);
    } catch (error) {
      if (error instanceof CassetteError) throw error;
      throw new CassetteError(`${source}: ${(error as Error).message}`);
    }
    this.#overlay = createFaultInjector(overlay);
    for (const engine of this.#engines.keys()) engine.options.faults = this.#overlay;
  }

  /** Takes the overlay away: the faults each cassette started with are in force again. */
  clearFaults(): void {
    this.#overlay = undefined;
    for (const [engine, faults] of this.#engines) engine.options.faults = faults;
  }

  /**
   * Serves new sessions from `engine` (sessions already open stay on theirs):
   * it shares the journal, and the overlay in force, if any.
   */
  switchTo(engine: ReplayEngine): void {
    this.#engines.set(engine, engine.options.faults);
    if (this.#overlay) engine.options.faults = this.#overlay;
    const journal = this.#engine.report.journal;
    engine.report.journal = journal;
    this.#engine = engine;
  }
}
