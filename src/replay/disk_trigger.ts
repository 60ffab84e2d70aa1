/**
 * A recorded request left in the cassette file, held in a few small numbers.
 *
 * A streaming replay of a large cassette holds one of these per recorded
 * request. What each holds is what V8 keeps without a heap object of its
 * own: small integers, `undefined`, and pointers to objects shared by many
 * triggers. The request's text and its answer's text stay in the file
 * (../cassette/frame_store.ts); their byte ranges, checks and times are in
 * one typed array per session ({@linkcode DiskColumns}), outside the
 * JavaScript heap; the key is held as its hash (../match/book_index.ts), and
 * its text is built again from the request when read.
 *
 * Why so lean: a 100,000-call cassette's triggers as objects with a string
 * key, a key object and frame objects each took 690 bytes of heap, and
 * because all of it was made while the file was read and all of it lived,
 * V8 grew its young generation to 52 MB on top (each collection copied
 * every survivor, and many survivors make V8 grow that space).
 *
 * @module
 */
import type { SseFields } from "../cassette/format.ts";
import type { FramePlace, FrameStore } from "../cassette/frame_store.ts";
import type { Json } from "../jsonrpc.ts";
import { hashOf, requestKey } from "../match/fingerprint.ts";
import type { FingerprintOptions, HeldMessage, RequestKey } from "../match/fingerprint.ts";
import type { RecordedExchange } from "./http/exchanges.ts";
import { DiskFrame, DiskText } from "./text_frame.ts";
import type { RecordedFrame, Step, Trigger } from "./trigger.ts";

/** Per trigger, in {@linkcode DiskColumns}: where its frames lie, and when they were recorded. */
const T = 0;
const START = 1;
const END = 2;
const CHECK = 3;
const ANSWER_START = 4;
const ANSWER_END = 5;
const ANSWER_CHECK = 6;
const ANSWER_LINE = 7;
const ANSWER_T = 8;
const STRIDE = 9;

/** A method and its target, shared by every trigger of that pair. */
interface KeyShape {
  readonly method: string;
  readonly name: string | undefined;
}

/**
 * One session's disk triggers' numbers, in one growing Float64Array (file
 * offsets past 2 GiB stay exact), and what they all share.
 */
export class DiskColumns {
  #values = new Float64Array(STRIDE * 64);
  #count = 0;
  #shapes = new Map<string, KeyShape>();

  constructor(
    readonly store: FrameStore,
    readonly options: FingerprintOptions,
  ) {}

  /** A new row, for a request at `place` recorded at `t`; no answer yet. */
  add(place: FramePlace, t: number): number {
    if ((this.#count + 1) * STRIDE > this.#values.length) {
      const bigger = new Float64Array(this.#values.length * 2);
      bigger.set(this.#values);
      this.#values = bigger;
    }
    const row = this.#count++;
    this.set(row, T, t);
    this.set(row, START, place.start);
    this.set(row, END, place.end);
    this.set(row, CHECK, place.check);
    this.set(row, ANSWER_START, -1);
    return row;
  }

  /** Value `column` of `row`. */
  get(row: number, column: number): number {
    return this.#values[row * STRIDE + column];
  }

  /** Sets value `column` of `row`. */
  set(row: number, column: number, value: number): void {
    this.#values[row * STRIDE + column] = value;
  }

  /** The one shape of this method and target (a tool's name is held once, not per call). */
  shape(method: string, name: string | undefined): KeyShape {
    const id = name === undefined ? method : `${method} ${name}`;
    let shape = this.#shapes.get(id);
    if (!shape) this.#shapes.set(id, shape = { method, name });
    return shape;
  }
}

/**
 * A key whose text is built again from its request each time it is read:
 * only a hit in the answer book (to confirm it) and a miss diagnosis read it.
 */
class DiskKey implements RequestKey {
  readonly method: string;
  readonly name: string | undefined;

  constructor(
    shape: KeyShape,
    readonly hash: number,
    private readonly source: HeldMessage,
    private readonly options: FingerprintOptions,
  ) {
    this.method = shape.method;
    this.name = shape.name;
  }

  get key(): string {
    return requestKey(this.source.msg, this.options).key;
  }

  get params(): Json {
    return requestKey(this.source.msg, this.options).params;
  }
}

/**
 * A trigger read back from the cassette file. Its fields are plain
 * properties, not `#private` ones: a copy made with the same prototype
 * (`reindexed`, for the stateless era's merged sessions) must carry them.
 */
export class DiskTrigger implements Trigger {
  steps: Step[];
  after: Step[];
  cancelled?: boolean = undefined;
  changesState?: boolean = undefined;
  exchange?: RecordedExchange = undefined;
  /** An answer that could not be placed in the file, held as its object. */
  private held: RecordedFrame | undefined = undefined;
  /** The placed answer's SSE framing, if it had one. */
  private answerSse: SseFields | undefined = undefined;

  constructor(
    public index: number,
    readonly line: number,
    readonly isRequest: boolean,
    readonly x: number | undefined,
    readonly appended: boolean | undefined,
    private readonly columns: DiskColumns,
    private readonly row: number,
    private readonly shape: KeyShape,
    private readonly hash: number,
    noSteps: Step[],
  ) {
    this.steps = noSteps;
    this.after = noSteps;
  }

  /** Holds `message`'s trigger: its key is computed once here, then only its hash is kept. */
  static of(
    columns: DiskColumns,
    place: FramePlace,
    fields: { index: number; line: number; t: number; x?: number; appended?: boolean },
    key: RequestKey,
    isRequest: boolean,
    noSteps: Step[],
  ): DiskTrigger {
    const row = columns.add(place, fields.t);
    return new DiskTrigger(
      fields.index,
      fields.line,
      isRequest,
      fields.x,
      fields.appended,
      columns,
      row,
      columns.shape(key.method, key.name),
      hashOf(key),
      noSteps,
    );
  }

  get t(): number {
    return this.columns.get(this.row, T);
  }

  get request(): DiskText {
    const { columns, row } = this;
    const place = {
      start: columns.get(row, START),
      end: columns.get(row, END),
      check: columns.get(row, CHECK),
    };
    return new DiskText(columns.store, place, this.line);
  }

  get key(): RequestKey {
    return new DiskKey(this.shape, this.hash, this.request, this.columns.options);
  }

  get response(): RecordedFrame | undefined {
    if (this.held) return this.held;
    const { columns, row } = this;
    const start = columns.get(row, ANSWER_START);
    if (start < 0) return undefined;
    const place = {
      start,
      end: columns.get(row, ANSWER_END),
      check: columns.get(row, ANSWER_CHECK),
    };
    const line = columns.get(row, ANSWER_LINE);
    return new DiskFrame(columns.store, place, line, columns.get(row, ANSWER_T), this.answerSse);
  }

  /** An answer held as an object (one that could not be placed in the file). */
  set response(frame: RecordedFrame | undefined) {
    this.held = frame;
  }

  /** The answer, left in the file at `place`. */
  answeredAt(place: FramePlace, line: number, t: number, sse: SseFields | undefined): void {
    const { columns, row } = this;
    columns.set(row, ANSWER_START, place.start);
    columns.set(row, ANSWER_END, place.end);
    columns.set(row, ANSWER_CHECK, place.check);
    columns.set(row, ANSWER_LINE, line);
    columns.set(row, ANSWER_T, t);
    this.answerSse = sse;
  }
}
