/**
 * `replay --learn-ignores` and `verify --learn-noise`: the `--match-ignore`
 * paths a session's misses suggested (values that look different on every
 * call), or the `--ignore-path` paths verify found to be noise, written into
 * `[replay] match-ignore` or `[verify] ignore-path` of the nearest
 * `mcp-cassette.toml` (one is made in the working folder when there is
 * none). The rest of the file is kept as it was, line for line; the new
 * text is parsed back, then written through a side file renamed over the
 * old one (never through a link).
 *
 * @module
 */
import { isDeepStrictEqual } from "node:util";
import path from "node:path";
import { runtime } from "../runtime/mod.ts";
import { CONFIG_FILE, ConfigError, findConfigFile } from "./file.ts";
import { locateKeys } from "./toml_lines.ts";
import { checkTarget, writeFileSafely } from "../files/safe_write.ts";

/** What {@linkcode learnIgnores} did. */
export interface Learned {
  /** The config file written (or that already held every path). */
  file: string;
  /** The paths added to it. */
  added: string[];
}

function listOf(value: unknown): string[] {
  if (typeof value === "string") return [value];
  return Array.isArray(value) ? value.filter((item) => typeof item === "string") : [];
}

/** Where learned paths go: `[replay] match-ignore` or `[verify] ignore-path`. */
export interface LearnedKey {
  section: "replay" | "verify";
  key: "match-ignore" | "ignore-path";
}

const MATCH_IGNORE: LearnedKey = { section: "replay", key: "match-ignore" };

/** The text with `[section] key` set to `list`, the rest untouched. */
function withList(text: string, list: string[], { section: name, key }: LearnedKey): string {
  const value = JSON.stringify(list);
  const lines = text === "" ? [] : text.replace(/\n$/, "").split("\n");
  const keys = locateKeys(text);
  const keyLine = keys.key(name, key);
  if (keyLine !== undefined) {
    const first = lines[keyLine - 1];
    // A multi-line array runs to the first line that closes it.
    let last = keyLine - 1;
    if (!first.includes("]")) {
      while (last < lines.length - 1 && !lines[last].includes("]")) last++;
    }
    const prefix = first.slice(0, first.indexOf("=") + 1);
    lines.splice(keyLine - 1, last - keyLine + 2, `${prefix} ${value}`);
  } else {
    const section = keys.section(name);
    if (section !== undefined && /^\s*\[/.test(lines[section - 1])) {
      lines.splice(section, 0, `${key} = ${value}`);
    } else {
      if (lines.length > 0) lines.push("");
      lines.push(`[${name}]`, `${key} = ${value}`);
    }
  }
  return lines.join("\n") + "\n";
}

/**
 * Adds `paths` to `[replay] match-ignore` (or `where`) of the nearest
 * config file at or above `start`; undefined when there is nothing to learn.
 */
export async function learnIgnores(
  paths: readonly string[],
  start: string = runtime.cwd(),
  where: LearnedKey = MATCH_IGNORE,
): Promise<Learned | undefined> {
  const wanted = [...new Set(paths)];
  if (wanted.length === 0) return undefined;
  const file = await findConfigFile(start) ?? path.join(start, CONFIG_FILE);
  const info = await checkTarget(file, { what: "the config file" });
  const text = info ? await runtime.readTextFile(file) : "";
  const { parse } = await import("smol-toml");
  const table = (parse(text) as Record<string, Record<string, unknown>>)[where.section] ?? {};
  const known = listOf(table[where.key]);
  const added = wanted.filter((item) => !known.includes(item));
  if (added.length === 0) return { file, added };
  const updated = withList(text, [...known, ...added], where);
  const check = (parse(updated) as Record<string, Record<string, unknown>>)[where.section];
  if (!isDeepStrictEqual(listOf(check?.[where.key]), [...known, ...added])) {
    throw new ConfigError(
      `${file}: could not add ${where.key} under [${where.section}]; add it by hand`,
    );
  }
  await writeFileSafely(file, updated, { what: "the config file" });
  return { file, added };
}
