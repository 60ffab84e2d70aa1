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
import { CassetteError, UsageError } from "../errors/errors.ts";
import type { FaultInjector } from "../faults/types.ts";
import { createFaultInjector, parseFaultOverlay } from "../faults/mod.ts";
import type { ReplayEngine } from "./engine.ts";
import { settleJournal } from "./journal.ts";
import type { Journal } from "./journal.ts";

/**
 * Loads another cassette for new sessions, with the replay's own options;
 * throws a one-line {@linkcode CassetteError} naming what is wrong.
 */
export type OpenCassette = (path: string) => Promise<ReplayEngine>;

/**
 * The operations a test steers a replay with, whatever serves it: this
 * class in process (`ReplayTransport.control`), or a replay in another
 * process reached over its control endpoint (`startCassette`'s `control`).
 * Each may be awaited; bad input throws a one-line {@linkcode CassetteError}
 * and changes nothing.
 */
export interface CassetteControl {
  /** The journal of every request so far (`GET /__cassette/journal`). */
  journal(): Promise<Journal>;
  /** Every session's state, the use counts and the journal start afresh (`POST /__cassette/reset`). */
  reset(): void | Promise<void>;
  /**
   * A fault overlay in the `--faults` format (its JSON/JSONC text, or the
   * value) in force from the next request, in place of any set before
   * (`POST /__cassette/faults`).
   */
  setFaults(overlay: string | FaultOverlayValue): void | Promise<void>;
  /** Takes the overlay away: the faults the replay started with are in force again (`DELETE`). */
  clearFaults(): void | Promise<void>;
  /** New sessions are served from this cassette; open ones stay on theirs (`POST /__cassette/cassette`). */
  useCassette(path: string): Promise<void>;
}

/** A fault overlay as a value: `{"faults": [...]}`, or the list of faults alone. */
export type FaultOverlayValue = { faults: unknown[]; [key: string]: unknown } | unknown[];

/** The overlay's text, whether given as text or as a value. */
export function overlayText(overlay: string | FaultOverlayValue): string {
  return typeof overlay === "string" ? overlay : JSON.stringify(overlay);
}

/** The controls of one replay. */
export class ReplayControl implements CassetteControl {
  /** Every engine served so far, each with the faults it started with (`--faults`). */
  readonly #engines = new Map<ReplayEngine, FaultInjector | undefined>();
  #overlay: FaultInjector | undefined;
  #engine: ReplayEngine;

  readonly #open: OpenCassette | undefined;
  readonly #switched: ((engine: ReplayEngine) => void)[] = [];

  /**
   * `open` loads a cassette for {@linkcode useCassette}; a replay without it
   * serves one session only (a stdio launch) and has no cassette switch.
   */
  constructor(engine: ReplayEngine, open?: OpenCassette) {
    this.#engine = engine;
    this.#engines.set(engine, engine.options.faults);
    this.#open = open;
  }

  /** Every engine served so far, the first first. */
  get engines(): ReplayEngine[] {
    return [...this.#engines.keys()];
  }

  /** Calls `listener` with the engine new sessions are served from, after each switch. */
  onSwitch(listener: (engine: ReplayEngine) => void): void {
    this.#switched.push(listener);
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
  setFaults(given: string | FaultOverlayValue, source = "the fault overlay"): void {
    const text = overlayText(given);
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
   * Loads the cassette at `path` and serves new sessions from it (see
   * {@linkcode switchTo}). A cassette that cannot be read throws a one-line
   * error naming it, and the cassette served stays.
   */
  async useCassette(path: string): Promise<void> {
    if (!this.#open) {
      throw new UsageError(
        `This replay serves one session and cannot switch to ${path}: a stdio launch's next launch can (startCassette's control.useCassette)`,
      );
    }
    let engine: ReplayEngine;
    try {
      engine = await this.#open(path);
    } catch (error) {
      if (error instanceof CassetteError) throw oneLine(error);
      throw new CassetteError(`The cassette ${path} cannot be read: ${(error as Error).message}`);
    }
    this.switchTo(engine);
    for (const listener of this.#switched) listener(engine);
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

/** The error with its first line only (a reader's error may add a hint below it). */
function oneLine(error: CassetteError): CassetteError {
  error.message = error.message.split("\n")[0];
  return error;
}
