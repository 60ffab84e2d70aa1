/**
 * How many times each recorded request answered, and how, by its cassette
 * line: four counters a line in pages of typed arrays, made when a line of
 * the page is first used.
 *
 * Why not an object per used recording in a Map: a replay answering every
 * call of a 100,000-call cassette held 100,000 of them (about 12 MB with the
 * Map), each promoted to V8's old generation as it was made, where V8 let
 * the heap grow to several times what it kept before collecting it. The
 * report's rows (method, name) are made from the triggers at the end.
 *
 * @module
 */

/** The counter of answers in causal order ({@linkcode UseCounts.add} takes it). */
export const PLAYED = 0;
/** The counter of stand-ins for another key (`match: "lenient"`). */
export const INEXACT = 1;
/** The counter of answers given again after the recordings ran out. */
export const REPEATED = 2;
/** The counter of answers recorded after a request the live session had not made. */
export const OUT_OF_ORDER = 3;
const COUNTERS = 4;

const PAGE_BITS = 10;
const PAGE_LINES = 1 << PAGE_BITS;

/** Use counters by cassette line. */
export class UseCounts {
  #pages: (Uint32Array | undefined)[] = [];

  /** Adds one to counter `counter` of `line`. */
  add(line: number, counter: number): void {
    const page = line >> PAGE_BITS;
    const counts = this.#pages[page] ??= new Uint32Array(PAGE_LINES * COUNTERS);
    counts[(line & (PAGE_LINES - 1)) * COUNTERS + counter]++;
  }

  /** Counter `counter` of `line` (0 for a line never used). */
  get(line: number, counter: number): number {
    const counts = this.#pages[line >> PAGE_BITS];
    return counts ? counts[(line & (PAGE_LINES - 1)) * COUNTERS + counter] : 0;
  }

  /** Every counter back to 0 (a control reset). */
  clear(): void {
    this.#pages = [];
  }
}
