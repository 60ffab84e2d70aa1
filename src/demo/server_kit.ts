/**
 * A tiny MCP server over stdio, with no SDK: enough for the demo pair and
 * for test fixtures. It answers `initialize`, `ping`, `tools/list` and
 * `tools/call`, plus any extra methods given.
 *
 * @module
 */
import { JsonlLineStream } from "../framing/jsonl.ts";
import { classify, ErrorCode } from "../jsonrpc/messages.ts";
import type { Json, JsonObject, JsonRpcId, JsonRpcMessage } from "../jsonrpc/messages.ts";
import { runtime } from "../runtime/mod.ts";

/** An error a handler throws to answer with a JSON-RPC error. */
export class RpcFault extends Error {
  constructor(readonly code: number, message: string, readonly data?: Json) {
    super(message);
  }
}

/** A tool: its `tools/list` entry and what `tools/call` does. */
export interface ToolSpec {
  definition: JsonObject & { name: string };
  call(args: JsonObject, server: ServerContext): JsonObject | Promise<JsonObject>;
}

/** What handlers can do besides answering. */
export interface ServerContext {
  /** Sends a request to the client and waits for its answer. */
  request(method: string, params?: JsonObject): Promise<JsonRpcMessage>;
  notify(method: string, params?: JsonObject): Promise<void>;
}

/** A server to serve. */
export interface ServerSpec {
  name: string;
  version: string;
  protocolVersion?: string;
  tools: ToolSpec[];
  /** Other methods, by name. */
  methods?: Record<string, (params: JsonObject, server: ServerContext) => Json | Promise<Json>>;
}

const encoder = new TextEncoder();

/** A tool result holding one text item. */
export function textResult(text: string, extra: JsonObject = {}): JsonObject {
  return { content: [{ type: "text", text }], ...extra };
}

/**
 * Serves `spec` on this process's stdin and stdout until stdin ends.
 *
 * @example
 * ```ts
 * await serveStdio({ name: "x", version: "1", tools: [{ definition: { name: "hi", inputSchema: { type: "object" } }, call: () => textResult("hi") }] });
 * ```
 */
export async function serveStdio(spec: ServerSpec): Promise<void> {
  const writer = runtime.stdout.getWriter();
  let chain = Promise.resolve();
  const send = (message: JsonRpcMessage) => {
    chain = chain.then(() => writer.write(encoder.encode(JSON.stringify(message) + "\n"))).catch(
      () => {},
    );
    return chain;
  };
  let nextId = 1;
  const waiting = new Map<JsonRpcId, (message: JsonRpcMessage) => void>();
  const context: ServerContext = {
    request(method, params) {
      const id = `s${nextId++}`;
      return new Promise((resolve) => {
        waiting.set(id, resolve);
        send({ jsonrpc: "2.0", id, method, ...(params ? { params } : {}) });
      });
    },
    notify: (method, params) => send({ jsonrpc: "2.0", method, ...(params ? { params } : {}) }),
  };
  const handle = async (message: JsonRpcMessage & { id: JsonRpcId; method: string }) => {
    try {
      const result = await dispatch(
        spec,
        message.method,
        (message.params ?? {}) as JsonObject,
        context,
      );
      await send({ jsonrpc: "2.0", id: message.id, result });
    } catch (error) {
      const fault = error instanceof RpcFault
        ? error
        : new RpcFault(ErrorCode.InternalError, String(error));
      await send({
        jsonrpc: "2.0",
        id: message.id,
        error: {
          code: fault.code,
          message: fault.message,
          ...(fault.data !== undefined ? { data: fault.data } : {}),
        },
      });
    }
  };
  const inFlight = new Set<Promise<void>>();
  for await (const line of runtime.stdin.pipeThrough(new JsonlLineStream())) {
    if (line.trim() === "") continue;
    let message: JsonRpcMessage;
    try {
      message = JSON.parse(line);
    } catch {
      await send({
        jsonrpc: "2.0",
        id: null,
        error: { code: ErrorCode.ParseError, message: "Parse error" },
      });
      continue;
    }
    const kind = classify(message);
    // Not awaited: a tool waiting on a request to the client must not stop reading its answer.
    if (kind === "request") {
      const work = handle(message as JsonRpcMessage & { id: JsonRpcId; method: string });
      inFlight.add(work);
      work.finally(() => inFlight.delete(work));
    } else if (kind === "response" || kind === "error") {
      const resolve = waiting.get(message.id as JsonRpcId);
      waiting.delete(message.id as JsonRpcId);
      resolve?.(message);
    }
  }
  // Answer what was asked before stdin closed, unless it waits on the client.
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([
    Promise.all(inFlight),
    new Promise((resolve) => (timer = setTimeout(resolve, 1000))),
  ]);
  clearTimeout(timer);
  await chain;
}

async function dispatch(
  spec: ServerSpec,
  method: string,
  params: JsonObject,
  context: ServerContext,
): Promise<Json> {
  const extra = spec.methods?.[method];
  if (extra) return await extra(params, context);
  switch (method) {
    case "initialize":
      return {
        protocolVersion: spec.protocolVersion ??
          (typeof params.protocolVersion === "string" ? params.protocolVersion : "2025-11-25"),
        capabilities: { tools: {} },
        serverInfo: { name: spec.name, version: spec.version },
      };
    case "ping":
      return {};
    case "tools/list":
      return { tools: spec.tools.map((tool) => tool.definition) };
    case "tools/call": {
      const tool = spec.tools.find((candidate) => candidate.definition.name === params.name);
      if (!tool) {
        throw new RpcFault(ErrorCode.InvalidParams, `Unknown tool: ${String(params.name)}`);
      }
      const args = params.arguments !== null && typeof params.arguments === "object" &&
          !Array.isArray(params.arguments)
        ? params.arguments
        : {};
      return await tool.call(args, context);
    }
    default:
      throw new RpcFault(ErrorCode.MethodNotFound, `Method not found: ${method}`);
  }
}
