/**
 * One exchange on the byte-level recorder's forwarding path
 * (./http_bytes.ts): the client's request bytes go up as they came (the
 * head rewritten for the upstream), the answer's bytes come down as they
 * came, and the recording beside them is the fetch-based path's own
 * (./http_exchange.ts, ./http_sse.ts), fed from what the framing reader
 * (./http1.ts) makes of the bytes.
 *
 * @module
 */
import type { TcpConnection } from "../runtime/mod.ts";
import { mediaType } from "../http/headers.ts";
import { ChunkedDecoder, HeadFields, latin1Bytes } from "./http1.ts";
import type { ByteReader, Head } from "./http1.ts";
import { recordAnswerHead, recordWholeAnswer } from "./http_exchange.ts";
import type { AnswerRecording, ClientRequest } from "./http_exchange.ts";
import { SseRecording } from "./http_sse.ts";
import type { HttpRecorder } from "./http_recorder.ts";

/** Largest answer head taken from the upstream, in bytes. */
const MAX_ANSWER_HEAD = 64 * 1024;

/** One kept-alive connection to the upstream. */
export interface UpstreamLink {
  conn: TcpConnection;
  reader: ByteReader;
  writer: WritableStreamDefaultWriter<Uint8Array>;
  /** Requests it has carried (a reused one may have been closed by the upstream meanwhile). */
  used: number;
}

/** The client side of an exchange. */
export interface ClientSide {
  reader: ByteReader;
  writer: WritableStreamDefaultWriter<Uint8Array>;
  /** Resolves true when the client has left (ended its side). */
  gone(): Promise<boolean>;
}

/** What the connection does after an exchange. */
export type After = "keep" | "close";

/** How one answer is framed: its length, chunks, or the connection's end. */
type Framing = "none" | "chunked" | "close" | number;

function framingOf(head: Head, headers: HeadFields, method: string): Framing {
  const status = Number(head.start[1]);
  if (method === "HEAD" || status === 204 || status === 304 || status < 200) return "none";
  const encoding = headers.get("transfer-encoding");
  if (encoding !== null) return /chunked\s*$/i.test(encoding) ? "chunked" : "close";
  const length = headers.get("content-length");
  return length !== null && /^\d+$/.test(length) ? Number(length) : "close";
}

/** The answer fields {@linkcode headForClient} may rewrite. */
const REWRITTEN = /^(?:www-authenticate|location)$/i;

/**
 * The answer's head for the client: as it came, unless a challenge or a
 * redirect names the upstream's origin, which must name the proxy's.
 */
function headForClient(recorder: HttpRecorder, head: Head, raw: Uint8Array): Uint8Array {
  const origin = recorder.upstream.origin;
  const proxy = recorder.proxyOrigin;
  // Nearly every answer has neither: its head goes on as it came, nothing built.
  if (!head.fields.some(([name]) => REWRITTEN.test(name))) return raw;
  let changed = false;
  const lines = [head.start.join(" ")];
  for (const [name, value] of head.fields) {
    const lower = name.toLowerCase();
    let out = value;
    if (lower === "www-authenticate" && value.includes(origin)) {
      out = value.split(origin).join(proxy);
    }
    if (lower === "location" && value.startsWith(origin)) out = proxy + value.slice(origin.length);
    changed ||= out !== value;
    lines.push(`${name}: ${out}`);
  }
  return changed ? latin1Bytes(lines.join("\r\n") + "\r\n\r\n") : raw;
}

/**
 * Sends the request up and relays its answer down, recording both;
 * `onHead` is called once the answer's final head is in.
 */
