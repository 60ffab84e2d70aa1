/**
 * The interop checker: compares what a client in some language printed after
 * running the session (session.json) against a replay with the answers the
 * cassette file holds, step by step.
 *
 * The rule: every field the cassette recorded must come back through the
 * client's SDK with the same value (arrays the same length, element by
 * element). A field the SDK adds that the cassette lacks (a default such as
 * `isError: false` or `resultType: "complete"`) is allowed, and reported as a
 * note, because SDKs fill their own defaults into what they parse.
 *
 * @module
 */
import { readFileSync } from "node:fs";

/** One step of the shared session. */
export interface SessionStep {
  name: string;
  method: string;
  params?: Record<string, unknown>;
}

/** What every client prints. */
export interface ClientOutput {
  sdk: string;
  transport: string;
  era: string;
  initialize: { serverInfo: unknown; protocolVersion: string };
  steps: Record<string, { result?: unknown; error?: { code: number | null; message: string } }>;
}

/** The verdict on one client run. */
export interface CheckReport {
  ok: boolean;
  /** Differences that fail the run, one line each. */
  problems: string[];
  /** Fields the SDK added on its own, as paths. */
  added: string[];
  /** Recorded fields the SDK cannot show (a zero value it omits, or a field in sdk_limits.json), as paths. */
  dropped: string[];
  /** How many recorded leaf values were compared equal. */
  compared: number;
}

/** One recorded request with its answer. */
export interface Recorded {
  method: string;
  params: unknown;
  answer: { result?: unknown; error?: { code: number; message: string } };
}

/**
 * The paths an SDK is known to drop, from sdk_limits.json: the entries of
 * every key that starts `sdk` (the language, `go`, or a package,
 * `typescript @modelcontextprotocol/client`).
 */
export function loadLimits(file: string, sdk: string): Set<string> {
  const all = JSON.parse(readFileSync(file, "utf8")) as Record<
    string,
    Record<string, string> | string
  >;
  const paths = new Set<string>();
  for (const [key, entries] of Object.entries(all)) {
    if (typeof entries !== "object" || (sdk !== key && !sdk.startsWith(`${key} `))) continue;
    for (const path of Object.keys(entries)) paths.add(path);
  }
  return paths;
}

/** Whether a dropped field is listed: by its step-relative path, or as `*.<path>` for every step. */
function listed(path: string, limits: ReadonlySet<string>): boolean {
  const general = path.replace(/\[\d+\]/g, "[]");
  return limits.has(general) || limits.has(`*.${general.replace(/^[^.]+\./, "")}`);
}

/** Reads the session steps. */
export function loadSession(file: string): SessionStep[] {
  return (JSON.parse(readFileSync(file, "utf8")) as { steps: SessionStep[] }).steps;
}

/** The recorded request/answer pairs of a cassette, in recording order. */
export function recordedExchanges(cassetteFile: string): Recorded[] {
  const lines = readFileSync(cassetteFile, "utf8").trim().split("\n").map((line) =>
    JSON.parse(line)
  );
  const requests = new Map<string, { method: string; params: unknown }>();
  const out: Recorded[] = [];
  for (const entry of lines) {
    if (entry.type !== "message") continue;
    const msg = entry.msg;
    const id = msg.id === undefined || msg.id === null ? undefined : JSON.stringify(msg.id);
    if (entry.dir === "c2s" && msg.method && id !== undefined) {
      requests.set(id, { method: msg.method, params: msg.params ?? {} });
    } else if (entry.dir === "s2c" && !msg.method && id !== undefined && requests.has(id)) {
      const request = requests.get(id)!;
      requests.delete(id);
      out.push({
        ...request,
        answer: "error" in msg ? { error: msg.error } : { result: msg.result },
      });
    }
  }
  return out;
}

/** Params without `_meta` anywhere, as replay matches them. */
function withoutMeta(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutMeta);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>).filter(([key]) => key !== "_meta").map((
      [key, item],
    ) => [key, withoutMeta(item)]),
  );
}

function sameJson(a: unknown, b: unknown): boolean {
  return stable(a) === stable(b);
}

