/**
 * `record --script`: starts `mcp-cassette record` itself as a child (stdio:
 * the recorder starts the server; HTTP: a reverse proxy to the URL) and
 * drives it with the playbook over a real pipe or socket, exactly as a real
 * client would, so the cassette is an ordinary recording. Its header is then
 * labelled `meta.scripted` with the playbook's file name.
 *
 * @module
 */
import { CassetteError, ServerUnreachableError } from "../errors/errors.ts";
import type { Json, JsonObject } from "../jsonrpc/messages.ts";
import { formatCommand, StdioClientTransport } from "../client/stdio.ts";
import { openTransport } from "../client/target.ts";
import type { ClientTransport } from "../client/transport.ts";
// Registers the Streamable HTTP client transport, to drive the HTTP recorder.
import { JsonlLineStream } from "../framing/jsonl.ts";
import { runtime } from "../runtime/mod.ts";
import type { PipedChildProcess } from "../runtime/mod.ts";
import type { Playbook } from "./playbook.ts";
import { formatStep, playbookConnection, runPlaybook } from "./runner.ts";
import type { ScriptOutcome } from "./runner.ts";
import { writeFileSafely } from "../files/safe_write.ts";

/** The header `meta` key that marks a scripted cassette; its value is the playbook's file name. */
export const SCRIPTED_META_KEY = "scripted";

/** Options of {@linkcode recordScripted}. */
export interface ScriptedRecordOptions {
  playbook: Playbook;
  output: string;
  /** The server command (stdio), or… */
  command?: string[];
  /** …the server URL (HTTP). */
  url?: string;
  /** Where the HTTP recorder listens (default 127.0.0.1 and a free port). */
  listen?: string;
  /** `record` flags passed on to the recorder (redaction, --force). */
  recorderFlags?: string[];
  timeoutMs?: number;
  stopOnError?: boolean;
  log: (line: string) => void;
}

/** The last path segment, which names the playbook in the header. */
function baseName(path: string): string {
  return path.split(/[\\/]/).filter(Boolean).at(-1) ?? path;
}

/**
 * Adds labels to a finished cassette's header. Only line 1 is rewritten
 * (through a temporary file and a rename), so every recorded byte stays.
 */
export async function labelCassette(path: string, labels: JsonObject): Promise<void> {
  const text = await runtime.readTextFile(path);
  const end = text.indexOf("\n");
  const header = JSON.parse(end === -1 ? text : text.slice(0, end)) as JsonObject;
  const meta = header.meta !== null && typeof header.meta === "object" &&
      !Array.isArray(header.meta)
    ? header.meta
    : {};
  header.meta = { ...meta, ...labels };
  const labelled = JSON.stringify(header) + (end === -1 ? "\n" : text.slice(end));
  await writeFileSafely(path, labelled, { what: "the cassette" });
}

/** Copies the recorder's stderr to ours; resolves with the URL it prints when listening. */
function watchRecorder(child: PipedChildProcess, log: (line: string) => void): Promise<string> {
  return new Promise((resolve, reject) => {
    let last = "";
    let found = false;
    (async () => {
      try {
        for await (const line of child.stderr.pipeThrough(new JsonlLineStream())) {
          const match = /point the client at (\S+)/.exec(line);
          if (match && !found) {
            found = true;
            resolve(match[1]);
          } else if (line.trim() !== "") {
            last = line;
            log(line);
          }
        }
      } catch {
        // stderr is best effort.
      }
      if (!found) {
        const code = await child.exited.catch(() => undefined);
        reject(
          new ServerUnreachableError(
            `The HTTP recorder stopped before listening (exit ${code ?? "unknown"})${
              last ? `: ${last.trim().slice(0, 200)}` : ""
            }`,
          ),
        );
      }
    })();
  });
}

/** A transport to the recorder, and how to stop the recorder once the session is over. */
interface Recorder {
  transport: ClientTransport;
  /** Resolves with the recorder's exit code. */
  finish(): Promise<number | undefined>;
}

async function startRecorder(options: ScriptedRecordOptions): Promise<Recorder> {
  const self = [...runtime.selfCommand(), "record", "-o", options.output];
  const flags = options.recorderFlags ?? [];
  if (options.url === undefined) {
    // Always a fresh cassette: a re-run within the append window must not add a session.
    const inner = new StdioClientTransport(
      [...self, "--append-window-ms", "0", ...flags, "--", ...options.command!],
      { echoStderr: true },
    );
    // Messages name the user's server, not our own recorder's long command line.
    const transport = {
      describe: `the server command "${formatCommand(options.command!)}" (through the recorder)`,
      messages: inner.messages,
      closed: inner.closed,
      send: (message: Json) => inner.send(message),
      close: () => inner.close(),
      get stderrTail() {
        return inner.stderrTail;
      },
    };
    return { transport, finish: () => inner.closed.catch(() => undefined) };
  }
  const child = runtime.spawnPiped([
    ...self,
    "--url",
    options.url,
    "--listen",
    options.listen ?? "127.0.0.1:0",
    ...flags,
  ]);
  const address = await watchRecorder(child, options.log);
  const transport = openTransport({ kind: "http", url: address });
  return {
    transport,
    async finish() {
      await child.stdin.close().catch(() => {});
      child.kill("SIGINT");
      return await child.exited.catch(() => undefined);
    },
  };
}

/**
 * Records the playbook's session into `options.output`; resolves with the
 * exit code: 0 when every step passed, 1 when one failed.
 */
export async function recordScripted(options: ScriptedRecordOptions): Promise<number> {
  const recorder = await startRecorder(options);
  const connection = playbookConnection(recorder.transport, options.playbook, options.timeoutMs);
  let outcome: ScriptOutcome;
  try {
    outcome = await runPlaybook(connection, options.playbook, {
      timeoutMs: options.timeoutMs,
      stopOnError: options.stopOnError,
      onStep: (step) => options.log(formatStep(step)),
    });
  } finally {
    await connection.close();
    const code = await recorder.finish();
    if (code !== undefined && code !== 0) options.log(`the recorder exited with code ${code}`);
  }
  if ((await runtime.stat(options.output))?.isFile !== true) {
    throw new CassetteError(`${options.output}: the recorder wrote no cassette`);
  }
  await labelCassette(options.output, {
    [SCRIPTED_META_KEY]: baseName(options.playbook.file),
  });
  const notRun = outcome.steps.filter((step) => step.status === "not run").length;
  options.log(
    `recorded ${outcome.steps.length} step(s) into ${options.output}: ${
      outcome.steps.length - outcome.failed - notRun
    } ok, ${outcome.failed} failed${notRun ? `, ${notRun} not run` : ""}`,
  );
  return outcome.failed > 0 ? 1 : 0;
}
