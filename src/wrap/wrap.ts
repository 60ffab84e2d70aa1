/**
 * `wrap`: rewrites a client config in place so chosen stdio servers record
 * through mcp-cassette, or replay from a folder of cassettes; `unwrap` puts
 * back what wrap changed (unwrap.ts). Only the `command` and `args` values of the chosen
 * entries change (jsonc-parser's `modify`), so comments, trailing commas,
 * indentation, key order and the other servers stay as they were. The
 * original is kept next to the file, moved there whole (a rename keeps its
 * every byte), until `--unwrap` takes the wrapped entries' values from it,
 * keeping whatever else the client changed in the file meanwhile.
 *
 * @module
 */
import { applyEdits, modify } from "jsonc-parser";
import type { FormattingOptions } from "jsonc-parser";
import { runtime } from "../runtime/mod.ts";
import { ConfigError, parseClientConfig } from "./config.ts";
import { unwrapConfig } from "./unwrap.ts";
import type { ClientConfig, ServerEntry } from "./config.ts";
import { writeFileSafely } from "../files/safe_write.ts";

/** The suffix of the backup kept beside a wrapped config. */
export const BACKUP_SUFFIX = ".mcp-cassette-backup";

/** What to do to the chosen servers. */
export type WrapAction = { kind: "record" | "replay"; dir: string } | { kind: "unwrap" };

/** Options of {@linkcode wrapConfig}. */
export interface WrapOptions {
  /** The config file. */
  file: string;
  action: WrapAction;
  /** Server names to wrap; `"all"` for every stdio server. */
  servers: string[] | "all";
  /** How to start mcp-cassette itself, by absolute paths (default: this very process). */
  self?: string[];
  log: (line: string) => void;
}

/**
 * Indentation and line ends as the file has them, for the values `modify`
 * writes; undefined for a file on one line, whose new values stay compact.
 */
export function formattingOf(text: string): FormattingOptions | undefined {
  const indent = /^([ \t]+)\S/m.exec(text)?.[1];
  if (indent === undefined) return undefined;
  return {
    insertSpaces: !indent.startsWith("\t"),
    tabSize: indent.startsWith("\t") ? 1 : indent.length,
    eol: text.includes("\r\n") ? "\r\n" : "\n",
  };
}

/** A file name made of the server's name (path separators and such replaced). */
export function cassetteName(server: string): string {
  return `${server.replace(/[^\w.@-]/g, "_")}.cassette.jsonl`;
}

function absolute(path: string): string {
  if (path.startsWith("/") || /^[A-Za-z]:[\\/]/.test(path)) return path;
  return `${runtime.cwd().replace(/[\\/]$/, "")}/${path}`;
}

/** The cassette of `server` in the folder the action names. */
function cassetteIn(dir: string, server: ServerEntry): string {
  return `${absolute(dir).replace(/[\\/]$/, "")}/${cassetteName(server.name)}`;
}

/** What to run by hand for a server wrap leaves alone because a client reaches it at a URL. */
function urlHint(action: WrapAction & { dir: string }, server: ServerEntry): string {
  const cassette = cassetteIn(action.dir, server);
  const run = action.kind === "record"
    ? `record it with mcp-cassette record --url ${server.url} -o ${cassette}`
    : `replay it with mcp-cassette replay ${cassette}`;
  return `${server.name}: left alone, it is reached at a URL; ${run} --listen 127.0.0.1:PORT ` +
    `and point the client at the URL it prints`;
}

/** The command line of the wrapped entry. */
function wrappedCommand(self: string[], action: WrapAction, server: ServerEntry): string[] {
  if (action.kind === "unwrap") return server.command!;
  const cassette = cassetteIn(action.dir, server);
  return action.kind === "record"
    ? [...self, "record", "-o", cassette, "--", ...server.command!]
    : [...self, "replay", cassette];
}

/** True when the entry already starts mcp-cassette: this one, or one written by hand. */
function isWrapped(self: string[], server: ServerEntry): boolean {
  const command = server.command ?? [];
  const modes = ["record", "replay"];
  if (self.every((part, i) => command[i] === part) && modes.includes(command[self.length])) {
    return true;
  }
  const program = command[0]?.split(/[\\/]/).at(-1) ?? "";
  return /^mcp-cassette/.test(program) && modes.includes(command[1]);
}

