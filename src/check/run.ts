/**
 * The `check` procedure: open a session, list the server's surface, check
 * every tool's schemas, and gather a deterministic report.
 *
 * @module
 */
import type { JsonObject } from "../jsonrpc/messages.ts";
import { McpConnection, RpcError } from "../client/connection.ts";
import type { ConnectionOptions } from "../client/connection.ts";
import { initialize, listAll } from "../client/session.ts";
import type { HandshakeOptions } from "../client/session.ts";
import type { ClientTransport } from "../client/transport.ts";
import { CassetteError } from "../errors/errors.ts";
import { checkToolSchema } from "./schema.ts";
import { explainStartFailure } from "./start_failure.ts";
import type { Severity } from "./schema.ts";
import { isObject } from "../util/helpers.ts";

/** One finding of `check`. */
export interface CheckFinding {
  severity: Severity;
  /** Where: `tools["search"].inputSchema.properties.q.type`, `resources/list`. */
  where: string;
  message: string;
}

/** How many of each thing the server offers; null when it does not declare the capability. */
export interface SurfaceCounts {
  tools: number | null;
  resources: number | null;
  resourceTemplates: number | null;
  prompts: number | null;
}

/** The result of `check`. Contains no timings, so two runs compare equal. */
export interface CheckReport {
  server: { name: string; version: string };
  protocolVersion: string;
  counts: SurfaceCounts;
  findings: CheckFinding[];
  result: "PASS" | "FAIL";
}

/** A scripted client for `check --script` (src/script/check.ts builds it from a playbook). */
export interface CheckScript {
  /** Answers to the server's own requests. */
  connection: ConnectionOptions;
  /** Who the client says it is. */
  handshake: HandshakeOptions;
  /** Runs once the surface is listed; its findings join the report. */
  run(connection: McpConnection, timeoutMs: number | undefined): Promise<CheckFinding[]>;
}

/** Options for {@linkcode runCheck}. */
export interface CheckOptions {
  timeoutMs?: number;
  script?: CheckScript;
}

/** Lists one kind of thing, turning a failure into a finding. */
async function listOrFinding(
  connection: McpConnection,
  method: string,
  key: string,
  findings: CheckFinding[],
  timeoutMs: number | undefined,
): Promise<JsonObject[] | null> {
  try {
    return await listAll(connection, method, key, { timeoutMs });
  } catch (error) {
    const why = error instanceof RpcError
      ? `${error.rpcMessage} (${error.code})`
      : (error as Error).message;
    findings.push({
      severity: "error",
      where: method,
      message: `the capability is declared but ${method} failed: ${why}`,
    });
    if (error instanceof CassetteError && !(error instanceof RpcError) && connection.isEnded) {
      throw error;
    }
    return null;
  }
}

/** Names a tool for a finding's `where`. */
function toolWhere(tool: JsonObject, index: number): string {
  return typeof tool.name === "string" ? `tools[${JSON.stringify(tool.name)}]` : `tools[${index}]`;
}

/** Checks the tools' names and schemas. */
export function checkTools(tools: JsonObject[]): CheckFinding[] {
  const findings: CheckFinding[] = [];
  const names = new Set<string>();
  tools.forEach((tool, index) => {
    const where = toolWhere(tool, index);
    if (typeof tool.name !== "string" || tool.name === "") {
      findings.push({
        severity: "error",
        where,
        message: "a tool must have a non-empty string name",
      });
    } else if (names.has(tool.name)) {
      findings.push({
        severity: "error",
        where,
        message: `the tool name "${tool.name}" is listed twice`,
      });
    } else names.add(tool.name);
    for (const finding of checkToolSchema(tool.inputSchema, "inputSchema")) {
      findings.push({
        severity: finding.severity,
        where: `${where}.${finding.path}`,
        message: finding.message,
      });
    }
    if ("outputSchema" in tool) {
      for (const finding of checkToolSchema(tool.outputSchema, "outputSchema")) {
        findings.push({
          severity: finding.severity,
          where: `${where}.${finding.path}`,
          message: finding.message,
        });
      }
    }
  });
  return findings;
}

/**
 * Runs `check` over `transport`, which it closes.
 *
 * @example
 * ```ts
 * const report = await runCheck(new StdioClientTransport(["node", "server.js"]));
 * console.log(report.result);
 * ```
 */
export async function runCheck(
  transport: ClientTransport,
  options: CheckOptions = {},
): Promise<CheckReport> {
  const connection = new McpConnection(transport, {
    ...options.script?.connection,
    timeoutMs: options.timeoutMs,
  });
  try {
    const hello = await initialize(connection, {
      ...options.script?.handshake,
      timeoutMs: options.timeoutMs,
    }).catch(async (error) => {
      throw await explainStartFailure(error, transport);
    });
    const findings: CheckFinding[] = [];
    const capabilities = hello.capabilities;
    const counts: SurfaceCounts = {
      tools: null,
      resources: null,
      resourceTemplates: null,
      prompts: null,
    };
    const t = options.timeoutMs;
    if (isObject(capabilities.tools)) {
      const tools = await listOrFinding(connection, "tools/list", "tools", findings, t);
      if (tools) {
        counts.tools = tools.length;
        findings.push(...checkTools(tools));
      }
    }
    if (isObject(capabilities.resources)) {
      counts.resources =
        (await listOrFinding(connection, "resources/list", "resources", findings, t))?.length ??
          null;
      counts.resourceTemplates = (await listOrFinding(
        connection,
        "resources/templates/list",
        "resourceTemplates",
        findings,
        t,
      ))?.length ?? null;
    }
    if (isObject(capabilities.prompts)) {
      counts.prompts =
        (await listOrFinding(connection, "prompts/list", "prompts", findings, t))?.length ?? null;
    }
    if (options.script) findings.push(...await options.script.run(connection, t));
    if (hello.protocolVersion === "(none)") {
      findings.push({
        severity: "error",
        where: "initialize",
        message: "the result has no protocolVersion",
      });
    }
    return {
      server: { name: hello.serverInfo.name, version: hello.serverInfo.version },
      protocolVersion: hello.protocolVersion,
      counts,
      findings,
      result: findings.some((finding) => finding.severity === "error") ? "FAIL" : "PASS",
    };
  } finally {
    await connection.close();
  }
}
