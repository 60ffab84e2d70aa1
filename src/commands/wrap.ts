/**
 * `mcp-cassette wrap`: point a client's config at mcp-cassette (record or
 * replay) for chosen stdio servers, and put it back.
 *
 * @module
 */
import { WRAP_OPTIONS } from "../options/wrap.ts";
import type { Command, OptionValues } from "../cli/command.ts";
import { flag, stringList, stringOption } from "../cli/command.ts";
import { printErr } from "../cli/output.ts";
import { UsageError } from "../errors/errors.ts";
import type { WrapAction } from "../wrap/wrap.ts";

function actionOf(values: OptionValues): WrapAction {
  const record = stringOption(values, "record");
  const replay = stringOption(values, "replay");
  const unwrap = flag(values, "unwrap");
  const given = [record !== undefined, replay !== undefined, unwrap].filter(Boolean).length;
  if (given !== 1) throw new UsageError("wrap takes one of --record DIR, --replay DIR or --unwrap");
  if (unwrap) return { kind: "unwrap" };
  return record !== undefined ? { kind: "record", dir: record } : { kind: "replay", dir: replay! };
}

/** The `wrap` command. */
export const command: Command = {
  name: "wrap",
  summary: "Rewrite a client's config so its stdio servers record or replay through mcp-cassette",
  usage: "wrap CONFIG [--server NAME … | --all] (--record DIR | --replay DIR | --unwrap)",
  description: [
    "Edits an MCP client's config file in place (mcpServers: Claude Desktop, Cursor, Claude Code's",
    ".mcp.json, Windsurf; servers: VS Code's .vscode/mcp.json) so that the chosen stdio servers record",
    "into DIR/<server>.cassette.jsonl, or replay from there. Only their command and args change:",
    "comments, commas, indentation and the other servers stay as they are. The command written is this",
    "mcp-cassette by absolute path. The original is kept beside the file until --unwrap puts it back.",
    "Servers reached at a url are left alone, with the record --url command to use instead.",
  ].join("\n"),
  options: WRAP_OPTIONS,
  async run({ values, positionals }) {
    if (positionals.length !== 1) {
      throw new UsageError(`wrap takes one config file, got ${positionals.length}`);
    }
    const action = actionOf(values);
    const names = stringList(values, "server");
    const all = flag(values, "all");
    if (action.kind !== "unwrap" && names.length === 0 && !all) {
      throw new UsageError("wrap needs --server NAME (repeatable) or --all");
    }
    if (names.length > 0 && all) throw new UsageError("wrap takes --server or --all, not both");
    const { wrapConfig } = await import("../wrap/wrap.ts");
    return await wrapConfig({
      file: positionals[0],
      action,
      servers: all ? "all" : names,
      log: (line) => printErr(`mcp-cassette: ${line}`),
    });
  },
};
