/**
 * `mcp-cassette record`: proxy a real server and write the cassette.
 *
 * @module
 */
import { RECORD_OPTIONS } from "../options/record.ts";
import type { Command } from "../cli/command.ts";
import { flag, stringOption } from "../cli/command.ts";
import { printErr } from "../cli/output.ts";
import { UsageError } from "../errors/errors.ts";
import { recordHttp } from "../record/http.ts";
import { runRecord } from "../modes/record_run.ts";
import { withClaim } from "../claim/claim.ts";
import { checkOutputPath } from "../cassette/open.ts";
import { redactorFromOptions, tokenFromOptions } from "./shared_options.ts";
import { runtime } from "../runtime/mod.ts";
import { DEFAULT_GRACE_MS, parseGraceMs } from "../runtime/stop_child.ts";

/** Set to 0 to copy a stdio session on the main thread, not on threads of its own. */
const THREADS_ENV = "MCP_CASSETTE_RECORDER_THREADS";

/** The `record` command. */
export const command: Command = {
  name: "record",
  summary: "Record a live server session into a cassette (stdio or HTTP)",
  usage:
    "record -o CASSETTE [options] -- <server command...> | record -o CASSETTE --url URL [--listen HOST:PORT] | record --script PLAYBOOK -o CASSETTE (-- <server command...> | --url URL)",
  description: [
    "Over stdio, put this command in the client's config in place of the server command: it starts",
    "the real server, passes bytes through verbatim both ways, and writes every frame to the cassette.",
    "Over HTTP (--url) it is a reverse proxy: it prints the URL to give the client.",
    "On Deno on Linux each direction of a stdio session is copied on a thread of its own, which takes",
    "the recorder's latency down to a bare pipe's; MCP_CASSETTE_RECORDER_THREADS=0 copies on the main thread.",
    "With --script it is its own client: it runs the playbook's handshake and steps through the recorder",
    "and writes an ordinary cassette whose header says it was scripted (docs/playbooks.md).",
  ].join("\n"),
  takesRest: true,
  options: RECORD_OPTIONS,
  async run({ values, rest }) {
    const output = stringOption(values, "output");
    if (!output) throw new UsageError("record needs -o CASSETTE");
    await checkOutputPath(output, "-o");
    if (stringOption(values, "script") !== undefined) {
      const { recordWithPlaybook } = await import("../script/cli.ts");
      return await recordWithPlaybook(values, rest, output, printErr);
    }
    if (flag(values, "stop-on-error")) throw new UsageError("--stop-on-error needs --script");
    const url = stringOption(values, "url");
    const redactor = await redactorFromOptions(values, output);
    if (url) {
      if (rest.length > 0) {
        throw new UsageError("record takes either --url or a server command after --, not both");
      }
      return await withClaim(output, () =>
        recordHttp({
          url,
          output,
          listen: stringOption(values, "listen"),
          token: tokenFromOptions(values),
          redactor,
          force: flag(values, "force"),
          onListening: (address) =>
            printErr(`mcp-cassette: recording; point the client at ${address}`),
          log: printErr,
        }), { force: flag(values, "force"), log: printErr });
    }
    if (stringOption(values, "token") !== undefined) {
      throw new UsageError("--token works with --url only (a stdio recording has no port)");
    }
    if (rest.length === 0) {
      throw new UsageError("record needs a server command after -- (or --url URL)");
    }
    const window = Number(stringOption(values, "append-window-ms") ?? "10000");
    if (!Number.isFinite(window) || window < 0) {
      throw new UsageError(
        `--append-window-ms must be a number of milliseconds, not ${
          stringOption(values, "append-window-ms")
        }`,
      );
    }
    const grace = parseGraceMs(stringOption(values, "grace") ?? String(DEFAULT_GRACE_MS));
    if (grace === undefined) {
      throw new UsageError(
        `--grace must be a whole number of milliseconds, not ${stringOption(values, "grace")}`,
      );
    }
    return await runRecord({
      graceMs: grace,
      command: rest,
      output,
      redactor,
      force: flag(values, "force"),
      appendWindowMs: window,
      mode: stringOption(values, "mode"),
      group: stringOption(values, "group"),
      runLog: stringOption(values, "run-log"),
      threads: runtime.env(THREADS_ENV) !== "0",
      log: (line) => printErr(`mcp-cassette: ${line}`),
    });
  },
};
