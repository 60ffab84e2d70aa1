/**
 * Which recorded requests cannot change the server's state: the answer
 * book's causal rule counts only the others as history (see
 * ../match/answer_book.ts). A request is a read by its method, or, for a
 * tool call, when a recorded `tools/list` answer marks the tool
 * `readOnlyHint: true`.
 *
 * @module
 */
import type { JsonObject, JsonRpcMessage } from "../jsonrpc.ts";
import type { RequestKey } from "../match/fingerprint.ts";

/** What is marked: a recorded trigger (./episodes.ts), as far as marking needs it. */
interface Trigger {
  key: RequestKey;
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
 * marks each trigger when it is read. A later `tools/list` can only add
 * read-only tools, so a mark given early is never wrong in the other
 * direction; {@linkcode markReads} settles them once the file is read.
 */
export class ReadMarks {
  #readOnlyTools = new Set<string>();

  /** Marks a trigger just read. */
  mark(trigger: Trigger): void {
    if (isRead(trigger.key, this.#readOnlyTools)) trigger.changesState = false;
  }

  /** Learns from a trigger whose response was just read. */
  answered(trigger: Trigger): void {
    for (const name of readOnlyToolsOf(trigger)) this.#readOnlyTools.add(name);
  }
}

/**
 * Marks the requests that cannot change state, from their method and every
 * recorded tool annotation. True when that marked a request the early marks
 * of {@linkcode ReadMarks} had not.
 */
export function markReads(sessions: readonly { triggers: readonly Trigger[] }[]): boolean {
  const readOnlyTools = new Set<string>();
  for (const session of sessions) {
    for (const trigger of session.triggers) {
      for (const name of readOnlyToolsOf(trigger)) readOnlyTools.add(name);
    }
  }
  let remarked = false;
  for (const session of sessions) {
    for (const trigger of session.triggers) {
      if (trigger.changesState === false || !isRead(trigger.key, readOnlyTools)) continue;
      trigger.changesState = false;
      remarked = true;
    }
  }
  return remarked;
}
