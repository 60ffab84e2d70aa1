/**
 * Finding and reading `mcp-cassette.toml`: the nearest one in the working
 * folder or above it. The one reader of the file; what a section means is
 * decided by src/config/options.ts and src/config/testing.ts.
 *
 * @module
 */
import { isAbsolute } from "../files/absolute.ts";
import { UsageError } from "../errors/errors.ts";
import { runtime } from "../runtime/mod.ts";
import { closestName } from "../options/suggest.ts";
import { CONFIG_SECTIONS } from "../options/sections.ts";
import type { ConfigSection } from "../options/sections.ts";
import { locateKeys } from "./toml_lines.ts";

/** The config file's name, looked for in the working folder and its parents. */
export const CONFIG_FILE = "mcp-cassette.toml";

export { CONFIG_SECTIONS } from "../options/sections.ts";
export type { ConfigSection } from "../options/sections.ts";

/** A mistake in the config file: the message names the file, the line and the key. */
export class ConfigError extends UsageError {}

/** One setting as written in the file. */
export interface ConfigEntry {
  value: unknown;
  /** 1-based; 0 when the scan could not place it. */
  line: number;
}

/** A parsed config file, by section and key. */
export interface ConfigFile {
  path: string;
  /** Its folder: relative paths in the file are taken from here. */
  dir: string;
  /** Where a section starts (for errors about the section as a whole). */
  sectionLine(section: ConfigSection): number;
  /** The keys of a section as written (empty when the section is absent). */
  section(section: ConfigSection): Map<string, ConfigEntry>;
}

export { isAbsolute };

function dirname(path: string): string {
  const slash = Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\"));
  return slash === -1 ? "." : path.slice(0, slash) || "/";
}

/** `file:line` for messages, or the file alone when the line is unknown. */
export function where(file: string, line: number | undefined): string {
  return line ? `${file}:${line}` : file;
}

let parser: Promise<typeof import("smol-toml")> | undefined;

/**
 * The TOML parser, loaded once and only when there is a file: replay starts
 * in every client session and most have no config.
 */
function tomlParser(): Promise<typeof import("smol-toml")> {
  return parser ??= import("smol-toml");
}

/**
 * The nearest config file at or above `start`, or undefined when there is
 * none. Finding one starts loading the parser, to overlap whatever the caller
 * does before it reads the file.
 */
export async function findConfigFile(start: string = runtime.cwd()): Promise<string | undefined> {
  let dir = start.replace(/[\\/]+$/, "") || "/";
  for (;;) {
    const candidate = dir === "/" ? `/${CONFIG_FILE}` : `${dir}/${CONFIG_FILE}`;
    const info = await runtime.stat(candidate).catch(() => undefined);
    if (info?.isFile || info?.isSymlink) {
      tomlParser().catch(() => {});
      return candidate;
    }
    if (dir === "/" || dir === ".") return undefined;
    dir = dirname(dir);
  }
}

function isTable(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value) &&
    !(value instanceof Date);
}

async function parseToml(path: string, text: string): Promise<Record<string, unknown>> {
  const { parse } = await tomlParser();
  try {
    return parse(text) as Record<string, unknown>;
  } catch (error) {
    const line = (error as { line?: number }).line;
    const message = (error as Error).message.split("\n")[0].replace(/^Invalid TOML document: /, "");
    throw new ConfigError(`${where(path, line)}: not valid TOML: ${message}`);
  }
}

/** Reads and checks the shape of the config file at `path`: known sections, each a table. */
export async function readConfigFile(path: string): Promise<ConfigFile> {
  let text: string;
  try {
    text = await runtime.readTextFile(path);
  } catch (error) {
    throw new ConfigError(`${path}: cannot read the config file: ${(error as Error).message}`);
  }
  const document = await parseToml(path, text);
  const lines = locateKeys(text);
  const sections = new Map<string, Map<string, ConfigEntry>>();
  for (const [name, value] of Object.entries(document)) {
    const line = lines.section(name);
    if (!(CONFIG_SECTIONS as readonly string[]).includes(name)) {
      const guess = closestName(name, CONFIG_SECTIONS);
      throw new ConfigError(
        `${where(path, line)}: unknown section [${name}]` +
          (guess ? `. Did you mean [${guess}]?` : ` (known: ${CONFIG_SECTIONS.join(", ")})`),
      );
    }
    if (!isTable(value)) {
      throw new ConfigError(`${where(path, line)}: ${name} must be a section ([${name}])`);
    }
    const entries = new Map<string, ConfigEntry>();
    for (const [key, setting] of Object.entries(value)) {
      entries.set(key, { value: setting, line: lines.key(name, key) ?? 0 });
    }
    sections.set(name, entries);
  }
  return {
    path,
    dir: dirname(path),
    sectionLine: (section) => lines.section(section) ?? 0,
    section: (section) => sections.get(section) ?? new Map(),
  };
}

/**
 * The config in effect: `explicit` when given (it must exist), else the
 * nearest `mcp-cassette.toml` (`lookup`: a {@linkcode findConfigFile} already
 * under way), else undefined.
 */
export async function loadConfig(
  explicit?: string,
  lookup?: Promise<string | undefined>,
): Promise<ConfigFile | undefined> {
  if (explicit !== undefined) {
    const path = isAbsolute(explicit) ? explicit : `${runtime.cwd()}/${explicit}`;
    if (!await runtime.stat(path)) throw new ConfigError(`${explicit}: no such config file`);
    return await readConfigFile(path);
  }
  const found = await (lookup ?? findConfigFile());
  return found ? await readConfigFile(found) : undefined;
}
