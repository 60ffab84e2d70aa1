/**
 * Ending a child server the way a careful supervisor does: the end of its
 * input first, SIGTERM if it is still there after a grace period, SIGKILL
 * after another. A server that ignores all three polite requests must not
 * keep the recorder (and its claim on the cassette) alive for ever.
 *
 * @module
 */
import type { ChildProcess } from "./types.ts";

/** Default grace, in ms, between the end of input and SIGTERM, and between SIGTERM and SIGKILL. */
export const DEFAULT_GRACE_MS = 3_000;

/**
 * How a child ended: by itself while still fed (`exited`), after the end of
 * its input (`end-of-input`), after the signal it was sent (`SIGINT`,
 * `SIGTERM`), or killed (`SIGKILL`) for outstaying every grace.
 */
export type ChildEnd = "exited" | "end-of-input" | "SIGINT" | "SIGTERM" | "SIGKILL";

/** What {@linkcode ChildStopper.ended} resolves with. */
export interface ChildOutcome {
  /** The exit code (128 + signal number when a signal ended it). */
  code: number;
  how: ChildEnd;
  /** Milliseconds from the first stop request to the exit; absent when none was made. */
  stopMs?: number;
}

/**
 * Watches one child and, once asked to stop it, escalates on a timer. Ask
 * with {@linkcode ChildStopper.inputEnded} when its input has just been
 * closed, or {@linkcode ChildStopper.interrupt} when this process was told to
 * stop (the signal is passed on at once; a second one kills).
 */
export class ChildStopper {
  #how: ChildEnd = "exited";
  #timer: ReturnType<typeof setTimeout> | undefined;
  #asked: number | undefined;
  #gone = false;
  /** Resolves once the child has exited, with how it was ended. */
  readonly ended: Promise<ChildOutcome>;

  /**
   * `progress`, when given, measures what the child has done so far (the
   * bytes of the cassette it is being recorded into): a child still
   * writing when its grace after the end of input runs out is given
   * another, since its client may be reading what it writes. Signals are
   * never postponed.
   */
  constructor(
    readonly child: ChildProcess,
    readonly graceMs: number = DEFAULT_GRACE_MS,
    readonly progress?: () => Promise<number>,
  ) {
    this.ended = child.exited.catch(() => 1).then((code) => {
      this.#gone = true;
      clearTimeout(this.#timer);
      const stopMs = this.#asked === undefined
        ? undefined
        : Math.round(performance.now() - this.#asked);
      return { code, how: this.#how, ...(stopMs === undefined ? {} : { stopMs }) };
    });
  }

  /** The child's input has ended: SIGTERM after the grace, then SIGKILL. */
  inputEnded(): void {
    if (this.#gone || this.#asked !== undefined) return;
    this.#asked = performance.now();
    this.#how = "end-of-input";
    void this.#whileBusy(undefined);
  }

  /** SIGTERM once a whole grace has passed with no progress. */
  async #whileBusy(before: number | undefined): Promise<void> {
    const now = this.progress ? await this.progress().catch(() => 0) : 0;
    if (this.#gone || this.#how !== "end-of-input") return;
    if (before === undefined || now !== before) this.#later(() => void this.#whileBusy(now));
    else this.#signal("SIGTERM");
  }

  /**
   * This process was told to stop: the child gets the same signal now and
   * SIGKILL after the grace; a second request kills at once.
   */
  interrupt(signal: "SIGINT" | "SIGTERM"): void {
    if (this.#gone) return;
    if (this.#how === "SIGINT" || this.#how === "SIGTERM") return this.#kill();
    this.#asked ??= performance.now();
    this.#signal(signal);
  }

  #signal(signal: "SIGINT" | "SIGTERM"): void {
    if (this.#gone) return;
    this.#how = signal;
    this.child.kill(signal);
    this.#later(() => this.#kill());
  }

  #kill(): void {
    if (this.#gone) return;
    clearTimeout(this.#timer);
    this.#how = "SIGKILL";
    this.child.kill("SIGKILL");
  }

  #later(next: () => void): void {
    clearTimeout(this.#timer);
    this.#timer = setTimeout(next, this.graceMs);
  }
}

/** Checks a `--grace` value: a whole number of milliseconds; undefined when it is not one. */
export function parseGraceMs(text: string): number | undefined {
  if (!/^\d{1,9}$/.test(text.trim())) return undefined;
  return Number(text.trim());
}
