/**
 * A recorded request left in the cassette file, held as a row of numbers.
 *
 * A streaming replay of a large cassette holds one of these per recorded
 * request, and each is three fields: its session's {@linkcode DiskColumns},
 * its row there, and its index. Everything else is in the row, in typed
 * arrays outside the JavaScript heap: where its request and answer lie in
 * the file (../cassette/frame_store.ts), their checks and times, where its
 * key's bytes are (./key_arena.ts), the key's hash (../match/book_index.ts),
 * its method and target as a shared shape, and its flags. What few triggers
 * have (steps, an exchange, an answer that could not be placed) is in maps
 * by row.
 *
 * Why so lean: V8 grows its young generation when many of the objects it
 * collects survive, and a replay reading its cassette makes objects that all
 * survive. A 100,000-call cassette's triggers as objects with a key string,
 * a key object and frame objects took 690 bytes each, and the young
 * generation grew to 52 MB on top of them.
 *
 * @module
 */
import type { SseFields } from "../cassette/format.ts";
import type { FramePlace, FrameStore } from "../cassette/frame_store.ts";
import type { Json } from "../jsonrpc/messages.ts";
import { hashOf, requestKey } from "../match/fingerprint.ts";
import { fallbackKey } from "../match/book_index.ts";
import type { FingerprintOptions, RequestKey } from "../match/fingerprint.ts";
import type { RecordedExchange } from "./http/exchanges.ts";
import type { KeyArena } from "./key_arena.ts";
import { DiskFrame, DiskText } from "./text_frame.ts";
import { NO_STEPS } from "./trigger.ts";
import type { RecordedFrame, Step, Trigger } from "./trigger.ts";

// Float64 columns: file offsets past 2 GiB stay exact, and times are fractions.
const T = 0;
const START = 1;
const ANSWER_START = 2;
const ANSWER_T = 3;
const KEY_START = 4;
const WIDE = 5;
// Int32 columns.
const LINE = 0;
const LENGTH = 1;
const CHECK = 2;
const ANSWER_LENGTH = 3;
const ANSWER_CHECK = 4;
const ANSWER_LINE = 5;
const KEY_LENGTH = 6;
const HASH = 7;
const SHAPE = 8;
const FLAGS = 9;
const X = 10;
const NARROW = 11;
/**
 * Rows per page of columns. Pages, not one array doubled: at 500,000 rows
 * the doubling left up to half the array unused, and each copy held the
 * old array and the new one at once.
 */
const PAGE_BITS = 10;
const PAGE_ROWS = 1 << PAGE_BITS;

const IS_REQUEST = 1;
const APPENDED = 2;
const CANCELLED = 4;
const READ_ONLY = 8;
const MAY_CHANGE = 16;
const OPTIONAL = 32;
/** X of a trigger recorded on no HTTP exchange. */
const NO_EXCHANGE = -1;

/** A method and its target, shared by every trigger of that pair. */
interface KeyShape {
  readonly method: string;
  readonly name: string | undefined;
}

/** What a new row is made from. */
interface RowFields {
  line: number;
  t: number;
  x?: number;
  appended?: boolean;
  optional?: boolean;
  isRequest: boolean;
}

/** One session's disk triggers: their rows, and what they share. */
export class DiskColumns {
  readonly #wide: Float64Array[] = [];
  readonly #narrow: Int32Array[] = [];
  #count = 0;
  readonly #shapes: KeyShape[] = [];
  readonly #shapeIds = new Map<string, number>();
  /** What few rows have, by row. */
  readonly steps = new Map<number, Step[]>();
  readonly after = new Map<number, Step[]>();
  readonly held = new Map<number, RecordedFrame>();
  readonly answerSse = new Map<number, SseFields>();
  readonly exchanges = new Map<number, RecordedExchange>();
  /** Keys the arena could not take, as strings. */
  readonly keyTexts = new Map<number, string>();

  constructor(
    readonly store: FrameStore,
    readonly keys: KeyArena,
    readonly options: FingerprintOptions,
  ) {}

