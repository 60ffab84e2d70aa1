/**
 * Which recorded session a client connection is served from, and the era of
 * the recording: from the whole cassette, and, for a streaming replay, from
 * the part read so far when that part already decides.
 *
 * @module
 */
import type { CassetteHeader, Era } from "../cassette/format.ts";
import type { RecordedSession, Trigger } from "./episodes.ts";
import { offersModernEra } from "../jsonrpc/messages.ts";

/**
 * The era the cassette was recorded in. A header without one means legacy,
 * except on stdio, where the header is written before the first exchange:
 * there a recording whose first answered request is `server/discover`,
 * answered offering 2026-07-28, is modern. A probe answered with an error or
 * with only earlier versions tells nothing: the client fell back to
 * `initialize`.
 */
export function eraOf(header: CassetteHeader, sessions: readonly RecordedSession[]): Era {
  if (header.era) return header.era;
  if (header.transport !== "stdio") return "legacy";
  for (const session of sessions) {
    const answered = session.triggers.find((trigger) =>
      trigger.response && !("error" in trigger.response.msg) && !legacyProbe(trigger)
    );
    if (answered?.key.method === "server/discover") return "modern";
    if (answered?.key.method === "initialize") return "legacy";
  }
  return "legacy";
}

/**
 * The era as {@linkcode eraOf} will tell it once the whole file is read, or
 * undefined while the part read cannot tell yet: the first session's
 * requests up to its first answered one must all be read with their answers.
 */
export function settledEra(
  header: CassetteHeader,
  sessions: readonly RecordedSession[],
): Era | undefined {
  if (header.era) return header.era;
  if (header.transport !== "stdio") return "legacy";
  for (const trigger of sessions[0]?.triggers ?? []) {
    if (!trigger.isRequest) continue;
    if (!trigger.response) return undefined; // its answer may come further on
    if ("error" in trigger.response.msg || legacyProbe(trigger)) continue;
    if (trigger.key.method === "server/discover") return "modern";
    return trigger.key.method === "initialize" ? "legacy" : undefined;
  }
  return undefined;
}

/** A `server/discover` answered with a result that offers no 2026-07-28 version. */
function legacyProbe(trigger: Trigger): boolean {
  return trigger.key.method === "server/discover" && !offersModernEra(trigger.response?.msg.result);
}

/**
 * The recorded session for a connection whose first client message has
 * this key: the first unclaimed session that starts with it, else the first
 * unclaimed one, else the first that starts with it.
 */
export function claimRecording(
  sessions: readonly RecordedSession[],
  claimed: Set<RecordedSession>,
  firstKey: string,
): RecordedSession {
  const startsWith = (session: RecordedSession) => session.triggers[0]?.key.key === firstKey;
  const pick = sessions.find((s) => !claimed.has(s) && startsWith(s)) ??
    sessions.find((s) => !claimed.has(s)) ??
    sessions.find(startsWith) ??
    sessions[0];
  claimed.add(pick);
  return pick;
}

/**
 * {@linkcode claimRecording} over the sessions read so far, when they
 * already decide: an unclaimed session starts with the key, and every
 * unclaimed one before it has begun with another. Undefined otherwise.
 */
export function settledClaim(
  sessions: readonly RecordedSession[],
  claimed: Set<RecordedSession>,
  firstKey: string,
): RecordedSession | undefined {
  for (const session of sessions) {
    if (claimed.has(session)) continue;
    const first = session.triggers[0];
    if (!first) return undefined; // it may yet begin with this key
    if (first.key.key !== firstKey) continue;
    claimed.add(session);
    return session;
  }
  return undefined;
}
