/**
 * `wrap --unwrap`: puts back what wrap changed and nothing else. Clients
 * rewrite their own configs (a server added from the app, a setting
 * toggled), so the config may have moved on since wrap: every entry that is
 * not one of ours stays as the file has it now, and each entry wrap
 * rewrote gets its original `command` and `args` back, byte for byte,
 * from the backup. When nothing else changed, the backup itself moves back.
 *
 * @module
 */
import { applyEdits, findNodeAtLocation, modify, parse, parseTree } from "jsonc-parser";
import { runtime } from "../runtime/mod.ts";
import { writeFileSafely } from "../files/safe_write.ts";
import { ConfigError, parseClientConfig } from "./config.ts";
import type { ClientConfig, ServerEntry } from "./config.ts";

/** What unwrap needs to know of wrap. */
export interface UnwrapOptions {
  file: string;
  backup: string;
  /** Whether an entry starts mcp-cassette (wrap's own test of its entries). */
  isWrapped: (server: ServerEntry) => boolean;
  log: (line: string) => void;
}

async function readConfig(file: string, what: string): Promise<string> {
  return await runtime.readTextFile(file).catch((error: Error) => {
    throw new ConfigError(file, `cannot read the ${what}: ${error.message.split("\n")[0]}`);
  });
}

/** The raw text of a value in `text`, or undefined when the path is absent. */
function rawValue(text: string, path: string[]): string | undefined {
  const node = findNodeAtLocation(parseTree(text)!, path);
  return node ? text.slice(node.offset, node.offset + node.length) : undefined;
}

/** `text` with the value at `path` replaced by `raw` (added or removed as needed). */
function putRaw(text: string, path: string[], raw: string | undefined): string {
  const node = findNodeAtLocation(parseTree(text)!, path);
  if (raw === undefined) return node ? applyEdits(text, modify(text, path, undefined, {})) : text;
  if (node) return text.slice(0, node.offset) + raw + text.slice(node.offset + node.length);
  const added = applyEdits(text, modify(text, path, JSON.parse(raw), {}));
  return putRaw(added, path, raw);
}

/** The current text with each wrapped entry's command and args taken from the original. */
function restore(
  current: string,
  now: ClientConfig,
  original: string,
  before: ClientConfig,
  options: UnwrapOptions,
) {
  let text = current;
  const restored: string[] = [];
  for (const server of now.servers) {
    const was = before.servers.find((entry) => entry.name === server.name);
    if (!was?.command || !options.isWrapped(server)) continue;
    for (const field of ["command", "args"]) {
      const raw = rawValue(original, [before.key, server.name, field]);
      text = putRaw(text, [now.key, server.name, field], raw);
    }
    restored.push(server.name);
  }
  return { text, restored };
}

function sameJson(a: string, b: string): boolean {
  return JSON.stringify(parse(a)) === JSON.stringify(parse(b));
}

/** Unwraps `options.file`; resolves with the exit code. */
export async function unwrapConfig(options: UnwrapOptions): Promise<number> {
  const { file, backup } = options;
  if ((await runtime.stat(backup)) === undefined) {
    throw new ConfigError(file, `not wrapped: there is no backup ${backup} to put back`);
  }
  const original = await readConfig(backup, "backup");
  const current = await readConfig(file, "config");
  const before = parseClientConfig(original, backup);
  const { text, restored } = restore(
    current,
    parseClientConfig(current, file),
    original,
    before,
    options,
  );
  if (sameJson(text, original)) {
    // Nothing but our edits changed: the original's every byte goes back.
    await runtime.rename(backup, file);
    options.log(`${file}: put back as it was before wrap`);
    return 0;
  }
  await writeFileSafely(file, text, { what: "the config" });
  await runtime.remove(backup);
  options.log(
    `${file}: put back ${restored.join(", ") || "no server"} as before wrap; ` +
      `kept what changed in the file since`,
  );
  return 0;
}
