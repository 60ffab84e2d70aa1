/**
 * The interop matrix: which client, over which transport, in which protocol
 * era, against which replayed cassette, and how each row came out. Used by
 * interop_test.ts (one test per row) and scripts/interop_matrix.ts (writes
 * docs/interop.md).
 *
 * @module
 */
import { spawn } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import process from "node:process";
import { CLI, ROOT, run, tempDir } from "../helpers.ts";
import { checkClientOutput, loadLimits, loadSession } from "./check.ts";
import type { CheckReport, ClientOutput } from "./check.ts";
import {
  GO_SERVER,
  goClient,
  javaClient,
  type Language,
  PYTHON_SERVER,
  pythonClient,
  RUST_SERVER,
  rustClient,
  setupState,
  type Target,
  tsV1Client,
  tsV2Client,
} from "./clients.ts";
import type { ClientSpec } from "./clients.ts";
import { GOLDEN, goldenExists, HERE, MODERN_SERVERS, modernGolden, SESSION } from "./golden.ts";

const REF_SESSION = path.join(HERE, "ref_session.json");
const LIMITS = path.join(HERE, "sdk_limits.json");
/** How long `replay --listen` may take to print its URL before the row fails. */
const LISTEN_TIMEOUT_MS = 20_000;

/** How a row came out. */
export type Status = "pass" | "fail" | "skip" | "n/a";

/** One row of the matrix. */
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

/** A row to run: a client against the replay of a cassette. */
interface Plan {
  client: ClientSpec;
  /** Said after the SDK's name, e.g. `(pinned 2026-07-28)`. */
  mode?: string;
  server: string;
  era: "legacy" | "modern";
  /** The language whose set-up the row needs besides the client's (a recorded reference server). */
  needs?: Language;
  cassette: () => Promise<string>;
  session: string;
  /** The replay transports to run it over (both, unless given). */
  transports?: ("stdio" | "http")[];
  /**
   * `session` (the default): the client runs the session and every answer is
   * checked. `era-miss`: the client cannot speak the cassette's era, and must
   * get a miss that names that era.
   */
  expect?: "session" | "era-miss";
  /** Something the SDK does against replay that the check cannot show, added to a pass. */
  note?: string;
  /** For `era-miss`: why the SDK cannot speak the era, from its own code. */
  why?: string;
}

interface Listening {
  url: string;
  stop: () => Promise<void>;
}

