/**
 * The JSON Schema of one cassette line (docs/cassette-format.md): line 1 is
 * the header, every later line an entry. A cassette is JSONL, so editors and
 * validators check it a line at a time. Fields the format may add later are
 * allowed (an older reader ignores them), so unknown members pass.
 *
 * @module
 */
import { FORMAT_NAME, FORMAT_VERSION } from "../../src/cassette/format.ts";
import { anyObject, DIALECT, type JsonSchema, text } from "./common.ts";

const strings = { type: "object", additionalProperties: { type: "string" } };

const header: JsonSchema = {
  type: "object",
  title: "header (line 1)",
  properties: {
    format: { const: FORMAT_NAME, description: `Always "${FORMAT_NAME}".` },
    version: {
      type: "integer",
      minimum: 1,
      maximum: FORMAT_VERSION,
      description: "The format version; a reader refuses one newer than it knows.",
    },
    recorder: text("The tool and version that wrote the file."),
    created: text("ISO-8601 time the recording started."),
    transport: {
      enum: ["stdio", "http", "sse"],
      description: "The wire: stdio, Streamable HTTP, or the 2024-11-05 HTTP+SSE transport.",
    },
    era: {
      enum: ["legacy", "modern"],
      description:
        "legacy (session-based, up to 2025-11-25) or modern (2026-07-28); absent means legacy.",
    },
    protocolVersion: text("The negotiated protocol revision, when known."),
    server: {
      type: "object",
      description: "The recorded server: its command line (stdio) or URL (HTTP), name and version.",
      properties: {
        command: { type: "array", items: { type: "string" } },
        url: { type: "string" },
        name: { type: "string" },
        version: { type: "string" },
      },
    },
    redaction: {
      type: "object",
      description: "Which rules scrubbed the file; replay re-applies them to live client messages.",
      properties: {
        rules: { type: "array", items: { type: "string" } },
        packs: {
          type: "array",
          items: {
            type: "object",
            properties: { name: { type: "string" }, sha256: { type: "string" } },
            required: ["name", "sha256"],
          },
        },
        secretEnv: {
          type: "array",
          description: "record --secret-env: variables whose values became [SECRET:NAME].",
          items: { type: "string" },
        },
      },
      required: ["rules"],
    },
    meta: anyObject("Free-form labels."),
  },
  required: ["format", "version", "recorder", "created", "transport", "server"],
};

const sse: JsonSchema = {
  type: "object",
  description: "The SSE event's framing.",
  properties: {
    id: { type: "string" },
    event: { type: "string" },
    retry: { type: "number" },
    stream: { enum: ["post", "get"] },
  },
};

const dir = { enum: ["c2s", "s2c"], description: "c2s: client to server; s2c: server to client." };

/** Fields every entry may carry, and each type's own. */
const BASE: Record<string, JsonSchema> = {
  t: { type: "number", description: "Milliseconds since the recording started." },
  session: text("The client session the entry belongs to; absent: the default one."),
  x: { type: "integer", description: "The HTTP exchange the entry belongs to." },
  appended: { const: true, description: "Appended by replay --new-episodes." },
};

const TYPES: Record<
  string,
  { description: string; fields: Record<string, JsonSchema>; required: string[] }
> = {
  message: {
    description: "One JSON-RPC message (or batch) in the sender's own words.",
    fields: {
      dir,
      msg: { description: "The message; since version 2 the frame's own text, last in the line." },
      frame: text("The frame's text when it spans lines or holds a carriage return."),
      sse,
      optional: {
        const: true,
        description:
          "On a client request: the recording may go unplayed (docs/cassette-format.md).",
      },
    },
    required: ["dir", "msg"],
  },
  raw: {
    description: "Output that is not JSON-RPC (a banner, a log line), kept as text.",
    fields: { dir, text: { type: "string" }, sse },
    required: ["dir", "text"],
  },
  session: {
    description: "A client session starting or ending.",
    fields: {
      event: { enum: ["start", "end"] },
      sessionId: text("The session id the server minted (HTTP)."),
      exitCode: { type: "integer", description: "The stdio server's exit code." },
      reason: { type: "string" },
    },
    required: ["session", "event"],
  },
  "http-request": {
    description: "The HTTP request of an exchange (its body is in the message entries).",
    fields: {
      method: { type: "string" },
      path: text("Path and query, secrets in the query redacted."),
      headers: strings,
      credentials: {
        type: "array",
        items: { type: "string" },
        description: "Credential-bearing headers that were present (values never written).",
      },
    },
    required: ["x", "method", "path", "headers"],
  },
  "http-response": {
    description: "The HTTP response of an exchange.",
    fields: {
      status: { type: "integer" },
      headers: strings,
      body: { enum: ["json", "sse", "none", "text"] },
      text: text("The body, when it was neither JSON-RPC nor SSE."),
    },
    required: ["x", "status", "headers", "body"],
  },
  "sse-event": {
    description: "An SSE event without a JSON-RPC payload (priming, endpoint).",
    fields: { sse, data: { type: "string" } },
    required: ["x", "sse", "data"],
  },
  "http-end": {
    description: "The end of an HTTP response body.",
    fields: {
      reason: { enum: ["complete", "client-closed", "upstream-closed", "upstream-error"] },
      error: { type: "string" },
    },
    required: ["x", "reason"],
  },
};

function entry(type: string): JsonSchema {
  const { description, fields, required } = TYPES[type];
  return {
    type: "object",
    title: `${type} entry`,
    description,
    properties: { type: { const: type }, ...BASE, ...fields },
    required: ["type", "t", ...required],
  };
}

/** The schema of one cassette line. */
export function cassetteLineSchema(): JsonSchema {
  return {
    $schema: DIALECT,
    title: "mcp-cassette cassette line",
    description:
      "One line of a cassette (JSONL): the header on line 1, an entry on every later line. See docs/cassette-format.md.",
    oneOf: [header, ...Object.keys(TYPES).map(entry)],
  };
}
