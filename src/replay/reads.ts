/**
 * Which recorded requests cannot change the server's state: the answer
 * book's causal rule counts only the others as history (see
 * ../match/answer_book.ts). A request is a read by its method, or, for a
 * tool call, when a recorded `tools/list` answer marks the tool
 * `readOnlyHint: true` and the recording agrees: when two identical calls of
 * the tool in one session were answered differently, the server showed state
 * the hint denies (server-sequential-thinking marks its tool read-only and
 * keeps a history), and the tool's calls count as changes.
 *
 * @module
 */
import type { JsonObject, JsonRpcMessage } from "../jsonrpc/messages.ts";
import type { RequestKey } from "../match/fingerprint.ts";

/** What is marked: a recorded trigger (./episodes.ts), as far as marking needs it. */
interface Trigger {
  key: RequestKey;
  isRequest?: boolean;
  changesState?: boolean;
  response?: { msg: JsonRpcMessage };
}

/** Methods that only read: they never change what a later answer says. */
const READ_METHODS: ReadonlySet<string> = new Set([
  "ping",
  "server/discover",
  "tools/list",
  "prompts/list",
  "prompts/get",
  "resources/list",
  "resources/templates/list",
  "resources/read",
  "completion/complete",
]);

/** The tools a recorded `tools/list` answer marks read-only. */
function readOnlyToolsOf(trigger: Trigger): string[] {
  if (trigger.key.method !== "tools/list") return [];
  const tools = (trigger.response?.msg.result as JsonObject | undefined)?.tools;
  if (!Array.isArray(tools)) return [];
  return (tools as JsonObject[]).filter((tool) =>
    (tool?.annotations as JsonObject | undefined)?.readOnlyHint === true &&
    typeof tool.name === "string"
  ).map((tool) => tool.name as string);
}

function isRead(key: RequestKey, readOnlyTools: ReadonlySet<string>): boolean {
  return READ_METHODS.has(key.method) ||
    (key.method === "tools/call" && readOnlyTools.has(key.name ?? ""));
}

/**
 * The marks as far as the cassette read so far tells: a streaming replay
 * marks each trigger when it is read. Only read methods are marked early: a
 * tool's read-only hint holds only while the rest of the recording agrees,
 * which the rest of the file may deny. So an early mark is never wrong in the
 * other direction, and {@linkcode markReads} settles the tools' calls once
 * the file is read (turning calls into reads, the one direction the answer
 * book's early answers allow for).
 */
export class ReadMarks {
  /** Marks a trigger just read. */
  mark(trigger: Trigger): void {
    if (READ_METHODS.has(trigger.key.method)) trigger.changesState = false;
  }
}

/**
 * Marks the requests that cannot change state, from their method and every
 * recorded tool annotation the recording agrees with. True when that changed
 * a mark the early marks of {@linkcode ReadMarks} gave (either way).
 */
export function markReads(sessions: readonly { triggers: readonly Trigger[] }[]): boolean {
  const readOnlyTools = new Set<string>();
  for (const session of sessions) {
    for (const trigger of session.triggers) {
      for (const name of readOnlyToolsOf(trigger)) readOnlyTools.add(name);
    }
  }
  for (const name of statefulTools(sessions, readOnlyTools)) readOnlyTools.delete(name);
  let remarked = false;
  for (const session of sessions) {
    for (const trigger of session.triggers) {
      const read = isRead(trigger.key, readOnlyTools);
      if (read === (trigger.changesState === false)) continue;
      trigger.changesState = read ? false : undefined;
      remarked = true;
    }
  }
  return remarked;
}

/**
 * The read-only-hinted tools the recording contradicts: two identical calls
 * in one session, with no state-changing request between them, answered
 * differently. A change after a write is the write's doing (server-memory's
 * `read_graph` after `create_entities`); without one, it is the tool's. When
 * in doubt a tool counts as stateful: that costs an "out of order" report at
 * most, never a silent answer from the wrong state.
 */
function statefulTools(
  sessions: readonly { triggers: readonly Trigger[] }[],
  readOnlyTools: ReadonlySet<string>,
): Set<string> {
  const stateful = new Set<string>();
  for (const session of sessions) {
    // Per call key: the last call, and how many writes the session had made before it.
    const seen = new Map<string, { writes: number; trigger: Trigger }>();
    let writes = 0;
    for (const trigger of session.triggers) {
      const { key } = trigger;
      if (key.method === "tools/call" && readOnlyTools.has(key.name ?? "")) {
        const last = seen.get(key.key);
        // Answers are compared only for a repeated call: a frame on disk is read only then.
        if (last?.writes === writes && differ(last.trigger, trigger)) stateful.add(key.name!);
        seen.set(key.key, { writes, trigger });
      } else if (trigger.isRequest !== false && !READ_METHODS.has(key.method)) writes++;
    }
  }
  return stateful;
}

/** True when both calls were answered, and differently. */
function differ(a: Trigger, b: Trigger): boolean {
  const [left, right] = [answerOf(a), answerOf(b)];
  return left !== undefined && right !== undefined && left !== right;
}

/** A recorded answer without its id (each recording had its own). */
function answerOf(trigger: Trigger): string | undefined {
  const msg = trigger.response?.msg;
  return msg ? JSON.stringify([msg.result, msg.error]) : undefined;
}
