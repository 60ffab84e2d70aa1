/**
 * The interop matrix: which client, over which transport, in which protocol
 * era, against which replayed cassette, and how each row came out. Used by
 * interop_test.ts (one test per row) and scripts/interop_matrix.ts (writes
 * docs/interop.md).
 *
 * @module
 */
import { spawn } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import process from "node:process";
import { CLI, DENO, ROOT, run, tempDir } from "../helpers.ts";
import { checkClientOutput, loadLimits, loadSession } from "./check.ts";
import type { CheckReport, ClientOutput } from "./check.ts";

/** This folder. */
export const HERE = path.join(ROOT, "tests", "interop");
const BUILD = path.join(HERE, ".build");
/** The committed golden cassette every client replays. */
export const GOLDEN = path.join(HERE, "golden", "everything.cassette.jsonl");
const SESSION = path.join(HERE, "session.json");
const REF_SESSION = path.join(HERE, "ref_session.json");
const LIMITS = path.join(HERE, "sdk_limits.json");
const PYTHON = path.join(HERE, ".venv", "bin", "python");
const TS_CLIENT = [DENO, "run", "-A", "--no-check", path.join(HERE, "ts_client.ts")];

/** How a row came out. */
export type Status = "pass" | "fail" | "skip" | "pending" | "n/a";

/** One cell row of the matrix. */
export interface Row {
  /** The client SDK, e.g. `python mcp 2.3.0`. */
  client: string;
  /** The server behind the replayed cassette. */
  server: string;
  transport: "stdio" | "http";
  era: "legacy" | "modern";
  status: Status;
  /** Why, for anything but a plain pass; notes (SDK-added or -dropped fields) for a pass. */
  detail: string;
}

/** A row to run: how to start the client against stdio replay or an HTTP URL. */
interface Plan {
  language: string;
  client: string;
  server: string;
  cassette: () => Promise<string>;
  session: string;
  command: (target: { stdio: string[] } | { url: string }) => string[];
  /** Something the SDK does against replay that the check cannot show, added to a pass. */
  note?: string;
}

/** What setup.sh left for a language: its SDK version, or why it was skipped. */
export function setupState(language: string): { ok: string } | { skip: string } {
  const okFile = path.join(BUILD, `${language}.ok`);
  const skipFile = path.join(BUILD, `${language}.skip`);
  if (existsSync(okFile)) return { ok: readFileSync(okFile, "utf8").trim() };
  if (existsSync(skipFile)) return { skip: readFileSync(skipFile, "utf8").trim() };
  return { skip: "setup.sh has not run" };
}

/** Runs setup.sh (idempotent) and returns what it printed. */
export async function runSetup(): Promise<string> {
  const result = await run(["bash", path.join(HERE, "setup.sh")], { timeoutMs: 600_000 });
  return result.stderr;
}

/** Why replay --listen cannot serve yet, or undefined when it can. */
let listenProbe: Promise<string | undefined> | undefined;

interface Listening {
  url: string;
  stop: () => Promise<void>;
}

/** Starts `replay CASSETTE --listen 127.0.0.1:0` and waits for its URL. */
function startHttpReplay(cassette: string): Promise<Listening | { unavailable: string }> {
  return new Promise((resolve) => {
    const child = spawn(CLI[0], [...CLI.slice(1), "replay", cassette, "--listen", "127.0.0.1:0"], {
      cwd: ROOT,
      stdio: ["ignore", "ignore", "pipe"],
      env: { ...process.env, NO_COLOR: "1" },
    });
    let stderr = "";
    let settled = false;
    const timer = setTimeout(
      () => finish({ unavailable: `replay --listen printed no URL in 20 s: ${stderr.trim()}` }),
      20_000,
    );
    const closed = new Promise<void>((done) => child.on("close", () => done()));
    function finish(value: Listening | { unavailable: string }) {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if ("unavailable" in value) child.kill("SIGKILL");
      resolve(value);
    }
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
      const url = stderr.match(/\bat (https?:\/\/\S+)/)?.[1];
      if (url) {
        finish({
          url,
          stop: async () => {
            child.kill("SIGTERM");
            const killer = setTimeout(() => child.kill("SIGKILL"), 5_000);
            await closed;
            clearTimeout(killer);
          },
        });
      }
    });
    child.on(
      "close",
      (code) =>
        finish({
          unavailable: `replay --listen exited ${code}: ${stderr.trim().split("\n").at(-1)}`,
        }),
    );
  });
}

