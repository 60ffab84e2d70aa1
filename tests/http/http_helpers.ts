/**
 * Background processes for the HTTP tests: servers, recorders and replays
 * that print the URL to use on stderr (or stdout) and run until stopped.
 */
import { spawn } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import path from "node:path";
import process from "node:process";
import { CLI, NODE, ROOT } from "../helpers.ts";
import { recordHttp } from "../../src/record/http.ts";
import type { HttpRecordOptions } from "../../src/record/http.ts";

/** A process running in the background. */
export interface Background {
  child: ChildProcess;
  /** What the wait pattern matched (its first group, else the whole match). */
  found: string;
  output: () => string;
  /**
   * SIGINT, then waits for the exit; resolves with the exit code, or 0 when
   * the process died of the very signal it was sent after handling it (Deno
   * 2.9 re-raises a handled signal at exit; the tests check the cassette).
   */
  stop: (signal?: NodeJS.Signals) => Promise<number | null>;
}

/** The reference server-everything in Streamable HTTP mode. */
export const EVERYTHING_HTTP_SCRIPT = path.join(
  ROOT,
  "node_modules/@modelcontextprotocol/server-everything/dist/index.js",
);

/** A node binary (tests may run under deno or bun). */
export { NODE };

/** A port nothing listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Starts `command` and waits until its output matches `pattern`. */
export function startBackground(
  command: readonly string[],
  pattern: RegExp,
  options: { env?: Record<string, string>; timeoutMs?: number; cwd?: string } = {},
): Promise<Background> {
  return new Promise((resolve, reject) => {
    const child = spawn(command[0], command.slice(1), {
      cwd: options.cwd ?? ROOT,
      env: { ...process.env, NO_COLOR: "1", ...options.env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let text = "";
    let done = false;
    let sent: NodeJS.Signals | undefined;
    const exited = new Promise<number | null>((res) =>
      child.once(
        "exit",
        (code, signal) => res(code ?? (signal !== null && signal === sent ? 0 : null)),
      )
    );
    const timer = setTimeout(() => {
      if (done) return;
      done = true;
      child.kill("SIGKILL");
      reject(new Error(`${command.join(" ")} did not print ${pattern} in time:\n${text}`));
    }, options.timeoutMs ?? 30_000);
    const onData = (chunk: Buffer) => {
      text += chunk.toString("utf8");
      const match = pattern.exec(text);
      if (match && !done) {
        done = true;
        clearTimeout(timer);
        resolve({
          child,
          found: match[1] ?? match[0],
          output: () => text,
          stop: async (signal = "SIGINT") => {
            if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
            sent = signal;
            child.kill(signal);
            const killer = setTimeout(() => child.kill("SIGKILL"), 10_000);
            const code = await exited;
            clearTimeout(killer);
            return code;
          },
        });
      }
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    child.once("exit", (code) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      reject(
        new Error(`${command.join(" ")} exited with ${code} before printing ${pattern}:\n${text}`),
      );
    });
  });
}

/** Starts server-everything over Streamable HTTP on a free port; resolves with its MCP URL. */
export async function startEverythingHttp(): Promise<Background & { url: string }> {
  const port = await freePort();
  const server = await startBackground(
    [NODE, EVERYTHING_HTTP_SCRIPT, "streamableHttp"],
    /listening on port (\d+)/i,
    {
      env: { PORT: String(port) },
    },
  );
  return { ...server, url: `http://127.0.0.1:${port}/mcp` };
}

/** Pattern for the URL the recorder and the replay print. */
export const URL_LINE = /(http:\/\/127\.0\.0\.1:\d+\/\S*)/;

/** Reads a cassette file into its lines. */
export function cassetteLines(text: string): Record<string, unknown>[] {
  return text.trim().split("\n").map((line) => JSON.parse(line));
}

/** Starts `record --url` in front of `upstream`; resolves with the URL to give the client. */
export async function startHttpRecorder(
  upstream: string,
  cassette: string,
  /** The CLI's command line prefix: Deno's by default (`[BUN, "cli.ts"]` runs it on Bun). */
  cli: readonly string[] = CLI,
): Promise<Background & { url: string }> {
  const recorder = await startBackground(
    [...cli, "record", "-o", cassette, "--url", upstream],
    URL_LINE,
  );
  return { ...recorder, url: recorder.found };
}

/** A recorder run in this process, listening. */
export interface InProcessRecorder {
  /** The URL a client uses. */
  url: string;
  /** Stops it; resolves with its exit code. */
  stop(): Promise<number>;
}

/**
 * Starts `recordHttp` in this process (to choose its engine or read its
 * log), resolving once it listens; rejects if it ends first.
 */
export async function recordInProcess(
  options: Omit<HttpRecordOptions, "onListening" | "until">,
): Promise<InProcessRecorder> {
  let stop!: () => void;
  let listening!: (url: string) => void;
  const url = new Promise<string>((resolve) => (listening = resolve));
  const done = recordHttp({
    ...options,
    onListening: listening,
    until: new Promise<void>((resolve) => (stop = resolve)),
  });
  const ended = done.then((code) => Promise.reject(new Error(`the recorder ended (${code})`)));
  return {
    url: await Promise.race([url, ended]),
    stop: () => {
      stop();
      return done;
    },
  };
}

/** An upstream for the tests: its `/mcp` URL, and a close that ends kept-alive connections too. */
export interface LocalUpstream {
  url: string;
  close(): Promise<void>;
}

/** Starts `server` on a free loopback port. */
export async function listenLocal(server: Server): Promise<LocalUpstream> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
