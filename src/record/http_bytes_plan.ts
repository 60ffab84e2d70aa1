/**
 * Which requests the byte-level recorder's forwarding path (./http_bytes.ts)
 * takes itself, and the head each one goes up with; the rest go to the
 * fetch-based recorder.
 *
 * @module
 */
import { mediaType } from "../http/headers.ts";
import { MAX_BATCH_SIZE } from "../jsonrpc/messages.ts";
import { HeadFields, latin1Bytes } from "./http1.ts";
import type { Head } from "./http1.ts";
import type { ClientBody } from "./http_exchange.ts";
import { parseJson } from "./http_messages.ts";
import type { HttpRecorder } from "./http_recorder.ts";

/** Request headers not sent on: hop-by-hop ones, and what the proxy sets itself. */
const NOT_FORWARDED = new Set([
  "host",
  "connection",
  "keep-alive",
  "proxy-connection",
  "te",
  "trailer",
  "upgrade",
  "accept-encoding",
]);

/** A request the forwarding path takes: where it goes, and its body's length. */
export interface Plan {
  url: { pathname: string; search: string };
  target: string;
  length: number;
  clientCloses: boolean;
  headers: HeadFields;
  /** The session whose GET stream this request opens, if it does. */
  opensStreamOf?: string;
  /** The client's Authorization holds the recorder's own token: not sent on. */
  dropsAuthorization: boolean;
}

/** What the forwarding path takes; undefined hands the connection to the fetch-based path. */
export function planOf(
  head: Head,
  recorder: HttpRecorder,
  maxBodyBytes: number,
  ownToken = false,
): Plan | undefined {
  const [method, target, version] = head.start;
  const isGet = method === "GET";
  if (method !== "POST" && !isGet) return undefined;
  if (version !== "HTTP/1.1" || !recorder.streamable) return undefined;
  if (target[0] !== "/" || target[1] === "/" || target.startsWith("/.well-known/")) {
    return undefined;
  }
  const headers = new HeadFields(head);
  const length = headers.get("content-length") ?? (isGet ? "0" : null);
  if (length === null || !/^\d+$/.test(length)) return undefined;
  if (Number(length) > maxBodyBytes) return undefined;
  for (const name of ["transfer-encoding", "expect", "upgrade"]) {
    if (headers.get(name) !== null) return undefined;
  }
  // A GET is taken when it opens a Streamable HTTP session's stream (with
  // its session id; without one it may open an HTTP+SSE session, whose
  // endpoint event the fetch-based path rewrites) and has no body. Handed
  // on, it reached the upstream through two more hops, after a POST the
  // client sent later, whose server-to-client requests the upstream then
  // dropped for want of the stream they go on (see docs/http.md).
  const session = headers.get("mcp-session-id");
  const opensStream = session !== null && Number(length) === 0 &&
    (headers.get("accept") ?? "").includes("text/event-stream");
  if (isGet && !opensStream) return undefined;
  if (!isGet && mediaType(headers.get("content-type")) !== "application/json") return undefined;
  const query = target.indexOf("?");
  const url = query < 0
    ? { pathname: target, search: "" }
    : { pathname: target.slice(0, query), search: target.slice(query) };
  const to = recorder.upstream.target(target);
  const upstreamTarget = typeof to === "string"
    ? to.slice(recorder.upstream.origin.length)
    : to.pathname + to.search;
  return {
    url,
    target: upstreamTarget,
    length: Number(length),
    clientCloses: /close/i.test(headers.get("connection") ?? ""),
    headers,
    dropsAuthorization: ownToken,
    ...(isGet && session !== null ? { opensStreamOf: session } : {}),
  };
}

/** Replacing what is not UTF-8, as `new TextDecoder()` does (it keeps no state between calls). */
const UTF8 = new TextDecoder();

/** A POST's JSON body as the recording takes it; undefined hands it to the fetch-based path. */
export function readBody(body: Uint8Array): ClientBody | undefined {
  const text = UTF8.decode(body);
  const parsed = parseJson(text);
  const tooMany = Array.isArray(parsed) && parsed.length > MAX_BATCH_SIZE;
  return parsed === undefined || tooMany ? undefined : { body, text, parsed };
}

/** The request's head as the upstream gets it. */
export function headForUpstream(head: Head, plan: Plan, host: string): Uint8Array {
  let text = `${head.start[0]} ${plan.target} HTTP/1.1\r\nhost: ${host}\r\n`;
  for (const [name, value] of head.fields) {
    const lower = name.toLowerCase();
    if (NOT_FORWARDED.has(lower) || lower.startsWith("proxy-")) continue;
    if (plan.dropsAuthorization && lower === "authorization") continue;
    text += `${name}: ${value}\r\n`;
  }
  return latin1Bytes(text + "\r\n");
}