/** Whether this checkout's replay serves HTTP; the reason when not. */
function httpUnavailable(): Promise<string | undefined> {
  listenProbe ??= (async () => {
    const started = await startHttpReplay(GOLDEN);
    if ("unavailable" in started) return started.unavailable;
    await started.stop();
    return undefined;
  })();
  return listenProbe;
}

function parseOutput(stdout: string): ClientOutput | undefined {
  try {
    return JSON.parse(stdout) as ClientOutput;
  } catch {
    return undefined;
  }
}

/** Turns a check report into a row's status and detail. */
function verdict(report: CheckReport): { status: Status; detail: string } {
  if (!report.ok) return { status: "fail", detail: report.problems.slice(0, 5).join("; ") };
  const notes = [`${report.compared} recorded values matched`];
  if (report.dropped.length) notes.push(`SDK cannot show: ${summarise(report.dropped)}`);
  if (report.added.length) notes.push(`SDK adds: ${summarise(report.added)}`);
  return { status: "pass", detail: notes.join("; ") };
}

/** `tools.tools[3].execution` and friends, folded to distinct field names. */
function summarise(paths: string[]): string {
  const names = [...new Set(paths.map((p) => p.replace(/^[^.]+\./, "").replace(/\[\d+\]/g, "[]")))];
  return names.sort().join(", ");
}

async function runPlan(plan: Plan, transport: "stdio" | "http"): Promise<Row> {
  const base = { client: plan.client, server: plan.server, transport, era: "legacy" as const };
  const cassette = await plan.cassette();
  let target: { stdio: string[] } | { url: string };
  let listening: Listening | undefined;
  if (transport === "http") {
    const why = await httpUnavailable();
    if (why) {
      return { ...base, status: "pending", detail: `replay --listen not available (${why})` };
    }
    const started = await startHttpReplay(cassette);
    if ("unavailable" in started) return { ...base, status: "fail", detail: started.unavailable };
    listening = started;
    target = { url: started.url };
  } else {
    target = { stdio: [...CLI, "replay", cassette] };
  }
  try {
    const result = await run(plan.command(target), { timeoutMs: 120_000 });
    const output = parseOutput(result.stdout);
    if (result.code !== 0 || !output) {
      return {
        ...base,
        status: "fail",
        detail: `client exited ${result.code}: ${
          result.stderr.trim().split("\n").slice(-3).join(" | ")
        }`,
      };
    }
    const report = checkClientOutput(
      cassette,
      loadSession(plan.session),
      output,
      loadLimits(LIMITS, output.sdk),
    );
    const outcome = verdict(report);
    if (outcome.status === "pass" && plan.note) outcome.detail += `; ${plan.note}`;
    return { ...base, client: output.sdk, ...outcome };
  } finally {
    await listening?.stop();
  }
}

/**
 * Records a reference server through `record`, driven by the TypeScript SDK
 * client over stdio, into a fresh temporary cassette (once per server).
 */
function recordedReference(name: string, server: string[]): () => Promise<string> {
  let cassette: Promise<string> | undefined;
  return () => {
    cassette ??= (async () => {
      const file = path.join(tempDir("mcp-cassette-interop-"), `${name}.cassette.jsonl`);
      const live = await run([
        ...TS_CLIENT,
        "--session",
        REF_SESSION,
        "--",
        ...CLI,
        "record",
        "-o",
        file,
        "--",
        ...server,
      ], {
        timeoutMs: 120_000,
      });
      if (live.code !== 0) {
        throw new Error(`recording ${name} failed (exit ${live.code}): ${live.stderr.trim()}`);
      }
      return file;
    })();
    return cassette;
  };
}