/** Refuses two servers whose names make the same cassette file. */
function checkDistinct(file: string, servers: ServerEntry[]): void {
  const seen = new Map<string, string>();
  for (const server of servers) {
    const name = cassetteName(server.name);
    const other = seen.get(name);
    if (other !== undefined) {
      throw new ConfigError(
        file,
        `the servers "${other}" and "${server.name}" would share the cassette ${name}`,
      );
    }
    seen.set(name, server.name);
  }
}

/** The entries to rewrite; refuses names the config does not have. */
function chosen(config: ClientConfig, options: WrapOptions): ServerEntry[] {
  if (options.servers === "all") return config.servers;
  return options.servers.map((name) => {
    const entry = config.servers.find((server) => server.name === name);
    if (!entry) {
      throw new ConfigError(
        options.file,
        `no server named "${name}" in ${config.key} (it has: ${
          config.servers.map((server) => server.name).join(", ") || "none"
        })`,
      );
    }
    return entry;
  });
}

async function exists(path: string): Promise<boolean> {
  return (await runtime.stat(path)) !== undefined;
}

/** Checks what the action needs of the folder before anything is written. */
async function prepareDir(action: WrapAction, servers: ServerEntry[], file: string) {
  if (action.kind === "record") {
    await runtime.mkdir(absolute(action.dir));
  } else if (action.kind === "replay") {
    for (const server of servers) {
      const cassette = `${absolute(action.dir)}/${cassetteName(server.name)}`;
      if (!(await exists(cassette))) {
        throw new ConfigError(file, `no cassette ${cassette} to replay ${server.name} from`);
      }
    }
  }
}

/** Rewrites (or puts back) the config; resolves with the exit code. */
export async function wrapConfig(options: WrapOptions): Promise<number> {
  const self = options.self ?? runtime.selfCommand();
  if (options.action.kind === "unwrap") {
    return await unwrapConfig({
      file: options.file,
      backup: options.file + BACKUP_SUFFIX,
      isWrapped: (server) => isWrapped(self, server),
      log: options.log,
    });
  }
  const text = await runtime.readTextFile(options.file).catch((error: Error) => {
    throw new ConfigError(options.file, `cannot read the config: ${error.message.split("\n")[0]}`);
  });
  const config = parseClientConfig(text, options.file);
  const backup = options.file + BACKUP_SUFFIX;
  const picked = chosen(config, options);
  const broken = picked.find((server) => server.problem !== undefined);
  if (broken) throw new ConfigError(options.file, broken.problem!);
  if (await exists(backup) || picked.some((server) => isWrapped(self, server))) {
    throw new ConfigError(
      options.file,
      `already wrapped (run wrap --unwrap first); nothing changed`,
    );
  }
  const stdio = picked.filter((server) => server.command !== undefined);
  if (stdio.length === 0) {
    throw new ConfigError(options.file, "no stdio server to wrap; nothing changed");
  }
  checkDistinct(options.file, stdio);
  await prepareDir(options.action, stdio, options.file);
  for (const server of picked.filter((server) => server.url !== undefined)) {
    options.log(urlHint(options.action, server));
  }
  const formattingOptions = formattingOf(text);
  let edited = text;
  for (const server of stdio) {
    const [command, ...args] = wrappedCommand(self, options.action, server);
    for (const [field, value] of [["command", command], ["args", args]] as const) {
      const edits = modify(edited, [config.key, server.name, field], value, { formattingOptions });
      edited = applyEdits(edited, edits);
    }
    options.log(`${server.name}: wrapped to ${options.action.kind} (${cassetteName(server.name)})`);
  }
  // The original moves aside whole; the wrapped text takes its place.
  await runtime.rename(options.file, backup);
  await writeFileSafely(options.file, edited, { what: "the config" });
  options.log(`${options.file}: the original is kept as ${backup} until wrap --unwrap`);
  return 0;
}