function stable(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stable).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).sort((
      [a],
      [b],
    ) => (a < b ? -1 : 1));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${stable(item)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

/**
 * Walks the recorded value; every recorded leaf must be in `got` with the
 * same value. Keys only in `got` go to `added`.
 */
function compare(
  recorded: unknown,
  got: unknown,
  where: string,
  report: CheckReport,
  limits: ReadonlySet<string>,
): void {
  if (Array.isArray(recorded)) {
    if (!Array.isArray(got) || got.length !== recorded.length) {
      report.problems.push(
        `${where}: recorded an array of ${recorded.length}, client has ${describe(got)}`,
      );
      return;
    }
    recorded.forEach((item, i) => compare(item, got[i], `${where}[${i}]`, report, limits));
    return;
  }
  if (recorded !== null && typeof recorded === "object") {
    if (got === null || typeof got !== "object" || Array.isArray(got)) {
      report.problems.push(`${where}: recorded an object, client has ${describe(got)}`);
      return;
    }
    const gotObject = got as Record<string, unknown>;
    for (const [key, item] of Object.entries(recorded as Record<string, unknown>)) {
      if (!(key in gotObject)) {
        const path = `${where}.${key}`;
        if (isZero(item) || listed(path, limits)) report.dropped.push(path);
        else {report.problems.push(
            `${path}: recorded ${short(item)}, missing from the client's result`,
          );}
        continue;
      }
      compare(item, gotObject[key], `${where}.${key}`, report, limits);
    }
    for (const key of Object.keys(gotObject)) {
      if (!(key in (recorded as Record<string, unknown>))) report.added.push(`${where}.${key}`);
    }
    return;
  }
  if (recorded !== got) {
    report.problems.push(`${where}: recorded ${short(recorded)}, client has ${short(got)}`);
    return;
  }
  report.compared++;
}

/** A value SDKs leave out when serialising (`omitempty` and the like; an empty list is Go's nil slice). */
function isZero(value: unknown): boolean {
  return value === false || value === 0 || value === "" ||
    (Array.isArray(value) && value.length === 0);
}

function describe(value: unknown): string {
  return Array.isArray(value) ? `an array of ${value.length}` : short(value);
}

function short(value: unknown): string {
  const text = JSON.stringify(value) ?? "nothing";
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

/** The protocol era a cassette's frames show: `server/discover` answered means modern. */
export function cassetteEra(exchanges: Recorded[]): "legacy" | "modern" {
  return exchanges.some((exchange) =>
      exchange.method === "server/discover" && exchange.answer.result
    )
    ? "modern"
    : "legacy";
}

const SERVER_INFO = "io.modelcontextprotocol/serverInfo";
const PROTOCOL_VERSION = "io.modelcontextprotocol/protocolVersion";

/**
 * The opening the client reports against the one recorded: in the legacy era
 * the `initialize` answer's serverInfo and protocolVersion; in the modern era
 * the `server/discover` answer's serverInfo (in its `_meta`) and the revision
 * the recorded request carried. The client must also have ended up in the
 * cassette's era: a modern recording answered to a client that fell back to
 * `initialize` is a failure, whatever the steps say.
 */
function checkOpening(
  exchanges: Recorded[],
  output: ClientOutput,
  report: CheckReport,
  limits: ReadonlySet<string>,
): void {
  const era = cassetteEra(exchanges);
  if (output.era !== era) {
    report.problems.push(`era: the cassette is ${era}, the client connected as ${output.era}`);
  }
  const opening = exchanges.find((exchange) =>
    exchange.method === (era === "modern" ? "server/discover" : "initialize") &&
    exchange.answer.result
  );
  const result = opening?.answer.result as
    | { serverInfo?: unknown; protocolVersion?: string; _meta?: Record<string, unknown> }
    | undefined;
  if (!opening || !result) {
    report.problems.push(
      `the cassette holds no answered ${era === "modern" ? "server/discover" : "initialize"}`,
    );
    return;
  }
  const serverInfo = era === "modern" ? result._meta?.[SERVER_INFO] : result.serverInfo;
  const version = era === "modern"
    ? (opening.params as { _meta?: Record<string, unknown> })._meta?.[PROTOCOL_VERSION]
    : result.protocolVersion;
  compare(serverInfo, output.initialize?.serverInfo, "initialize.serverInfo", report, limits);
  compare(
    version,
    output.initialize?.protocolVersion,
    "initialize.protocolVersion",
    report,
    limits,
  );
}

/**
 * Checks one client run against the cassette. Repeated steps take the
 * recorded answers of their request in order, as replay serves them.
 */
export function checkClientOutput(
  cassetteFile: string,
  steps: SessionStep[],
  output: ClientOutput,
  limits: ReadonlySet<string> = new Set(),
): CheckReport {
  const report: CheckReport = { ok: true, problems: [], added: [], dropped: [], compared: 0 };
  const exchanges = recordedExchanges(cassetteFile);
  const used = new Set<Recorded>();

  checkOpening(exchanges, output, report, limits);

  for (const step of steps) {
    const got = output.steps?.[step.name];
    const wanted = withoutMeta(step.params ?? {});
    const candidates = exchanges.filter((exchange) =>
      exchange.method === step.method && sameJson(withoutMeta(exchange.params), wanted)
    );
    const recorded = candidates.find((exchange) => !used.has(exchange)) ?? candidates.at(-1);
    if (!recorded) {
      report.problems.push(
        `${step.name}: the cassette never recorded ${step.method} ${stable(wanted)}`,
      );
      continue;
    }
    used.add(recorded);
    if (!got) {
      report.problems.push(`${step.name}: the client printed nothing for this step`);
    } else if (recorded.answer.error) {
      if (!got.error) {
        report.problems.push(
          `${step.name}: recorded error ${recorded.answer.error.code}, client got a result`,
        );
      } else {
        compare(
          recorded.answer.error.code,
          got.error.code,
          `${step.name}.error.code`,
          report,
          limits,
        );
        compare(
          recorded.answer.error.message,
          got.error.message,
          `${step.name}.error.message`,
          report,
          limits,
        );
      }
    } else if (got.error) {
      report.problems.push(
        `${step.name}: client got error ${got.error.code} ${
          short(got.error.message)
        }, recorded a result`,
      );
    } else {
      compare(recorded.answer.result, got.result, step.name, report, limits);
    }
  }
  report.ok = report.problems.length === 0;
  return report;
}
