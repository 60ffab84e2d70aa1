/**
 * Lint defaults from the `[lint]` section of `mcp-cassette.toml` in the
 * working directory. Command-line options win over it.
 *
 * @module
 */
import { parse } from "smol-toml";
import { CassetteError } from "../errors.ts";
import { runtime } from "../runtime/mod.ts";
import type { Severity } from "./types.ts";

/** The name of the config file looked for in the working directory. */
export const CONFIG_FILE = "mcp-cassette.toml";

/** What `[lint]` may set. */
export interface LintConfig {
  select: string[];
  ignore: string[];
  failOn?: Severity;
  /** Pack paths, resolved against the config file's directory. */
  packs: string[];
  format?: "text" | "json" | "sarif";
}

function strings(path: string, key: string, value: unknown): string[] {
  if (value === undefined) return [];
  if (typeof value === "string") return [value];
  if (Array.isArray(value) && value.every((item) => typeof item === "string")) return value;
  throw new CassetteError(`${path}: [lint] ${key} must be a string or a list of strings`);
}

function dirname(path: string): string {
  const slash = path.lastIndexOf("/");
  return slash === -1 ? "." : path.slice(0, slash) || "/";
}

/** Reads `[lint]` from `path` (default: ./mcp-cassette.toml); an absent file is an empty config. */
export async function loadLintConfig(path?: string): Promise<LintConfig> {
  const file = path ?? `${runtime.cwd()}/${CONFIG_FILE}`;
  const empty: LintConfig = { select: [], ignore: [], packs: [] };
  const info = await runtime.stat(file);
  if (!info) {
    if (path) throw new CassetteError(`${path}: no such config file`);
    return empty;
  }
  let document: Record<string, unknown>;
  try {
    document = parse(await runtime.readTextFile(file)) as Record<string, unknown>;
  } catch (error) {
    throw new CassetteError(`${file}: not valid TOML: ${(error as Error).message.split("\n")[0]}`);
  }
  const lint = document.lint as Record<string, unknown> | undefined;
  if (lint === undefined) return empty;
  const failOn = lint["fail-on"] ?? lint.fail_on;
  if (failOn !== undefined && failOn !== "error" && failOn !== "warning") {
    throw new CassetteError(`${file}: [lint] fail-on must be "error" or "warning"`);
  }
  const format = lint.format;
  if (format !== undefined && format !== "text" && format !== "json" && format !== "sarif") {
    throw new CassetteError(`${file}: [lint] format must be "text", "json" or "sarif"`);
  }
  const base = dirname(file);
  return {
    select: strings(file, "select", lint.select),
    ignore: strings(file, "ignore", lint.ignore),
    failOn: failOn as Severity | undefined,
    packs: strings(file, "packs", lint.packs).map((pack) =>
      pack.startsWith("/") ? pack : `${base}/${pack}`
    ),
    format: format as LintConfig["format"],
  };
}