  /** A new row for a request at `place` keyed `key`; no answer yet. */
  add(place: FramePlace, key: RequestKey, fields: RowFields): number {
    const row = this.#count++;
    if ((row & (PAGE_ROWS - 1)) === 0) {
      this.#wide.push(new Float64Array(PAGE_ROWS * WIDE));
      this.#narrow.push(new Int32Array(PAGE_ROWS * NARROW));
    }
    this.setWide(row, T, fields.t);
    this.setWide(row, START, place.start);
    this.setNarrow(row, LENGTH, place.end - place.start);
    this.setWide(row, ANSWER_START, -1);
    this.setNarrow(row, LINE, fields.line);
    this.setNarrow(row, CHECK, place.check);
    this.setNarrow(row, HASH, hashOf(key));
    this.setNarrow(row, SHAPE, this.#shape(key));
    this.setNarrow(row, X, fields.x ?? NO_EXCHANGE);
    this.setNarrow(
      row,
      FLAGS,
      (fields.isRequest ? IS_REQUEST : 0) | (fields.appended ? APPENDED : 0) |
        (fields.optional ? OPTIONAL : 0),
    );
    const span = this.keys.add(key.key);
    if (span) {
      this.setWide(row, KEY_START, span.start);
      this.setNarrow(row, KEY_LENGTH, span.length);
    } else {
      this.setNarrow(row, KEY_LENGTH, -1);
      this.keyTexts.set(row, key.key);
    }
    return row;
  }

  /** Float64 column `column` of `row`. */
  wide(row: number, column: number): number {
    return this.#wide[row >> PAGE_BITS][(row & (PAGE_ROWS - 1)) * WIDE + column];
  }

  /** Sets Float64 column `column` of `row`. */
  setWide(row: number, column: number, value: number): void {
    this.#wide[row >> PAGE_BITS][(row & (PAGE_ROWS - 1)) * WIDE + column] = value;
  }

  /** Int32 column `column` of `row`. */
  narrow(row: number, column: number): number {
    return this.#narrow[row >> PAGE_BITS][(row & (PAGE_ROWS - 1)) * NARROW + column];
  }

  /** Sets Int32 column `column` of `row`. */
  setNarrow(row: number, column: number, value: number): void {
    this.#narrow[row >> PAGE_BITS][(row & (PAGE_ROWS - 1)) * NARROW + column] = value;
  }

  /** The shape of `row`'s key. */
  shapeOf(row: number): KeyShape {
    return this.#shapes[this.narrow(row, SHAPE)];
  }

  /** `row`'s key text, from the arena (or the map of those it could not take). */
  keyText(row: number): string {
    const length = this.narrow(row, KEY_LENGTH);
    return length < 0 ? this.keyTexts.get(row)! : this.keys.text(this.wide(row, KEY_START), length);
  }

  #shape(key: RequestKey): number {
    const id = fallbackKey(key);
    let at = this.#shapeIds.get(id);
    if (at === undefined) {
      this.#shapeIds.set(id, at = this.#shapes.length);
      this.#shapes.push({ method: key.method, name: key.name });
    }
    return at;
  }
}

/** The request of `row`, read back from the file on each use. */
function requestOf(columns: DiskColumns, row: number): DiskText {
  const start = columns.wide(row, START);
  const end = start + columns.narrow(row, LENGTH);
  const place = { start, end, check: columns.narrow(row, CHECK) };
  return new DiskText(columns.store, place, columns.narrow(row, LINE));
}

/** A key read from its row: the text from the key arena, the params from the request. */
class DiskKey implements RequestKey {
  readonly method: string;
  readonly name: string | undefined;

  constructor(private readonly columns: DiskColumns, private readonly row: number) {
    const shape = columns.shapeOf(row);
    this.method = shape.method;
    this.name = shape.name;
  }

  get hash(): number {
    return this.columns.narrow(this.row, HASH);
  }

  get key(): string {
    return this.columns.keyText(this.row);
  }

  /** Only a miss diagnosis reads them: built from the request, read back from the file. */
  get params(): Json {
    return requestKey(requestOf(this.columns, this.row).msg, this.columns.options).params;
  }
}

/**
 * A trigger whose fields live in its row. Its own fields are plain
 * properties, not `#private` ones: a copy made with the same prototype
 * (`reindexed`, for the stateless era's merged sessions) must carry them.
 */
export class DiskTrigger implements Trigger {
  constructor(
    private readonly columns: DiskColumns,
    private readonly row: number,
    public index: number,
  ) {}

