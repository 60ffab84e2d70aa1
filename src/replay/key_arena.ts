/**
 * Request keys held as UTF-8 bytes in pages outside the JavaScript heap.
 *
 * A streaming replay confirms every answer-book hit by comparing keys
 * (../match/book_index.ts). Rebuilding a recorded key from its request in
 * the file (a read, a parse, the normalising walk) cost each replayed call
 * about 40 µs; holding the keys as strings kept 100,000 of them in the heap,
 * where they made V8 grow its young generation (see ./disk_trigger.ts).
 * Bytes in a page cost neither: a key is decoded only when compared.
 *
 * @module
 */

/** Bytes per page: a key never straddles two. */
const PAGE = 1 << 20;

/** In a `u` regex a surrogate pair is one code point: only a lone surrogate is `Cs`. */
const LONE_SURROGATE = /\p{Cs}/u;

/** Where a key's bytes are: a start over all pages, and a length. */
export interface KeySpan {
  start: number;
  length: number;
}

/** Append-only key storage. */
export class KeyArena {
  readonly #pages: Uint8Array[] = [];
  #used = 0;
  readonly #encoder = new TextEncoder();
  readonly #decoder = new TextDecoder();

  /**
   * Stores `key`; undefined when it cannot be held here (more than a page
   * of UTF-8, or with a lone surrogate, which UTF-8 cannot carry):
   * the caller keeps that one as a string.
   */
  add(key: string): KeySpan | undefined {
    if (LONE_SURROGATE.test(key)) return undefined;
    // Up to three bytes a UTF-16 unit: a key that may not fit starts a page
    // (one that did not fit in an empty page leaves it empty for the next).
    if (this.#pages.length === 0 || (this.#used > 0 && this.#used + key.length * 3 > PAGE)) {
      this.#pages.push(new Uint8Array(PAGE));
      this.#used = 0;
    }
    const page = this.#pages.length - 1;
    const at = this.#used;
    const { read, written } = this.#encoder.encodeInto(key, this.#pages[page].subarray(at));
    if (read < key.length) return undefined; // More than a page of UTF-8.
    this.#used += written;
    return { start: page * PAGE + at, length: written };
  }

  /** The key stored at `start`, `length` bytes. */
  text(start: number, length: number): string {
    const at = start % PAGE;
    return this.#decoder.decode(this.#pages[(start - at) / PAGE].subarray(at, at + length));
  }
}
