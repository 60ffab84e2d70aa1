/**
 * The stdio client transport: starts the server as a child process, writes
 * one JSON message per line to its stdin and reads lines from its stdout.
 * The server's stderr is kept (the last lines) to explain a crash.
 *
 * @module
 */
import { ServerUnreachableError } from "../errors/errors.ts";
import { JsonlLineStream } from "../framing/jsonl.ts";
import type { Json } from "../jsonrpc/messages.ts";
import { runtime } from "../runtime/mod.ts";
import type { PipedChildProcess } from "../runtime/mod.ts";
import type { ClientTransport, IncomingFrame } from "./transport.ts";

const encoder = new TextEncoder();
const STDERR_LINES_KEPT = 20;

/** Options for {@linkcode StdioClientTransport}. */
export interface StdioTransportOptions {
  cwd?: string;
  env?: Record<string, string>;
  /** Copy the server's stderr to ours as well as keeping its tail (default false). */
  echoStderr?: boolean;
}

/** Quotes a command line for messages. */
export function formatCommand(command: readonly string[]): string {
  return command.map((part) => (/^[\w@%+=:,./-]+$/.test(part) ? part : JSON.stringify(part))).join(
    " ",
  );
}

/**
 * A server started as a child process and spoken to over its stdio.
 *
 * @example
 * ```ts
 * const transport = new StdioClientTransport(["node", "server.js"]);
 * await transport.send({ jsonrpc: "2.0", id: 1, method: "ping" });
 * for await (const frame of transport.messages) console.log(frame);
 * ```
 */
export class StdioClientTransport implements ClientTransport {
  readonly describe: string;
  readonly closed: Promise<number | undefined>;
  readonly messages: AsyncIterable<IncomingFrame>;
  #child: PipedChildProcess;
  #writer: WritableStreamDefaultWriter<Uint8Array>;
  #stderrTail: string[] = [];
  #exitCode: number | undefined;
  #closing = false;

  constructor(readonly command: readonly string[], options: StdioTransportOptions = {}) {
    this.describe = `the server command "${formatCommand(command)}"`;
    if (command.length === 0) {
      throw new ServerUnreachableError("Cannot start the server: the command is empty");
    }
    try {
      this.#child = runtime.spawnPiped(command, { cwd: options.cwd, env: options.env });
    } catch (error) {
      throw new ServerUnreachableError(
        `Cannot start ${this.describe}: ${(error as Error).message}`,
      );
    }
    this.closed = this.#child.exited.then(
      (code) => {
        this.#exitCode = code;
        return code;
      },
      (error: Error & { code?: string }) => {
        const code = error.code;
        const why = code === "ENOENT"
          ? "no such program"
          : code === "EACCES"
          ? "permission denied"
          : error.message;
        throw new ServerUnreachableError(`Cannot start ${this.describe}: ${why}`);
      },
    );
    // Observed here so an unstarted server is not an unhandled rejection.
    this.closed.catch(() => {});
    this.#writer = this.#child.stdin.getWriter();
    this.#writer.closed.catch(() => {});
    this.#drainStderr(this.#child.stderr, options.echoStderr ?? false);
    this.messages = this.#readFrames();
  }

  /** The last lines the server wrote to stderr. */
  get stderrTail(): readonly string[] {
    return this.#stderrTail;
  }

  /** The exit code, once the child has exited. */
  get exitCode(): number | undefined {
    return this.#exitCode;
  }

  async send(message: Json): Promise<void> {
    try {
      await this.#writer.write(encoder.encode(JSON.stringify(message) + "\n"));
    } catch {
      throw new ServerUnreachableError(`Cannot write to ${this.describe}: its input is closed`);
    }
  }

  async close(): Promise<void> {
    if (this.#closing) {
      await this.closed.catch(() => {});
      return;
    }
    this.#closing = true;
    await this.#writer.close().catch(() => {});
    // No shutdown message on stdio: EOF, then SIGTERM, then SIGKILL.
    if (await this.#exitsWithin(1000)) return;
    this.#child.kill("SIGTERM");
    if (await this.#exitsWithin(1000)) return;
    this.#child.kill("SIGKILL");
    await this.closed.catch(() => {});
  }

  async #exitsWithin(ms: number): Promise<boolean> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
    const exited = this.closed.then(() => true, () => true);
    const result = await Promise.race([exited, timeout]);
    clearTimeout(timer);
    return result;
  }

  async *#readFrames(): AsyncGenerator<IncomingFrame> {
    const lines = this.#child.stdout.pipeThrough(new JsonlLineStream());
    try {
      for await (const line of lines) {
        if (line.trim() === "") continue;
        try {
          yield JSON.parse(line) as Json;
        } catch {
          yield { raw: line };
        }
      }
    } catch {
      // A broken pipe ends the stream like an exit does.
    }
  }

  async #drainStderr(stream: ReadableStream<Uint8Array>, echo: boolean) {
    try {
      for await (const line of stream.pipeThrough(new JsonlLineStream())) {
        this.#stderrTail.push(line);
        if (this.#stderrTail.length > STDERR_LINES_KEPT) this.#stderrTail.shift();
        if (echo) runtime.writeStderr(line + "\n");
      }
    } catch {
      // stderr is best effort.
    }
  }
}
