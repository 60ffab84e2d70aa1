/**
 * Regenerates the other tools' sample cassettes in tests/fixtures/foreign/
 * with the real tools: each is installed from PyPI, pinned, into a venv of
 * its own, and records one real session against scripts/foreign/server.py.
 * The official TypeScript SDK client (scripts/foreign/session.ts) drives the
 * session through each stdio recorder; mcp-recorder records with its own
 * scenario client. The TypeScript mcp-cassette's samples are not made here
 * (see tests/fixtures/foreign/README.md).
 *
 * Usage: deno run -A --no-check scripts/foreign/regenerate.ts
 *          [--out DIR] [--venvs DIR] [--python PYTHON3.12]
 *
 * `--venvs` keeps the venvs in DIR for the next run; without it they go in a
 * temporary folder removed at the end. `--python` defaults to
 * $MCP_CASSETTE_PYTHON, then pyenv's newest 3.12, then `python3.12` on PATH.
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { copyFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import path from "node:path";
import process from "node:process";
import { parseArgs } from "node:util";
import { fileURLToPath } from "node:url";
import { SDK_SESSION } from "../../tests/helpers.ts";
import { startBackground, startEverythingHttp } from "../../tests/http/http_helpers.ts";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, "..", "..");
const SERVER = path.join(HERE, "server.py");
const SESSION = path.join(HERE, "session.ts");
const DENO = path.join(ROOT, "node_modules", ".bin", "deno");

/**
 * Each tool, pinned. mcp-recorder 0.5.0 asks for starlette>=0.52.1 but calls
 * `Starlette(on_startup=...)`, which starlette 1.0 removed: pinned to the
 * oldest release it allows.
 */
const TOOLS: Record<string, string[]> = {
  // The [http] extra records Streamable HTTP (--url).
  "python-mcp-cassette": ["mcp-cassette[http]==0.4.0"],
  "mcp-rec": ["mcp-rec==0.1.1"],
  "mcp-recorder": ["mcp-recorder==0.5.0", "starlette==0.52.1"],
  "mcp-vcr": ["mcp-vcr==0.2.2"],
  // vcrpy records HTTP, not MCP: its YAML is the sample of a file import refuses.
  "vcrpy": ["vcrpy==9.4.2"],
};

const { values } = parseArgs({
  options: {
    out: { type: "string", default: path.join(ROOT, "tests", "fixtures", "foreign") },
    venvs: { type: "string" },
    python: { type: "string" },
  },
});

function findPython(): string {
  if (values.python) return values.python;
  const fromEnv = process.env.MCP_CASSETTE_PYTHON;
  if (fromEnv) return fromEnv;
  const versions = path.join(homedir(), ".pyenv", "versions");
  const found = existsSync(versions)
    ? readdirSync(versions).filter((name) => /^3\.12\.\d+$/.test(name))
      .sort((a, b) => Number(b.split(".")[2]) - Number(a.split(".")[2]))
    : [];
  return found.length > 0 ? path.join(versions, found[0], "bin", "python") : "python3.12";
}

/** Runs a command to completion; its stdout, or a thrown error naming what failed. */
function sh(command: string[], options: { cwd?: string } = {}): string {
  process.stderr.write(`$ ${command.join(" ")}\n`);
  const result = spawnSync(command[0], command.slice(1), {
    cwd: options.cwd,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
    timeout: 600_000,
  });
  if (result.error) throw result.error;
  if (result.status !== 0) throw new Error(`${command[0]} exited ${result.status}`);
  return result.stdout;
}

function install(venvs: string, tool: string): string {
  const venv = path.join(venvs, tool);
  if (!existsSync(path.join(venv, "bin", "python"))) {
    sh([findPython(), "-m", "venv", venv]);
  }
  sh([
    path.join(venv, "bin", "pip"),
    "install",
    "--quiet",
    "--disable-pip-version-check",
    ...TOOLS[tool],
  ]);
  return path.join(venv, "bin");
}

/**
 * Like {@linkcode sh}, without blocking this process: the HTTP recorders and
 * server-everything run as its children, their output piped here, and a
 * server that cannot write its log blocks.
 */
function shAsync(command: string[]): Promise<string> {
  process.stderr.write(`$ ${command.join(" ")}\n`);
  return new Promise((resolve, reject) => {
    const child = spawn(command[0], command.slice(1), { stdio: ["ignore", "pipe", "inherit"] });
    let stdout = "";
    child.stdout.setEncoding("utf8").on("data", (chunk) => (stdout += chunk));
    const timer = setTimeout(() => child.kill("SIGKILL"), 300_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      if (code === 0) resolve(stdout);
      else reject(new Error(`${command[0]} exited ${code}`));
    });
  });
}

/** Drives the SDK client's session through `recorder`; writes what it received live. */
function sdkSession(recorder: string[], bin: string, expected?: string): void {
  const live = sh([
    DENO,
    "run",
    "-A",
    "--no-check",
    SESSION,
    "--",
    ...recorder,
    path.join(bin, "python"),
    SERVER,
  ]);
  if (expected) writeFileSync(expected, live);
}

function fresh(dir: string, ...files: string[]): void {
  mkdirSync(dir, { recursive: true });
  for (const file of files) rmSync(path.join(dir, file), { force: true });
}