export async function forwardBytes(
  recorder: HttpRecorder,
  client: ClientRequest,
  side: ClientSide,
  up: UpstreamLink,
  request: Uint8Array,
  onHead?: () => void,
): Promise<After | "retry"> {
  // On disk before a byte goes up (with every other request of this turn).
  await recorder.flushed().catch(() => {});
  up.used++;
  const wrote = up.writer.write(request).then(() => true, () => false);
  const headOrGone = await Promise.race([
    up.reader.head(MAX_ANSWER_HEAD),
    side.gone().then(() => "gone" as const),
  ]);
  if (headOrGone === "gone") {
    recorder.append({
      type: "http-end",
      t: recorder.t(),
      ...(client.session ? { session: client.session.name } : {}),
      x: client.x,
      reason: "client-closed",
    });
    recorder.flush();
    return "close";
  }
  if (headOrGone === undefined && up.reader.buffered.length === 0 && up.used > 1) return "retry";
  if (typeof headOrGone !== "object") {
    await wrote;
    const what = headOrGone === undefined
      ? "closed the connection before answering"
      : headOrGone === "bad"
      ? "sent an answer that is not HTTP/1.1"
      : "sent an answer head over 64 KiB";
    return upstreamFailed(recorder, client, side, what);
  }
  let head = headOrGone;
  while (Number(head.start[1]) < 200 && head.start[1] !== "101") {
    // An interim answer (103 Early Hints) is dropped, as fetch drops it: the final one follows.
    up.reader.take(head.length);
    const next = await up.reader.head(MAX_ANSWER_HEAD);
    if (typeof next !== "object") {
      return upstreamFailed(recorder, client, side, "closed the connection before answering");
    }
    head = next;
  }
  onHead?.();
  const rawHead = up.reader.take(head.length);
  const headers = new HeadFields(head);
  const recording = {
    ...recordAnswerHead(recorder, client, Number(head.start[1]), headers),
    encoding: headers.get("content-encoding"),
  };
  const framing = framingOf(head, headers, client.request.method);
  const out = headForClient(recorder, head, rawHead);
  const upstreamCloses = framing === "close" || /close/i.test(headers.get("connection") ?? "");
  const contentType = mediaType(headers.get("content-type"));
  const ok = contentType === "text/event-stream" && framing !== "none"
    ? await relayEvents(recorder, client, side, up, recording, out, framing)
    : await relayWhole(recorder, client, side, up, recording, out, framing, contentType);
  return ok && !upstreamCloses ? "keep" : "close";
}

/** Records the upstream as failed and answers the client 502. */
export async function upstreamFailed(
  recorder: HttpRecorder,
  client: ClientRequest,
  side: ClientSide,
  what: string,
): Promise<After> {
  const reason = `the upstream ${what}`;
  recorder.append({
    type: "http-end",
    t: recorder.t(),
    ...(client.session ? { session: client.session.name } : {}),
    x: client.x,
    reason: "upstream-error",
    error: reason,
  });
  recorder.settings.log?.(`upstream ${recorder.upstream.origin} failed: ${reason}`);
  recorder.flush();
  const body = new TextEncoder().encode(JSON.stringify({
    jsonrpc: "2.0",
    id: client.messages.find((m) => "id" in m && typeof m.method === "string")?.id ?? null,
    error: { code: -32603, message: `Bad gateway: ${reason}` },
  }));
  const head = `HTTP/1.1 502 Bad Gateway\r\ncontent-type: application/json\r\n` +
    `content-length: ${body.length}\r\nconnection: close\r\n\r\n`;
  await side.writer.write(concat([latin1Bytes(head), body])).catch(() => {});
  return "close";
}

/**
 * Reads the body's bytes as they come: `onBytes` gets each run of raw bytes
 * with the data it carries. Resolves false when the upstream ended early.
 */