function plans(): Plan[] {
  const golden = () => Promise.resolve(GOLDEN);
  const everything = "server-everything (golden cassette)";
  const py = setupState("python");
  const go = setupState("go");
  const java = setupState("java");
  const tsVersion = (JSON.parse(
    readFileSync(path.join(ROOT, "node_modules/@modelcontextprotocol/sdk/package.json"), "utf8"),
  ) as {
    version: string;
  }).version;
  const out: Plan[] = [
    {
      language: "python",
      client: `python ${"ok" in py ? py.ok : "mcp"}`,
      server: everything,
      cassette: golden,
      session: SESSION,
      command: (
        t,
      ) => [
        PYTHON,
        path.join(HERE, "python", "client.py"),
        "--session",
        SESSION,
        ...("url" in t ? ["--url", t.url] : ["--", ...t.stdio]),
      ],
    },
    {
      language: "go",
      client: `go ${"ok" in go ? go.ok : "go-sdk"}`,
      server: everything,
      cassette: golden,
      session: SESSION,
      // The SDK's default: it probes server/discover (2026-07-28) first and
      // falls back to initialize when the server answers with an error.
      command: (t) => [
        path.join(BUILD, "bin", "go-client"),
        "-session",
        SESSION,
        "-protocol",
        "2026-07-28",
        ...("url" in t ? ["-url", t.url] : ["--", ...t.stdio]),
      ],
    },
    {
      language: "java",
      client: `java ${"ok" in java ? java.ok : "io.modelcontextprotocol.sdk:mcp"}`,
      server: everything,
      cassette: golden,
      session: SESSION,
      // A shell launcher setup.sh writes: java with the Maven-built classpath.
      command: (t) => [
        path.join(BUILD, "bin", "java-client"),
        "--session",
        SESSION,
        ...("url" in t ? ["--url", t.url] : ["--", ...t.stdio]),
      ],
      note:
        "the SDK re-lists tools by itself on the notifications/tools/list_changed recorded during tools/list; replay answers that extra tools/list by repeating the recorded answer (without sending its list_changed again)",
    },
    {
      language: "python",
      client: `typescript @modelcontextprotocol/sdk ${tsVersion}`,
      server: `python ${"ok" in py ? py.ok : "mcp"} MCPServer (python/server.py)`,
      cassette: recordedReference("python-server", [
        PYTHON,
        path.join(HERE, "python", "server.py"),
      ]),
      session: REF_SESSION,
      command: (
        t,
      ) => [
        ...TS_CLIENT,
        "--session",
        REF_SESSION,
        ...("url" in t ? ["--url", t.url] : ["--", ...t.stdio]),
      ],
    },
    {
      language: "go",
      client: `typescript @modelcontextprotocol/sdk ${tsVersion}`,
      server: `go ${"ok" in go ? go.ok : "go-sdk"} server (go/server)`,
      cassette: recordedReference("go-server", [path.join(BUILD, "bin", "go-server")]),
      session: REF_SESSION,
      command: (
        t,
      ) => [
        ...TS_CLIENT,
        "--session",
        REF_SESSION,
        ...("url" in t ? ["--url", t.url] : ["--", ...t.stdio]),
      ],
    },
  ];
  return out;
}

/** Rows that are known in advance not to run, with the reason. */
export const STATIC_ROWS: Row[] = [
  {
    client: "python mcp 2.3.0",
    server: "server-everything (golden cassette)",
    transport: "stdio",
    era: "modern",
    status: "n/a",
    detail:
      "the SDK speaks 2026-07-28 (server/discover), but server-everything 2026.8.31 answers server/discover with -32601, so no modern golden cassette can be recorded from it",
  },
  {
    client: "go go-sdk v1.8.0",
    server: "server-everything (golden cassette)",
    transport: "stdio",
    era: "modern",
    status: "n/a",
    detail:
      "as for Python: server-everything is legacy-only; the Go client's server/discover probe is answered with a miss and it falls back to initialize (legacy rows)",
  },
  {
    client: "java io.modelcontextprotocol.sdk:mcp 2.1.0",
    server: "server-everything (golden cassette)",
    transport: "stdio",
    era: "modern",
    status: "n/a",
    detail:
      "the SDK knows protocol versions up to 2025-11-25 (its ProtocolVersions) and has no server/discover, so it only speaks the legacy era (and server-everything is legacy-only too)",
  },
  {
    client: "rust rmcp 3.11.0",
    server: "server-everything (golden cassette)",
    transport: "stdio",
    era: "legacy",
    status: "skip",
    detail:
      "dropped: a cold `cargo build --release` of rmcp 3.11.0 (client, child-process, streamable-http-client-reqwest) with tokio took 3 min 01 s on the 2-core machine before any client code, over the ~3-minute budget for CI",
  },
];

