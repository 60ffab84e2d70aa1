/**
 * The answer queues replay draws from, and the rule that picks among
 * identical recorded requests.
 *
 * A recorded answer reflects the server's state when it was recorded, and
 * that state is the work of the requests before it that may change state
 * (writes; lists, reads and tools the recording marks read-only do not
 * count): its "history". Among the recordings of one key the book picks the
 * one whose history is the live session's history — the state-changing
 * requests it has been answered for so far ("causal order"). Recordings with
 * the same history are answered in recorded order, the last of them
 * repeating once they are used up. When no recording's history is the live
 * one, the nearest answers (fewest live requests missing from its history,
 * then fewest extra ones) and the match is reported as out of order.
 * docs/replay.md describes the rule with examples.
 *
 * With `inexact`, a request with no recording of its key takes the next
 * unused answer of its method (for methods that name a target — a tool, a
 * prompt, a resource — only of the same target); anything else is a miss.
 *
 * @module
 */
import { hashOf } from "./fingerprint.ts";
import type { RequestKey } from "./fingerprint.ts";
import { fallbackKey, grown, indexOf, methodPositions, positionsOf } from "./book_index.ts";
import type { Index, Keyed } from "./book_index.ts";

export { invalidateIndex } from "./book_index.ts";
export type { Keyed } from "./book_index.ts";

/** How a request was matched. */
export type MatchKind = "exact" | "repeat" | "inexact";

/** A successful lookup. */
export interface Match<T> {
  item: T;
  kind: MatchKind;
  /** Every recording of the key followed a request this session has not made. */
  outOfOrder?: boolean;
}

/** The causal rule's choice for one key, before anything is marked used. */
interface Choice {
  position: number;
  kind: MatchKind;
  /** The chosen group's history is not the live one. */
  outOfOrder: boolean;
  /** Where in the key's queue the chosen one is. */
  at: number;
}

/**
 * Answer queues over items that carry a {@linkcode RequestKey}, for one live
 * session. Items may be appended to the list while the book is open (a
 * cassette still being read); items already there must not change, except
 * through {@linkcode invalidateIndex}.
 */
export class AnswerBook<T extends Keyed> {
  #items: readonly T[];
  #index: Index;
  #used: Uint8Array;
  /** History keys this live session has been answered for, counted by place (a Fenwick tree). */
  #asked: AskedKeys;
  /**
   * The history keys noted, each as the first position of its key: the
   * history again when the index is rebuilt. Positions, not the keys' text:
   * a replay answering 100,000 different calls held 100,000 key strings
   * here (8 MB), all promoted to V8's old generation as they were noted.
   */
  #noted = new Int32Array(16);
  #notedCount = 0;

  /** Tells two recordings that answered alike (for crediting identical recordings). */
  readonly #sameAnswer?: (a: T, b: T) => boolean;

  /** `sameAnswer` tells recordings whose answers are the same; without it, none are. */
  constructor(items: readonly T[], sameAnswer?: (a: T, b: T) => boolean) {
    this.#sameAnswer = sameAnswer;
    this.#items = items;
    this.#index = indexOf(items);
    this.#used = new Uint8Array(items.length);
    this.#asked = new AskedKeys(this.#index.distinct);
  }

  /** The recorded items. */
  get items(): readonly T[] {
    return this.#items;
  }