function pythonMcpCassette(bin: string, out: string): void {
  const dir = path.join(out, "python-mcp-cassette");
  fresh(dir, "session.v3.mcp.json", "session.expected.json");
  sdkSession(
    [
      path.join(bin, "mcp-cassette"),
      "record",
      "--cassette",
      path.join(dir, "session.v3.mcp.json"),
      "--",
    ],
    bin,
    path.join(dir, "session.expected.json"),
  );
}

/**
 * Over Streamable HTTP the server is server-everything from node_modules (our
 * Python server speaks stdio only), and the client the repository's SDK
 * session (tests/fixtures/sdk_session.ts, basic scenario) through the
 * recorder's proxy; the recorder stops itself after 2 s without traffic.
 */
async function pythonMcpCassetteHttp(bin: string, out: string): Promise<void> {
  const dir = path.join(out, "python-mcp-cassette");
  fresh(dir, "everything.http.v3.mcp.json", "everything.http.expected.json");
  const server = await startEverythingHttp();
  try {
    const recorder = await startBackground([
      path.join(bin, "mcp-cassette"),
      "record",
      "--cassette",
      path.join(dir, "everything.http.v3.mcp.json"),
      "--url",
      server.url,
      "--max-idle",
      "2",
    ], /recording at (http:\/\/\S+)/);
    const live = await shAsync([...SDK_SESSION, "--url", recorder.found]);
    writeFileSync(path.join(dir, "everything.http.expected.json"), live);
    const code = await new Promise<number | null>((resolve) => {
      if (recorder.child.exitCode !== null) resolve(recorder.child.exitCode);
      else recorder.child.once("exit", (exit) => resolve(exit));
    });
    if (code !== 0) {
      throw new Error(`mcp-cassette record --url exited ${code}\n${recorder.output()}`);
    }
  } finally {
    await server.stop();
  }
}

function mcpRec(bin: string, out: string): void {
  const dir = path.join(out, "mcp-rec");
  // mcp-rec appends to its file: start from none.
  fresh(dir, "session.jsonl", "session.expected.json", "two-launches.jsonl");
  const record = (
    file: string,
  ) => [path.join(bin, "mcp-rec"), "record", "-o", path.join(dir, file), "--"];
  sdkSession(record("session.jsonl"), bin, path.join(dir, "session.expected.json"));
  // A client that launches the server twice: mcp-rec appends the second session.
  sdkSession(record("two-launches.jsonl"), bin);
  sdkSession(record("two-launches.jsonl"), bin);
}

function mcpVcr(bin: string, out: string): void {
  const dir = path.join(out, "mcp-vcr");
  fresh(dir, "session.ndjson", "session.yaml", "session.expected.json");
  const record = (format: string, file: string) => [
    path.join(bin, "mcp-vcr"),
    "record",
    "--format",
    format,
    "-o",
    path.join(dir, file),
    "--",
  ];
  sdkSession(record("ndjson", "session.ndjson"), bin, path.join(dir, "session.expected.json"));
  // The YAML transcript (mcp-vcr's default) is the sample of a format not imported.
  sdkSession(record("yaml", "session.yaml"), bin);
}

/** mcp-recorder records with its own client, from a scenarios file. */
function mcpRecorder(bin: string, out: string, work: string): void {
  const dir = path.join(out, "mcp-recorder");
  fresh(dir, "session.json");
  const scenarios = path.join(work, "scenarios.yml");
  writeFileSync(
    scenarios,
    [
      `schema_version: "1.0"`,
      `target:`,
      `  command: ${JSON.stringify(path.join(bin, "python"))}`,
      `  args: [${JSON.stringify(SERVER)}]`,
      `scenarios:`,
      `  session:`,
      `    description: "The sample session"`,
      `    actions:`,
      `      - list_tools`,
      `      - call_tool: {name: echo, arguments: {message: hello}}`,
      `      - call_tool: {name: add, arguments: {a: 2, b: 40}}`,
      `      - call_tool: {name: no-such-tool, arguments: {}}`,
      `      - list_resources`,
      `      - read_resource: {uri: "sample://notes/readme"}`,
      `      - list_prompts`,
      `      - get_prompt: {name: greet, arguments: {who: Ada}}`,
      ``,
    ].join("\n"),
  );
  const cassettes = path.join(work, "mcp-recorder-out");
  sh([path.join(bin, "mcp-recorder"), "record-scenarios", scenarios, "--output-dir", cassettes]);
  copyFileSync(path.join(cassettes, "session.json"), path.join(dir, "session.json"));
}

function vcrpy(bin: string, out: string): void {
  const dir = path.join(out, "vcrpy");
  fresh(dir, "initialize.yaml");
  sh([
    path.join(bin, "python"),
    path.join(HERE, "vcrpy_session.py"),
    path.join(dir, "initialize.yaml"),
  ]);
}

const work = mkdtempSync(path.join(tmpdir(), "mcp-cassette-foreign-"));
const venvs = values.venvs ?? path.join(work, "venvs");
try {
  mkdirSync(venvs, { recursive: true });
  const out = path.resolve(values.out!);
  const python = install(venvs, "python-mcp-cassette");
  pythonMcpCassette(python, out);
  await pythonMcpCassetteHttp(python, out);
  mcpRec(install(venvs, "mcp-rec"), out);
  mcpVcr(install(venvs, "mcp-vcr"), out);
  mcpRecorder(install(venvs, "mcp-recorder"), out, work);
  vcrpy(install(venvs, "vcrpy"), out);
  process.stderr.write(`wrote the samples in ${out}\n`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
