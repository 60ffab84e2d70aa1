/**
 * Compares a recorded answer with a live one and names each regression with
 * its kind, its path and the values before and after.
 *
 * @module
 */
import type { Json, JsonRpcMessage } from "../jsonrpc/messages.ts";
import { pathStep, stableStringify } from "../json/values.ts";
import { normalizeAnswer } from "./normalize.ts";
import type { IgnorePattern } from "./normalize.ts";

/** The kinds of regression, most severe first. */
export const REGRESSION_KINDS = [
  "missing-response",
  "error-status-change",
  "structure-change",
  "ordering-change",
  "value-change",
] as const;

/** One kind of regression. */
export type RegressionKind = typeof REGRESSION_KINDS[number];

/** One difference between the recorded and the live answer. */
export interface Regression {
  kind: RegressionKind;
  /** Where, e.g. `$.result.content[0].text.total`. */
  path: string;
  /** The recorded value (absent when a key was added). */
  before?: Json;
  /** The live value (absent when a key was removed or no answer came). */
  after?: Json;
  /** A short explanation: `key removed`, `type number → string`, `timeout after 10000 ms`. */
  note?: string;
}

/** Options for {@linkcode compareAnswers}. */
export interface CompareOptions {
  ignore: readonly IgnorePattern[];
  allowReorder: boolean;
  /** Most differences reported per exchange. */
  limit?: number;
}

function typeName(value: Json | undefined): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

function multisetKey(items: Json[]): string {
  return items.map(stableStringify).sort().join("\u0000");
}

class Differ {
  readonly found: Regression[] = [];
  constructor(private readonly options: CompareOptions) {}

  get full(): boolean {
    return this.found.length >= (this.options.limit ?? 50);
  }

  walk(before: Json, after: Json, path: string): void {
    if (this.full) return;
    const beforeType = typeName(before);
    const afterType = typeName(after);
    if (beforeType !== afterType) {
      this.found.push({
        kind: "structure-change",
        path,
        before,
        after,
        note: `type ${beforeType} → ${afterType}`,
      });
    } else if (beforeType === "array") {
      this.walkArray(before as Json[], after as Json[], path);
    } else if (beforeType === "object") {
      this.walkObject(before as Record<string, Json>, after as Record<string, Json>, path);
    } else if (before !== after) {
      this.found.push({ kind: "value-change", path, before, after });
    }
  }

  walkObject(before: Record<string, Json>, after: Record<string, Json>, path: string) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
    for (const key of keys) {
      const where = path + pathStep(key);
      if (!(key in after)) {
        this.found.push({
          kind: "structure-change",
          path: where,
          before: before[key],
          note: "key removed",
        });
      } else if (!(key in before)) {
        this.found.push({
          kind: "structure-change",
          path: where,
          after: after[key],
          note: "key added",
        });
      } else this.walk(before[key], after[key], where);
      if (this.full) return;
    }
  }

  walkArray(before: Json[], after: Json[], path: string) {
    if (stableStringify(before) === stableStringify(after)) return;
    if (before.length === after.length && multisetKey(before) === multisetKey(after)) {
      if (!this.options.allowReorder) {
        this.found.push({
          kind: "ordering-change",
          path,
          before,
          after,
          note: "same members, other order",
        });
      }
      return;
    }
    const shared = Math.min(before.length, after.length);
    for (let i = 0; i < shared && !this.full; i++) this.walk(before[i], after[i], `${path}[${i}]`);
    if (before.length !== after.length && !this.full) {
      // A longer or shorter list is data, not shape: the items' shape is compared above.
      this.found.push({
        kind: "value-change",
        path,
        before: before.length,
        after: after.length,
        note: `${before.length} items → ${after.length} items`,
      });
    }
  }
}

/** Summarises an answer's class for an error-status change. */
function answerClass(message: JsonRpcMessage): Json {
  if (message.error) return `error ${message.error.code}: ${message.error.message}`;
  return "result";
}

/**
 * Compares a recorded response with the live one (undefined when none
 * came; `why` then says what happened).
 */
export function compareAnswers(
  recorded: JsonRpcMessage,
  live: JsonRpcMessage | undefined,
  options: CompareOptions,
  why = "no answer",
): Regression[] {
  if (!live) {
    return [{ kind: "missing-response", path: "$", before: answerClass(recorded), note: why }];
  }
  const recordedIsError = recorded.error !== undefined;
  const liveIsError = live.error !== undefined;
  if (recordedIsError !== liveIsError) {
    return [{
      kind: "error-status-change",
      path: liveIsError ? "$.error" : "$.result",
      before: answerClass(recorded),
      after: answerClass(live),
      note: liveIsError ? "result became an error" : "error became a result",
    }];
  }
  const path = recordedIsError ? "$.error" : "$.result";
  const pick = (
    message: JsonRpcMessage,
  ): Json => (recordedIsError ? message.error as unknown as Json : message.result ?? null);
  const before = normalizeAnswer(pick(recorded), path, options.ignore);
  const after = normalizeAnswer(pick(live), path, options.ignore);
  const differ = new Differ(options);
  differ.walk(before, after, path);
  return differ.found;
}

/** The most severe kind among `regressions`. */
export function worstKind(regressions: readonly Regression[]): RegressionKind | undefined {
  return REGRESSION_KINDS.find((kind) =>
    regressions.some((regression) => regression.kind === kind)
  );
}
