/**
 * The MCP client config shapes `wrap` knows: `mcpServers` (Claude Desktop,
 * Cursor, Claude Code's `.mcp.json`, Windsurf) and `servers` with `type`
 * (VS Code's `.vscode/mcp.json`). Each server entry is either started by
 * a command (stdio) or reached at a `url`.
 *
 * @module
 */
import { CassetteError } from "../errors/errors.ts";
import { parseJsonc } from "../json/jsonc.ts";
import { isObject } from "../util/helpers.ts";

/** A config file that cannot be wrapped: names the file and the problem. */
export class ConfigError extends CassetteError {
  constructor(readonly file: string, problem: string) {
    super(`${file}: ${problem}`);
  }
}

/** One server entry of a config. */
export interface ServerEntry {
  name: string;
  /** The command line of a stdio server. */
  command?: string[];
  /** The URL of a server reached over HTTP (`url`, or Windsurf's `serverUrl`). */
  url?: string;
  /** Why the entry cannot be wrapped (refused only when it is chosen). */
  problem?: string;
}

/** A parsed config: where its servers live, and the servers. */
export interface ClientConfig {
  /** The key of the servers object: `mcpServers` or `servers`. */
  key: "mcpServers" | "servers";
  servers: ServerEntry[];
}

type Record_ = Record<string, unknown>;

function entryOf(key: string, name: string, value: unknown): ServerEntry {
  if (!isObject(value)) return { name, problem: `${key}.${name} is not an object` };
  const url = typeof value.url === "string" ? value.url : value.serverUrl;
  if (typeof url === "string") return { name, url };
  if (typeof value.command !== "string" || value.command === "") {
    return { name, problem: `${key}.${name} has neither a "command" nor a "url"` };
  }
  const args = value.args ?? [];
  if (!Array.isArray(args) || !args.every((arg) => typeof arg === "string")) {
    return { name, problem: `${key}.${name}.args must be a list of strings` };
  }
  return { name, command: [value.command, ...args] };
}

/** Reads the servers out of a config's text; `file` names it in messages. */
export function parseClientConfig(text: string, file: string): ClientConfig {
  const parsed = parseJsonc(text);
  if (!parsed.ok) {
    throw new ConfigError(
      `${file}:${parsed.line}:${parsed.column}`,
      `not valid JSON/JSONC (${parsed.problem})`,
    );
  }
  const root = parsed.value;
  if (!isObject(root)) throw new ConfigError(file, "the config is not a JSON object");
  const key = isObject(root.mcpServers) ? "mcpServers" : isObject(root.servers) ? "servers" : "";
  if (key === "") {
    throw new ConfigError(file, `no "mcpServers" or "servers" object: not an MCP client config`);
  }
  const servers = Object.entries(root[key] as Record_).map(([name, value]) =>
    entryOf(key, name, value)
  );
  return { key, servers };
}