/** One row to run, by a name that tests can use. */
export interface RowJob {
  name: string;
  run: () => Promise<Row>;
}

/** Every row of the matrix that runs here, in order, lazily. */
export function rowJobs(): RowJob[] {
  const jobs: RowJob[] = [];
  for (const plan of plans()) {
    for (const transport of ["stdio", "http"] as const) {
      const base = { client: plan.client, server: plan.server, transport, era: "legacy" as const };
      const state = setupState(plan.language);
      jobs.push({
        name: `${plan.client} -> replay of ${plan.server} over ${transport}`,
        run: () => ("skip" in state
          ? Promise.resolve({ ...base, status: "skip", detail: `${plan.language}: ${state.skip}` })
          : runPlan(plan, transport)),
      });
    }
  }
  return jobs;
}

/** The matrix as Markdown. */
export function renderMarkdown(rows: Row[], meta: { generated: string; replay: string }): string {
  const lines = [
    "# Interop matrix",
    "",
    "<!-- Generated by `deno run -A --no-check scripts/interop_matrix.ts`; do not edit by hand. -->",
    "",
    "Official MCP SDK clients in other languages driven against `mcp-cassette replay`, and the",
    "reference servers of those SDKs recorded through `mcp-cassette record` and replayed to the",
    "TypeScript SDK client. Each client runs the same session (`tests/interop/session.json`:",
    "initialize; list tools, resources and prompts; echo twice, get-sum, an unknown tool, a",
    "resource read, two prompts and an unknown prompt) against the committed golden cassette",
    "`tests/interop/golden/everything.cassette.jsonl`, recorded from",
    "`@modelcontextprotocol/server-everything`, prints every answer as JSON, and",
    "`tests/interop/check.ts` compares each with the answer the cassette holds: every recorded",
    "field must come back with the same value. Fields an SDK adds of its own (defaults such as",
    "`resultType`) are allowed; fields it cannot show are allowed only when they are zero values",
    "or listed with a reason in `tests/interop/sdk_limits.json`.",
    "",
    `Generated ${meta.generated}; ${meta.replay}.`,
    "",
    "| client | server (cassette) | transport | era | result | notes |",
    "| --- | --- | --- | --- | --- | --- |",
  ];
  const escape = (text: string) => text.replaceAll("|", "\\|").replaceAll("\n", " ");
  for (const row of rows) {
    lines.push(
      `| ${escape(row.client)} | ${
        escape(row.server)
      } | ${row.transport} | ${row.era} | **${row.status}** | ${escape(row.detail)} |`,
    );
  }
  lines.push(
    "",
    "Statuses: **pass** every recorded answer came back through the SDK; **fail** a difference (listed);",
    "**skip** the SDK could not be installed or built on the machine that ran the suite (reason given);",
    "**pending** the replay side is not built yet; **n/a** the combination cannot exist.",
    "",
    "Run it: `bash tests/interop/setup.sh && deno test -A --no-check tests/interop/`;",
    "regenerate this page: `deno run -A --no-check scripts/interop_matrix.ts`.",
    "",
  );
  return lines.join("\n");
}

/** Runs setup and every row, and writes the Markdown matrix to `file`. */
export async function writeMatrix(
  file: string,
  log: (line: string) => void = () => {},
): Promise<Row[]> {
  log((await runSetup()).trim());
  const rows: Row[] = [];
  for (const job of rowJobs()) {
    const row = await job.run();
    log(`${row.status.padEnd(7)} ${job.name}${row.status === "pass" ? "" : `: ${row.detail}`}`);
    rows.push(row);
  }
  rows.push(...STATIC_ROWS);
  const generated = new Date().toISOString().slice(0, 10);
  const dirty = await run(["git", "status", "--porcelain", "--", "src", "cli.ts"]);
  const replay = `mcp-cassette replay from this checkout${
    dirty.code === 0 && dirty.stdout.trim() ? " (with uncommitted changes under src/)" : ""
  }; golden cassette recorded from server-everything 2026.8.31`;
  writeFileSync(file, renderMarkdown(rows, { generated, replay }));
  // The page is kept in deno fmt's layout, so regenerating it shows only real changes.
  await run([DENO, "fmt", "--quiet", file]);
  return rows;
}