/** Starts `replay CASSETTE --listen 127.0.0.1:0` and waits for its URL. */
function startHttpReplay(
  cassette: string,
  report: string,
): Promise<Listening | { failed: string }> {
  const args = ["replay", cassette, "--listen", "127.0.0.1:0", "--report", report];
  return new Promise((resolve) => {
    const child = spawn(CLI[0], [...CLI.slice(1), ...args], {
      cwd: ROOT,
      stdio: ["ignore", "ignore", "pipe"],
      env: { ...process.env, NO_COLOR: "1" },
    });
    let stderr = "";
    let settled = false;
    const timer = setTimeout(
      () => finish({ failed: `replay --listen printed no URL in 20 s: ${stderr.trim()}` }),
      LISTEN_TIMEOUT_MS,
    );
    const closed = new Promise<void>((done) => child.on("close", () => done()));
    function finish(value: Listening | { failed: string }) {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if ("failed" in value) child.kill("SIGKILL");
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
        finish({ failed: `replay --listen exited ${code}: ${stderr.trim().split("\n").at(-1)}` }),
    );
  });
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

/** The line of a client's stderr that carries the server's answer, else its last lines. */
function clientError(stderr: string): string {
  const lines = stderr.trim().split("\n").map((line) => line.trim()).filter(Boolean);
  const answer = lines.find((line) =>
    /no recorded answer|\bmiss\b|-32\d{3}|2026-07-28/i.test(line)
  );
  return answer ?? lines.slice(-3).join(" | ");
}

/**
 * A client that cannot speak the cassette's era: the replay must refuse its
 * opening with a miss that says which era the cassette holds.
 */
function eraMissVerdict(
  code: number | null,
  stderr: string,
  _why: string,
): { status: Status; detail: string } {
  if (code === 0) {
    return {
      status: "fail",
      detail: "the client connected to a 2026-07-28-only cassette with initialize",
    };
  }
  const said = clientError(stderr);
  if (/2026-07-28|\bmodern\b/i.test(said)) {
    return {
      status: "pass",
      detail:
        `the SDK speaks only the legacy era; replay answered its initialize with a miss naming the recorded era: ${said}`,
    };
  }
  return {
    status: "fail",
    detail:
      `replay answered initialize with a miss that does not name the recorded era (2026-07-28): ${said}`,
  };
}

async function runPlan(plan: Plan, transport: "stdio" | "http"): Promise<Row> {
  const base = {
    client: label(plan, plan.client.label),
    server: plan.server,
    transport,
    era: plan.era,
  };
  let cassette: string;
  try {
    cassette = await plan.cassette();
  } catch (error) {
    return { ...base, status: "fail", detail: String((error as Error).message ?? error) };
  }
  let target: Target;
  let listening: Listening | undefined;
  // What replay saw (misses, inexact matches), whatever the client does with
  // its stderr: over stdio every replay process (a client may start two: a
  // probe, then the session) appends its end-of-session report to a run log;
  // over HTTP the one replay writes its report when stopped.
  const logDir = tempDir("mcp-cassette-interop-log-");
  const log = path.join(logDir, transport === "http" ? "report.json" : "run-log.jsonl");
  if (transport === "http") {
    const started = await startHttpReplay(cassette, log);
    if ("failed" in started) {
      rmSync(logDir, { recursive: true, force: true });
      return { ...base, status: "fail", detail: started.failed };
    }
    listening = started;
    target = { url: started.url };
  } else {
    target = { stdio: [...CLI, "replay", cassette, "--run-log", log] };
  }
  try {
    const result = await run(plan.client.command(plan.session, target), { timeoutMs: 120_000 });
    if (plan.expect === "era-miss") {
      return { ...base, ...eraMissVerdict(result.code, result.stderr, plan.why ?? "") };
    }
    const output = parseOutput(result.stdout);
    if (result.code !== 0 || !output) {
      return {
        ...base,
        status: "fail",
        detail: `client exited ${result.code}: ${clientError(result.stderr)}`,
      };
    }
    const report = checkClientOutput(
      cassette,
      loadSession(plan.session),
      output,
      loadLimits(LIMITS, output.sdk),
    );
    await listening?.stop();
    listening = undefined;
    const seen = replaySaw(log, transport, plan.era);
    report.problems.push(...seen.problems);
    report.ok = report.problems.length === 0;
    const outcome = verdict(report);
    for (const note of [...seen.notes, plan.note ?? ""]) {
      if (outcome.status === "pass" && note) outcome.detail += `; ${note}`;
    }
    return { ...base, client: label(plan, output.sdk), ...outcome };
  } finally {
    await listening?.stop();
    rmSync(logDir, { recursive: true, force: true });
  }
}

/** The end-of-session report of a replay (the parts read here). */
interface ReplayReport {
  misses?: { method: string; message: string }[];
  inexact?: string[];
}

/**
 * What the replay's reports say the client should not have caused: any miss
 * against a modern cassette (a probing client must get the recorded discover
 * answer on its first try), against a legacy one any but the answer to a
 * `server/discover` probe (which a probing client follows with
 * `initialize`); and any inexact match (a request unlike its recording).
 */
function replaySaw(
  file: string,
  transport: "stdio" | "http",
  era: "legacy" | "modern",
): { problems: string[]; notes: string[] } {
  const text = existsSync(file) ? readFileSync(file, "utf8") : "";
  const reports: ReplayReport[] = transport === "http"
    ? (text ? [JSON.parse(text) as ReplayReport] : [])
    : text.split("\n").filter((line) => line.trim())
      .map((line) => JSON.parse(line) as { event: string; report?: ReplayReport })
      .filter((entry) => entry.event === "end" && entry.report).map((entry) => entry.report!);
  if (reports.length === 0) {
    return transport === "http"
      ? { problems: ["replay --listen wrote no report when stopped"], notes: [] }
      : {
        problems: [],
        notes: [
          "replay's own report not seen: the client ended the replay process before it wrote the end of its run log",
        ],
      };
  }
  const problems = reports.flatMap((report) => [
    ...(report.misses ?? []).filter((miss) => era === "modern" || miss.method !== "server/discover")
      .map((miss) => `replay missed ${miss.method}: ${miss.message}`),
    ...(report.inexact ?? []).map((what) => `replay answered inexactly: ${what}`),
  ]);
  return { problems, notes: [] };
}

function label(plan: Plan, sdk: string): string {
  return plan.mode ? `${sdk} (${plan.mode})` : sdk;
}

/**
 * Records a reference server through `record`, driven by a TypeScript SDK
 * client over stdio (v1 for the legacy era, v2 pinned to 2026-07-28 for the
 * modern one), into a fresh temporary cassette (once per server and client).
 */
function recordedReference(
  name: string,
  server: string[],
  client: ClientSpec,
): () => Promise<string> {
  let cassette: Promise<string> | undefined;
  return () => {
    cassette ??= (async () => {
      const dir = tempDir("mcp-cassette-interop-");
      recordings.push(dir);
      const file = path.join(dir, `${name}.cassette.jsonl`);
      const live = await run(
        client.command(REF_SESSION, {
          stdio: [...CLI, "record", "-o", file, "--", ...server],
        }),
        { timeoutMs: 120_000 },
      );
      if (live.code !== 0) {
        throw new Error(`recording ${name} failed (exit ${live.code}): ${live.stderr.trim()}`);
      }
      return file;
    })();
    return cassette;
  };
}

/** Temporary folders of the reference recordings, removed by `cleanUp`. */
const recordings: string[] = [];

/** Removes the temporary recordings the rows made. */
export function cleanUp(): void {
  for (const dir of recordings.splice(0)) rmSync(dir, { recursive: true, force: true });
}

const EVERYTHING = "server-everything 2026.8.31 (golden cassette)";

/** The rows against the legacy golden cassette. */
function legacyPlans(): Plan[] {
  const golden = () => Promise.resolve(GOLDEN);
  const base = { server: EVERYTHING, era: "legacy" as const, cassette: golden, session: SESSION };
  return [
    { ...base, client: pythonClient(), mode: "auto" },
    { ...base, client: goClient(), mode: "probes 2026-07-28" },
    {
      ...base,
      client: javaClient(),
      note:
        "the SDK re-lists tools by itself on the notifications/tools/list_changed recorded during tools/list; replay answers that extra tools/list by repeating the recorded answer (without sending its list_changed again)",
    },
    { ...base, client: rustClient(), mode: "auto" },
    { ...base, client: tsV2Client("auto"), mode: "auto" },
  ];
}

/**
 * The other SDKs' reference servers, recorded and replayed to the TypeScript
 * SDK client: in the legacy era to the v1 client, in the 2026-07-28 era to
 * the v2 client pinned to it (all three servers answer server/discover).
 */
function referencePlans(): Plan[] {
  const python = setupState("python");
  const go = setupState("go");
  const rust = setupState("rust");
  const servers: [Language, string, string[], string][] = [
    [
      "python",
      "python-server",
      PYTHON_SERVER,
      `python ${"ok" in python ? python.ok : "mcp"} MCPServer (python/server.py)`,
    ],
    ["go", "go-server", GO_SERVER, `go ${"ok" in go ? go.ok : "go-sdk"} server (go/server)`],
    [
      "rust",
      "rust-server",
      RUST_SERVER,
      `rust ${"ok" in rust ? rust.ok : "rmcp"} server (rust/src/bin/server.rs)`,
    ],
  ];
  const out: Plan[] = [];
  for (const era of ["legacy", "modern"] as const) {
    const client = era === "legacy" ? tsV1Client() : tsV2Client("pin");
    for (const [language, name, server, title] of servers) {
      out.push({
        client,
        ...(era === "modern" ? { mode: "pinned 2026-07-28" } : {}),
        server: title,
        era,
        needs: language,
        cassette: recordedReference(`${name}-${era}`, server, client),
        session: REF_SESSION,
      });
    }
  }
  return out;
}

/**
 * The rows against the 2026-07-28 golden cassettes: every client that speaks
 * the era, each cassette replayed over the transport it was recorded on; and
 * the legacy-only clients, which must get a miss that names the era.
 */
function modernPlans(): Plan[] {
  const out: Plan[] = [];
  for (const server of MODERN_SERVERS) {
    const cassette = (transport: "stdio" | "http") => () => {
      const file = modernGolden(server, transport);
      return goldenExists(file)
        ? Promise.resolve(file)
        : Promise.reject(new Error(`${file} is missing: run tests/interop/record_golden.ts`));
    };
    const base = {
      server: `${server.label} (golden cassette)`,
      era: "modern" as const,
      session: SESSION,
    };
    const clients: [ClientSpec, string][] = [
      [tsV2Client("pin"), "pinned 2026-07-28"],
      [pythonClient(), "auto"],
      [goClient(), "probes 2026-07-28"],
      [rustClient(), "auto"],
    ];
    for (const [client, mode] of clients) {
      out.push({ ...base, client, mode, cassette: cassette("stdio"), transports: ["stdio"] });
      out.push({ ...base, client, mode, cassette: cassette("http"), transports: ["http"] });
    }
    if (server.id === "ts-v2") {
      const legacyOnly: [ClientSpec, string][] = [
        [
          tsV1Client(),
          "its SUPPORTED_PROTOCOL_VERSIONS (dist/esm/types.js) end at 2025-11-25, and its client sends no server/discover",
        ],
        [
          javaClient(),
          "its ProtocolVersions (mcp-core 2.1.0) lists 2024-11-05 to 2025-11-25, and it has no server/discover",
        ],
      ];
      for (const [client, why] of legacyOnly) {
        for (const transport of ["stdio", "http"] as const) {
          out.push({
            ...base,
            client,
            expect: "era-miss",
            why,
            cassette: cassette(transport),
            transports: [transport],
          });
        }
      }
    }
  }
  return out;
}

/** Rows that are known in advance not to run, with the reason. */
export const STATIC_ROWS: Row[] = [
  {
    client: "java io.modelcontextprotocol.sdk:mcp 2.1.0",
    server: "the 2026-07-28 golden cassettes",
    transport: "stdio",
    era: "modern",
    status: "n/a",
    detail:
      "the SDK cannot speak 2026-07-28: its ProtocolVersions (mcp-core 2.1.0) lists 2024-11-05 to 2025-11-25 and it has no server/discover; its rows above check that replay refuses its initialize with a miss naming the era",
  },
];

/** Rows allowed not to pass in CI (allowed_skips.json), by test name, each with its reason. */
export function allowedSkips(): Map<string, string> {
  const file = path.join(HERE, "allowed_skips.json");
  const { skips } = JSON.parse(readFileSync(file, "utf8")) as {
    skips: { test: string; reason: string }[];
  };
  return new Map(skips.map((entry) => [entry.test, entry.reason]));
}

/** One row to run, by a name that tests can use. */
export interface RowJob {
  name: string;
  /** Why the row cannot run here (a language's set-up was skipped), known before running it. */
  skip?: string;
  run: () => Promise<Row>;
}

/** Every row of the matrix that runs here, in order, lazily. */
export function rowJobs(): RowJob[] {
  const jobs: RowJob[] = [];
  for (const plan of [...legacyPlans(), ...referencePlans(), ...modernPlans()]) {
    for (const transport of plan.transports ?? ["stdio", "http"] as const) {
      const base = {
        client: label(plan, plan.client.label),
        server: plan.server,
        transport,
        era: plan.era,
      };
      const what = plan.expect === "era-miss" ? "refused by" : "->";
      const name = `${base.client} ${what} replay of ${plan.server} over ${transport}`;
      const missing = [plan.client.language, plan.needs].flatMap((language) => {
        if (!language) return [];
        const state = setupState(language);
        return "skip" in state ? [`${language}: ${state.skip}`] : [];
      });
      jobs.push({
        name,
        ...(missing.length ? { skip: missing.join("; ") } : {}),
        run: () =>
          missing.length
            ? Promise.resolve({ ...base, status: "skip", detail: missing.join("; ") })
            : runPlan(plan, transport),
      });
    }
  }
  return jobs;
}