  /** This trigger's row, when its columns are `columns`. */
  rowIn(columns: DiskColumns): number | undefined {
    return this.columns === columns ? this.row : undefined;
  }

  /** True when `other` is a trigger over the same row. */
  sameRowAs(other: DiskTrigger): boolean {
    return this.columns === other.columns && this.row === other.row;
  }

  /** A new trigger in `columns`, for a request at `place` keyed `key`. */
  static of(
    columns: DiskColumns,
    index: number,
    place: FramePlace,
    key: RequestKey,
    fields: RowFields,
  ): DiskTrigger {
    return new DiskTrigger(columns, columns.add(place, key, fields), index);
  }

  get line(): number {
    return this.columns.narrow(this.row, LINE);
  }

  get t(): number {
    return this.columns.wide(this.row, T);
  }

  get isRequest(): boolean {
    return (this.flags() & IS_REQUEST) !== 0;
  }

  get appended(): boolean | undefined {
    return (this.flags() & APPENDED) !== 0 ? true : undefined;
  }

  get optional(): boolean | undefined {
    return (this.flags() & OPTIONAL) !== 0 ? true : undefined;
  }

  get x(): number | undefined {
    const x = this.columns.narrow(this.row, X);
    return x === NO_EXCHANGE ? undefined : x;
  }

  get cancelled(): boolean | undefined {
    return (this.flags() & CANCELLED) !== 0 ? true : undefined;
  }

  set cancelled(value: boolean | undefined) {
    this.flag(CANCELLED, value === true);
  }

  get changesState(): boolean | undefined {
    const flags = this.flags();
    return flags & READ_ONLY ? false : flags & MAY_CHANGE ? true : undefined;
  }

  set changesState(value: boolean | undefined) {
    this.flag(READ_ONLY, value === false);
    this.flag(MAY_CHANGE, value === true);
  }

  get steps(): Step[] {
    return this.columns.steps.get(this.row) ?? NO_STEPS;
  }

  set steps(steps: Step[]) {
    this.columns.steps.set(this.row, steps);
  }

  get after(): Step[] {
    return this.columns.after.get(this.row) ?? NO_STEPS;
  }

  set after(steps: Step[]) {
    this.columns.after.set(this.row, steps);
  }

  get exchange(): RecordedExchange | undefined {
    return this.columns.exchanges.get(this.row);
  }

  set exchange(exchange: RecordedExchange | undefined) {
    if (exchange) this.columns.exchanges.set(this.row, exchange);
    else this.columns.exchanges.delete(this.row);
  }

  get request(): DiskText {
    return requestOf(this.columns, this.row);
  }

  get key(): RequestKey {
    return new DiskKey(this.columns, this.row);
  }

  get response(): RecordedFrame | undefined {
    const { columns, row } = this;
    const held = columns.held.get(row);
    if (held) return held;
    const start = columns.wide(row, ANSWER_START);
    if (start < 0) return undefined;
    const end = start + columns.narrow(row, ANSWER_LENGTH);
    const place = { start, end, check: columns.narrow(row, ANSWER_CHECK) };
    const line = columns.narrow(row, ANSWER_LINE);
    const t = columns.wide(row, ANSWER_T);
    return new DiskFrame(columns.store, place, line, t, columns.answerSse.get(row));
  }

  /** An answer held as an object (one that could not be placed in the file). */
  set response(frame: RecordedFrame | undefined) {
    if (frame) this.columns.held.set(this.row, frame);
    else this.columns.held.delete(this.row);
  }

  /** The answer, left in the file at `place`. */
  answeredAt(place: FramePlace, line: number, t: number, sse: SseFields | undefined): void {
    const { columns, row } = this;
    columns.setWide(row, ANSWER_START, place.start);
    columns.setNarrow(row, ANSWER_LENGTH, place.end - place.start);
    columns.setWide(row, ANSWER_T, t);
    columns.setNarrow(row, ANSWER_CHECK, place.check);
    columns.setNarrow(row, ANSWER_LINE, line);
    if (sse) columns.answerSse.set(row, sse);
  }

  private flags(): number {
    return this.columns.narrow(this.row, FLAGS);
  }

  private flag(bit: number, on: boolean): void {
    const flags = this.flags();
    this.columns.setNarrow(this.row, FLAGS, on ? flags | bit : flags & ~bit);
  }
}
