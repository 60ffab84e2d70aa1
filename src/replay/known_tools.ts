/**
 * The tools a recording knows: those its `tools/list` answers list, and
 * those it called. An expectation about a tool outside them is a mistake in
 * the test (a typo, another server's tool), and says so.
 *
 * @module
 */
import { isObject } from "../util/helpers.ts";
import type { RecordedSession } from "./episodes.ts";

/** The names, sorted. Read once, at the end of a replay (a disk trigger reads its answer back). */
export function knownTools(sessions: readonly RecordedSession[]): string[] {
  const names = new Set<string>();
  for (const session of sessions) {
    for (const trigger of session.triggers) {
      if (trigger.key.method === "tools/call" && trigger.key.name) names.add(trigger.key.name);
      if (trigger.key.method !== "tools/list" || !trigger.response) continue;
      const result = trigger.response.msg.result;
      const tools = isObject(result) && Array.isArray(result.tools) ? result.tools : [];
      for (const tool of tools) {
        if (isObject(tool) && typeof tool.name === "string") names.add(tool.name);
      }
    }
  }
  return [...names].sort();
}
