/**
 * How one replay session finds the recording for a live request: its key
 * (the recording's redaction re-applied when the request does not match as
 * sent), a user's matcher where one is declared, the causal rule of the
 * answer book, and, only when asked, the lenient fallback.
 *
 * @module
 */
import { AnswerBook } from "../match/answer_book.ts";
import type { Match } from "../match/answer_book.ts";
import { diagnoseMiss } from "../match/diagnose.ts";
import type { MissDiagnosis } from "../match/diagnose.ts";
import { requestKey } from "../match/fingerprint.ts";
import type { RequestKey } from "../match/fingerprint.ts";
import type { JsonRpcId, JsonRpcMessage } from "../jsonrpc/messages.ts";
import { withLiveValues } from "./live_values.ts";
import { withLiveId } from "./wire.ts";
import type { Ready } from "./wire.ts";
import type { Trigger } from "./episodes.ts";
import type { CustomMatcher, ReplayOptions } from "./options.ts";

/** A user's matcher threw: the request is answered with an internal error naming it. */
export class MatcherFailure extends Error {}

/** The outcome of looking a live request up. */
export type Lookup =
  | { found: Match<Trigger>; key: RequestKey }
  | { found: undefined; key: RequestKey };

/** The answer book of one live session, with the options that decide a match. */
export class SessionMatcher {
  readonly book: AnswerBook<Trigger>;
  /** The live values behind the keyed placeholders of each rewritten request. */
  readonly #values = new WeakMap<JsonRpcMessage, ReadonlyMap<string, string>>();

  constructor(triggers: readonly Trigger[], private readonly options: ReplayOptions) {
    this.book = new AnswerBook(triggers, sameAnswer);
  }

  /**
   * The key to match a live message by. The recording's redaction rules are
   * applied only when the message as sent has no exact recording: a message
   * that matches as sent carries nothing they would change (redaction is
   * idempotent), and scrubbing every request cost more than matching it.
   */
  keyOf(message: JsonRpcMessage): RequestKey | Promise<RequestKey> {
    const key = requestKey(message, this.options.fingerprint);
    if (!this.options.rewriteRequest || this.book.has(key)) return key;
    return this.#rewrittenKey(message);
  }

  async #rewrittenKey(message: JsonRpcMessage): Promise<RequestKey> {
    const rewritten = await this.options.rewriteRequest!(message);
    if (rewritten.values?.size) this.#values.set(message, rewritten.values);
    return requestKey(rewritten.message as JsonRpcMessage, this.options.fingerprint);
  }

  /**
   * The recorded answer of `trigger` made ready for the live `message`: its
   * id, and the live values behind the keyed placeholders it echoes.
   */
  answerFor(trigger: Trigger, message: JsonRpcMessage & { id: JsonRpcId }): Ready {
    return withLiveValues(withLiveId(trigger.response!, message.id), this.#values.get(message));
  }

  /** Finds the recording for a live request (`message`, keyed `key`). */
  take(message: JsonRpcMessage, key: RequestKey): Match<Trigger> | undefined {
    const matcher = this.#matcherFor(key);
    if (matcher) {
      const found = this.book.takeWhere(
        key,
        (item) => runMatcher(matcher, item.request.msg, message),
      );
      if (found) return found;
    }
    const lenient = this.options.match === "lenient" && !this.options.strict;
    return this.book.take(key, lenient);
  }

  /** Why nothing answers `key`: the closest recording and what differs. */
  diagnose(key: RequestKey): MissDiagnosis & { closestLine?: number; closestParams?: unknown } {
    const diagnosis = diagnoseMiss(key, this.book.keys());
    const closest = diagnosis.closestIndex === undefined
      ? undefined
      : this.book.items[diagnosis.closestIndex];
    return closest
      ? { ...diagnosis, closestLine: closest.line, closestParams: closest.key.params }
      : diagnosis;
  }

  #matcherFor(key: RequestKey): CustomMatcher | undefined {
    return this.options.matchers?.find((matcher) =>
      matcher.method === key.method &&
      (matcher.tool === undefined || key.method !== "tools/call" || matcher.tool === key.name)
    );
  }
}

/** A client's answer to a server request, with the recording's redaction applied when it has rules. */
export async function rewrittenAnswer(
  options: ReplayOptions,
  live: JsonRpcMessage,
): Promise<JsonRpcMessage> {
  return options.rewriteRequest
    ? (await options.rewriteRequest(live)).message as JsonRpcMessage
    : live;
}

/** True when two recordings answered alike: the same result or error, whatever their ids. */
function sameAnswer(a: Trigger, b: Trigger): boolean {
  const left = a.response?.msg;
  const right = b.response?.msg;
  if (!left || !right) return false;
  return JSON.stringify([left.result, left.error]) === JSON.stringify([right.result, right.error]);
}

function runMatcher(
  matcher: CustomMatcher,
  recorded: JsonRpcMessage,
  live: JsonRpcMessage,
): boolean {
  try {
    return matcher.match(recorded, live) === true;
  } catch (error) {
    const what = matcher.tool ? `${matcher.method} ${matcher.tool}` : matcher.method;
    throw new MatcherFailure(
      `The custom matcher for ${what} threw: ${(error as Error)?.message ?? String(error)}`,
    );
  }
}
