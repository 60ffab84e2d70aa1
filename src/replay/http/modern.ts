/**
 * The stateless 2026-07-28 era over Streamable HTTP: POST only, no
 * sessions, and the required headers checked against the body with the
 * spec's status and error codes.
 *
 * @module
 */
import { decodeHeaderValue } from "../../http/headers.ts";
import type { RequestHeads } from "../../http/headers.ts";
import { errorReply } from "../../http/body.ts";
import { ErrorCode, PROTOCOL_VERSION_META } from "../../jsonrpc/messages.ts";
import type { Json, JsonObject } from "../../jsonrpc/messages.ts";
import { isObject } from "../../util/helpers.ts";
import type { BodyDeadline } from "../../runtime/mod.ts";
import type { ReplayEngine } from "../engine.ts";
import type { ReplaySession } from "../session.ts";
import type { HttpHost } from "./host.ts";
import { expectsAnswer } from "./host.ts";

const MODERN_VERSION = "2026-07-28";
const HEADER_MISMATCH = -32020;
const UNSUPPORTED_VERSION = -32022;

/** Methods of the protocol; anything else is an unknown method (modern: 404). */
const KNOWN_METHODS = new Set([
  "initialize",
  "ping",
  "server/discover",
  "tools/list",
  "tools/call",
  "resources/list",
  "resources/read",
  "resources/templates/list",
  "resources/subscribe",
  "resources/unsubscribe",
  "prompts/list",
  "prompts/get",
  "completion/complete",
  "logging/setLevel",
  "subscriptions/listen",
  "tasks/get",
  "tasks/list",
  "tasks/result",
  "tasks/cancel",
]);
/** Methods whose target travels in `Mcp-Name` (modern era). */
const NAMED: Record<string, string> = {
  "tools/call": "name",
  "prompts/get": "name",
  "resources/read": "uri",
};

/** Serves the modern era's POSTs. */
export class ModernHttp {
  #session: ReplaySession | undefined;
  #supported: string[];

  constructor(private readonly host: HttpHost) {
    this.#supported = modernVersions(host.engine);
    this.#dropRecordedRefusals();
  }

  /** Answers one request; `heads`, its headers when the server read them already. */
  async handle(
    request: Request,
    deadline?: BodyDeadline,
    heads?: RequestHeads,
  ): Promise<Response> {
    if (request.method !== "POST") {
      return new Response(null, { status: 405, headers: { allow: "POST" } });
    }
    const read = await this.host.readPost(request, deadline, heads);
    if ("error" in read) return read.error;
    const body = read.body;
    if (!isObject(body)) {
      return errorReply({
        status: 400,
        code: ErrorCode.InvalidRequest,
        message: "Invalid Request: one JSON-RPC message per POST",
      });
    }
    const id = (expectsAnswer(body) ? body.id : null) as Json;
    // A session-based client's initialize carries none of this era's headers:
    // it goes on to the replay, whose miss names both eras.
    const refused = body.method === "initialize"
      ? undefined
      : this.#checkModernHeaders(request, body, id);
    if (refused) return refused;
    this.#session ??= this.host.engine.openSession();
    if (!expectsAnswer(body)) {
      void this.#session.receive(body, {
        send: () => Promise.resolve(),
        raw: () => Promise.resolve(),
        fault: () => Promise.resolve(false),
      });
      return new Response(null, { status: 202 });
    }
    if (!KNOWN_METHODS.has(body.method as string)) {
      return errorReply({
        status: 404,
        id,
        code: ErrorCode.MethodNotFound,
        message: `Method not found: ${body.method}`,
      });
    }
    return await this.host.replyTo(undefined, body, {}, this.#session, read.text);
  }

  /**
   * The replay answers a request that breaks the header rules itself, without
   * taking a recorded answer. So the recorded requests that broke them (and
   * the upstream's refusals) are left out: otherwise a later request with the
   * same body that keeps the rules would be served a recorded refusal.
   */
  #dropRecordedRefusals(): void {
    this.host.engine.dropTriggers((trigger) => {
      const recorded = trigger.exchange?.request;
      const body = trigger.request.msg as unknown;
      if (!recorded || !isObject(body)) return false;
      const id = (expectsAnswer(body) ? body.id : null) as Json;
      return this.#checkModernHeaders({ headers: new Headers(recorded.headers) }, body, id) !==
        undefined;
    });
  }

  /** The 2026-07-28 header rules: version, Mcp-Method, Mcp-Name, each against the body. */
  #checkModernHeaders(
    request: { headers: Headers },
    body: JsonObject,
    id: Json,
  ): Response | undefined {
    const params = isObject(body.params) ? body.params : {};
    const meta = isObject(params._meta) ? params._meta : {};
    const bodyVersion = typeof meta[PROTOCOL_VERSION_META] === "string"
      ? meta[PROTOCOL_VERSION_META] as string
      : undefined;
    const header = request.headers.get("mcp-protocol-version");
    const requested = header ?? bodyVersion;
    if (requested !== undefined && !this.#supported.includes(requested)) {
      return errorReply({
        status: 400,
        id,
        code: UNSUPPORTED_VERSION,
        message: `Unsupported protocol version: ${requested}`,
        data: {
          supported: this.#supported,
          requested,
        },
      });
    }
    if (header === null || (bodyVersion !== undefined && header !== bodyVersion)) {
      return errorReply({
        status: 400,
        id,
        code: HEADER_MISMATCH,
        message: "Header mismatch: MCP-Protocol-Version must equal the request's protocol version",
      });
    }
    if (typeof body.method === "string") {
      const method = request.headers.get("mcp-method");
      if (method === null || decodeHeaderValue(method) !== body.method) {
        return errorReply({
          status: 400,
          id,
          code: HEADER_MISMATCH,
          message: `Header mismatch: Mcp-Method must be ${body.method}`,
        });
      }
      const field = NAMED[body.method];
      if (field) {
        const name = request.headers.get("mcp-name");
        const expected = params[field];
        if (name === null || decodeHeaderValue(name) !== expected) {
          return errorReply({
            status: 400,
            id,
            code: HEADER_MISMATCH,
            message: `Header mismatch: Mcp-Name must equal params.${field}`,
          });
        }
      }
    }
    return undefined;
  }
}

/** The versions a modern recording's server said it supports. */
function modernVersions(engine: ReplayEngine): string[] {
  for (const session of engine.episodes.sessions) {
    for (const trigger of session.triggers) {
      if (trigger.key.method !== "server/discover") continue;
      const result = trigger.response?.msg.result;
      if (isObject(result) && Array.isArray(result.supportedVersions)) {
        return result.supportedVersions.filter((v): v is string => typeof v === "string");
      }
    }
  }
  return [engine.cassette.header.protocolVersion ?? MODERN_VERSION];
}