  /**
   * Takes the answer for `key`, or undefined on a miss. Without `inexact`
   * (the default), a request with no recording of its exact key is a miss.
   */
  take(key: RequestKey, inexact = false): Match<T> | undefined {
    this.#sync();
    const queue = this.#queueOf(key.key, hashOf(key));
    if (queue) {
      const place = this.#placeOf(queue);
      return this.#commit(this.#choose(queue, place), queue[0], place);
    }
    if (!inexact) return undefined;
    const sameMethod = methodPositions(this.#index, fallbackKey(key))?.find((at) =>
      !this.#used[at]
    );
    if (sameMethod === undefined) return undefined;
    // A key never recorded has no place in the history: nothing to note.
    this.#used[sameMethod] = 1;
    return { item: this.#items[sameMethod], kind: "inexact" };
  }

  /**
   * Takes the answer for `key` only when no item appended later, and no
   * request turning out to be a read, could change which one it is: the
   * chosen recording's history is exactly the live one, it is unused, every
   * earlier recording of the key is used, and `settled` says the item itself
   * is complete. Otherwise takes nothing and returns undefined (a streaming
   * replay then waits for the rest of the file). docs/replay.md says why
   * this is enough.
   */
  takeSettled(key: RequestKey, settled: (item: T) => boolean): Match<T> | undefined {
    this.#sync();
    const queue = this.#queueOf(key.key, hashOf(key));
    if (!queue) return undefined;
    const place = this.#placeOf(queue);
    const choice = this.#choose(queue, place);
    let final = choice.kind === "exact" && !choice.outOfOrder &&
      settled(this.#items[choice.position]);
    for (let at = 0; final && at < choice.at; at++) final = this.#used[queue[at]] === 1;
    return final ? this.#commit(choice, queue[0], place) : undefined;
  }

  /**
   * Moves the book onto `items`, a list that starts with the current one
   * (the stateless era's pool of every recorded session): what was used
   * keeps its place.
   */
  rebase(items: readonly T[]): void {
    this.#items = items;
    this.#index = indexOf(items);
    this.#rebuildHistory();
  }

  /**
   * Takes an answer among the recordings of `key`'s method (and target)
   * that `accepts` (a user's matcher) says stand for the live request.
   */
  takeWhere(key: RequestKey, accepts: (item: T) => boolean): Match<T> | undefined {
    this.#sync();
    const candidates = methodPositions(this.#index, fallbackKey(key))?.filter((at) =>
      accepts(this.#items[at])
    );
    if (!candidates || candidates.length === 0) return undefined;
    const own = this.#queueOf(key.key, hashOf(key));
    const place = own ? this.#placeOf(own) : -1;
    return this.#commit(this.#choose(candidates, place), own ? own[0] : -1, place);
  }

  /** True when a recorded item answers this key exactly. */
  has(key: RequestKey): boolean {
    this.#sync();
    return this.#queueOf(key.key, hashOf(key)) !== undefined;
  }

  /** Items never taken. */
  unused(): T[] {
    return this.#items.filter((_, at) => !this.#used[at]);
  }

  /** The recorded keys, for miss diagnostics. */
  keys(): RequestKey[] {
    return this.#items.map((item) => item.key);
  }

  /** Items of this method (and target), for a user's matcher. */
  candidates(key: RequestKey): T[] {
    this.#sync();
    return (methodPositions(this.#index, fallbackKey(key)) ?? []).map((at) => this.#items[at]);
  }

  /** Brings the index up to the items, and the cursors up to the index. */
  #sync(): void {
    const items = this.#items;
    if (this.#index.count === items.length && !this.#index.stale) return;
    const rebuilt = this.#index.stale;
    this.#index = indexOf(items);
    if (this.#used.length < items.length) {
      this.#used = grown(this.#used, Math.max(items.length, this.#used.length * 2));
    }
    if (rebuilt) this.#rebuildHistory();
    else this.#asked.grow(this.#index.distinct);
  }

  /** The positions of the items keyed exactly `key`, ascending. */
  #queueOf(key: string, hash: number): readonly number[] | undefined {
    return positionsOf(this.#index, this.#items, key, hash);
  }

  /** The history place of the key of `queue` (positions of one key), or -1. */
  #placeOf(queue: readonly number[]): number {
    return this.#index.place[queue[0]];
  }

  #rebuildHistory(): void {
    if (this.#used.length < this.#items.length) this.#used = grown(this.#used, this.#items.length);
    this.#asked = new AskedKeys(this.#index.distinct);
    for (let at = 0; at < this.#notedCount; at++) {
      const { key } = this.#items[this.#noted[at]];
      const queue = this.#queueOf(key.key, hashOf(key));
      const place = queue ? this.#placeOf(queue) : -1;
      if (place >= 0) this.#asked.add(place);
    }
  }

  /**
   * The causal rule (see the module doc) over positions of one key,
   * ascending. Each group of recordings with the same history (the
   * state-changing keys recorded before them, `key` aside) is scored against
   * the live session's history: first how many live requests the group's
   * history lacks, then how many it has that the live session never made.
   * The best group answers, its first unused recording, else its last again;
   * but before a repeat, an unused recording of the key with the very same
   * answer is taken instead, so identical recordings are each used once.
   */
  #choose(queue: readonly number[], own: number): Choice {
    const { rank, prefix } = this.#index;
    const ownAsked = own >= 0 && this.#asked.has(own);
    const liveCount = this.#asked.size - (ownAsked ? 1 : 0);
    let best = -1;
    let bestLacking = Infinity;
    let bestExtra = Infinity;
    for (let at = 0; at < queue.length; at++) {
      if (at > 0 && rank[queue[at]] === rank[queue[at - 1]]) continue; // Same group.
      const end = prefix[queue[at]];
      const shared = this.#asked.countBelow(end) - (ownAsked && own < end ? 1 : 0);
      const lacking = liveCount - shared;
      const extra = rank[queue[at]] - shared;
      if (lacking < bestLacking || (lacking === bestLacking && extra < bestExtra)) {
        [best, bestLacking, bestExtra] = [at, lacking, extra];
      }
    }
    let last = best;
    while (last + 1 < queue.length && rank[queue[last + 1]] === rank[queue[best]]) last++;
    let chosen = last;
    for (let at = best; at <= last; at++) {
      if (!this.#used[queue[at]]) {
        chosen = at;
        break;
      }
    }
    const outOfOrder = bestLacking + bestExtra > 0;
    if (this.#used[queue[chosen]]) {
      const twin = this.#unusedTwin(queue, queue[chosen]);
      if (twin >= 0) return { position: queue[twin], kind: "exact", outOfOrder, at: twin };
    }
    const position = queue[chosen];
    return { position, kind: this.#used[position] ? "repeat" : "exact", outOfOrder, at: chosen };
  }

  /** The first unused recording in `queue` whose answer is the same as `position`'s, or -1. */
  #unusedTwin(queue: readonly number[], position: number): number {
    if (!this.#sameAnswer) return -1;
    for (let at = 0; at < queue.length; at++) {
      const other = queue[at];
      if (this.#used[other]) continue;
      if (this.#sameAnswer(this.#items[other], this.#items[position])) return at;
    }
    return -1;
  }

  /** Marks the choice used and notes its key (`first`, the key's first position) as asked. */
  #commit(choice: Choice, first: number, place: number): Match<T> {
    const { position, kind, outOfOrder } = choice;
    this.#used[position] = 1;
    this.#note(first, place);
    const item = this.#items[position];
    return outOfOrder ? { item, kind, outOfOrder: true } : { item, kind };
  }

  #note(first: number, place: number): void {
    if (place < 0 || this.#asked.has(place)) return;
    this.#asked.add(place);
    if (this.#notedCount === this.#noted.length) {
      this.#noted = grown(this.#noted, 2 * this.#noted.length);
    }
    this.#noted[this.#notedCount++] = first;
  }
}

/** Which history keys were asked, by place, with prefix counts in O(log n). */
class AskedKeys {
  #tree: Int32Array;
  #flags: Uint8Array;
  size = 0;

  constructor(length: number) {
    this.#tree = new Int32Array(length + 1);
    this.#flags = new Uint8Array(length);
  }

  /** Makes room for places up to `length` (history keys read since). */
  grow(length: number): void {
    if (length <= this.#flags.length) return;
    const flags = this.#flags;
    const capacity = Math.max(length, flags.length * 2);
    this.#tree = new Int32Array(capacity + 1);
    this.#flags = new Uint8Array(capacity);
    this.size = 0;
    for (let place = 0; place < flags.length; place++) if (flags[place]) this.add(place);
  }

  has(place: number): boolean {
    return this.#flags[place] === 1;
  }

  add(place: number): void {
    if (this.#flags[place]) return;
    this.#flags[place] = 1;
    this.size++;
    for (let i = place + 1; i < this.#tree.length; i += i & -i) this.#tree[i]++;
  }

  /** How many asked keys have a place below `end`. */
  countBelow(end: number): number {
    let count = 0;
    for (let i = end; i > 0; i -= i & -i) count += this.#tree[i];
    return count;
  }
}