async function readBody(
  up: UpstreamLink,
  framing: Framing,
  onBytes: (raw: Uint8Array, data: Uint8Array[], last: boolean) => Promise<boolean> | boolean,
): Promise<boolean> {
  if (framing === "none") return true;
  const decoder = framing === "chunked" ? new ChunkedDecoder() : undefined;
  let left = typeof framing === "number" ? framing : Infinity;
  while (true) {
    const buffered = up.reader.buffered;
    if (buffered.length > 0 && left > 0 && !decoder?.done) {
      let raw: Uint8Array;
      let data: Uint8Array[];
      if (decoder) {
        const pushed = decoder.push(buffered);
        if (decoder.broken) return false;
        raw = up.reader.take(pushed.used);
        data = pushed.data;
      } else {
        raw = up.reader.take(Math.min(left, buffered.length));
        left -= raw.length;
        data = [raw];
      }
      if (!await onBytes(raw, data, decoder ? decoder.done : left === 0)) return false;
    }
    if (decoder ? decoder.done : left === 0) return true;
    if (!await up.reader.fill()) return framing === "close";
  }
}

async function relayWhole(
  recorder: HttpRecorder,
  client: ClientRequest,
  side: ClientSide,
  up: UpstreamLink,
  recording: AnswerRecording & { encoding: string | null },
  head: Uint8Array,
  framing: Framing,
  contentType: string,
): Promise<boolean> {
  const raws: Uint8Array[] = [head];
  const datas: Uint8Array[] = [];
  const complete = await readBody(up, framing, (raw, data) => {
    raws.push(raw);
    datas.push(...data);
    return true;
  });
  if (!complete) {
    recording.response("none");
    recording.end("upstream-closed", "the upstream closed the connection mid-body");
    recorder.flush();
    return false;
  }
  const body = await decoded(concat(datas), recording.encoding);
  recordWholeAnswer(recorder, client, recording, contentType, body);
  // An answer whose lines could not be written is not sent: the client sees the connection end.
  if (!await recorder.flushed().then(() => true, () => false)) return false;
  return await side.writer.write(concat(raws)).then(() => true, () => false);
}

async function relayEvents(
  recorder: HttpRecorder,
  client: ClientRequest,
  side: ClientSide,
  up: UpstreamLink,
  recording: AnswerRecording,
  head: Uint8Array,
  framing: Framing,
): Promise<boolean> {
  recording.response("sse");
  const events = new SseRecording(recorder, {
    stream: client.request.method === "GET" ? "get" : "post",
    x: client.x,
    session: client.session,
    requests: client.requests,
    end: recording.end,
  });
  let clientLeft = false;
  const send = (bytes: Uint8Array) =>
    side.writer.write(bytes).then(() => true, () => {
      clientLeft = true;
      return false;
    });
  if (!await recorder.flushed().then(() => send(head), () => false)) {
    events.end("client-closed");
    return false;
  }
  let relaying = true;
  side.gone().then(() => {
    if (!relaying) return;
    clientLeft = true;
    up.conn.close();
  });
  const complete = await readBody(up, framing, async (raw, data, last) => {
    for (const bytes of data) events.push(bytes);
    // The end is recorded before the bytes that end the answer go on.
    if (last) events.end("complete");
    return await recorder.flushed().then(() => send(raw), () => false);
  });
  relaying = false;
  if (clientLeft) events.end("client-closed");
  else if (complete) events.end("complete");
  else events.end("upstream-closed", "the upstream closed the connection mid-stream");
  return complete && !clientLeft;
}

/**
 * The body as the recording keeps it: fetch decodes gzip and deflate (the
 * request went up without Accept-Encoding, but an upstream may compress
 * anyway); the client still gets the bytes as they came, with their header.
 */
async function decoded(bytes: Uint8Array, encoding: string | null): Promise<Uint8Array> {
  const format = encoding?.trim().toLowerCase();
  if (format !== "gzip" && format !== "deflate") return bytes;
  try {
    const stream = new Blob([bytes as Uint8Array<ArrayBuffer>]).stream()
      .pipeThrough(new DecompressionStream(format));
    return new Uint8Array(await new Response(stream).arrayBuffer());
  } catch {
    return bytes;
  }
}

/** The chunks as one array (the one chunk itself when there is only one). */
export function concat(chunks: Uint8Array[]): Uint8Array {
  if (chunks.length === 1) return chunks[0];
  let total = 0;
  for (const chunk of chunks) total += chunk.length;
  const out = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.length;
  }
  return out;
}
