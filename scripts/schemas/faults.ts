/**
 * The JSON Schema of a fault overlay (`replay --faults`, docs/faults.md), in
 * both entry spellings: ours (`match` + `fault`) and the Python
 * mcp-cassette's (`target` + `type`/`params`).
 *
 * @module
 */
import { REPLAY_OPTIONS } from "../../src/options/replay.ts";
import { DIALECT, type JsonSchema, text } from "./common.ts";

const nonEmpty = (description: string): JsonSchema => ({
  type: "string",
  minLength: 1,
  description,
});

const target: JsonSchema = {
  type: "object",
  description:
    "Which matched requests the entry applies to; at least one of method, tool, prompt, uri or probability.",
  properties: {
    method: nonEmpty("The JSON-RPC method, e.g. tools/call; * matches any run of characters."),
    tool: nonEmpty("A tools/call of this tool (params.name); * is a wildcard."),
    prompt: nonEmpty("A prompts/get of this prompt (params.name); * is a wildcard."),
    uri: nonEmpty("A resources/read, subscribe or unsubscribe of this URI; * is a wildcard."),
    nth: {
      description: 'Which occurrences, 1-based: 2, [1, 3, 5], or "every" (the default).',
      anyOf: [
        { type: "integer", minimum: 1 },
        { type: "array", items: { type: "integer", minimum: 1 } },
        { const: "every" },
      ],
    },
    probability: {
      type: "number",
      minimum: 0,
      maximum: 1,
      description: "The chance that each selected occurrence fires (seeded, repeatable).",
    },
  },
  anyOf: ["method", "tool", "prompt", "uri", "probability"].map((key) => ({ required: [key] })),
  additionalProperties: false,
};

const whole = (description: string): JsonSchema => ({ type: "integer", minimum: 0, description });

/** Each kind's own fields (besides `kind`). */
const KIND_FIELDS: Record<string, Record<string, JsonSchema>> = {
  delay: { ms: whole("How much later the answer comes, in ms.") },
  timeout: {},
  error: {
    code: { type: "integer", description: "The JSON-RPC error code." },
    message: text("The error message."),
    data: { description: "Any JSON, sent as the error's data." },
  },
  malformed: {
    strategy: {
      enum: ["truncate", "not_json", "wrong_id"],
      description: "How the answer is broken.",
    },
  },
  disconnect: {},
  "http-status": {
    status: { type: "integer", minimum: 100, maximum: 599, description: "The HTTP status." },
    headers: {
      type: "object",
      description: "Response headers (numbers are sent as text).",
      additionalProperties: { type: ["string", "number"] },
    },
    body: text("The response body (default: empty)."),
  },
  "sse-drop": {
    afterEvents: whole("The SSE stream closes after this many events."),
    after_events: whole("Same as afterEvents."),
    after: whole("Same as afterEvents."),
  },
};

const ALIASES: Record<string, string> = { http_status: "http-status", sse_drop: "sse-drop" };

const REQUIRED: Record<string, string[]> = {
  delay: ["ms"],
  error: ["code", "message"],
  malformed: ["strategy"],
  "http-status": ["status"],
};

function kindNames(kind: string): string[] {
  return [kind, ...Object.keys(ALIASES).filter((alias) => ALIASES[alias] === kind)];
}

/** Our fault object of one kind. */
function ourFault(kind: string): JsonSchema {
  return {
    type: "object",
    properties: { kind: { enum: kindNames(kind) }, ...KIND_FIELDS[kind] },
    required: ["kind", ...(REQUIRED[kind] ?? [])],
    additionalProperties: false,
  };
}

/** The Python spelling: `type` names the kind, `params` holds its fields. */
function pythonFault(kind: string): JsonSchema {
  return {
    properties: {
      type: { enum: kindNames(kind) },
      params: {
        type: "object",
        properties: KIND_FIELDS[kind],
        ...(REQUIRED[kind] ? { required: REQUIRED[kind] } : {}),
        additionalProperties: false,
      },
    },
    required: ["type", ...(REQUIRED[kind] ? ["params"] : [])],
  };
}

const fault: JsonSchema = {
  description: "What to do to the answer; a list applies several faults in order.",
  anyOf: [
    { $ref: "#/$defs/fault" },
    { type: "array", items: { $ref: "#/$defs/fault" } },
  ],
};

const python: JsonSchema = { oneOf: Object.keys(KIND_FIELDS).map(pythonFault) };

const entry: JsonSchema = {
  type: "object",
  properties: {
    name: nonEmpty("Shown in reports, and keys the entry's dice."),
    description: text("Free text, ignored."),
    comment: text("Free text, ignored."),
    match: { $ref: "#/$defs/target" },
    target: { $ref: "#/$defs/target" },
    fault,
    type: {
      enum: Object.keys(KIND_FIELDS).flatMap(kindNames),
      description: "The fault kind, in the Python mcp-cassette's spelling of an entry.",
    },
    params: { type: "object", description: "The kind's fields, in the Python spelling." },
  },
  oneOf: [
    {
      required: ["match", "fault"],
      not: { anyOf: [{ required: ["target"] }, { required: ["type"] }, { required: ["params"] }] },
    },
    {
      required: ["target", "fault"],
      not: { anyOf: [{ required: ["match"] }, { required: ["type"] }, { required: ["params"] }] },
    },
    {
      required: ["target"],
      not: { anyOf: [{ required: ["match"] }, { required: ["fault"] }] },
      $ref: "#/$defs/python",
    },
    {
      required: ["match"],
      not: { anyOf: [{ required: ["target"] }, { required: ["fault"] }] },
      $ref: "#/$defs/python",
    },
  ],
  additionalProperties: false,
};

/** The schema of a fault overlay. */
export function faultsSchema(): JsonSchema {
  return {
    $schema: DIALECT,
    title: "mcp-cassette fault overlay",
    description:
      `${REPLAY_OPTIONS.faults.description}: faults replay injects into matched answers. See docs/faults.md.`,
    anyOf: [
      {
        type: "object",
        properties: {
          $schema: text("The JSON Schema of this file (for editors; ignored)."),
          faults: {
            type: "array",
            items: entry,
            description: "The entries, applied in this order.",
          },
          seed: {
            type: "integer",
            description: `Seed for probability targets; ${REPLAY_OPTIONS.seed.description}.`
              .replace(
                "(overrides the file's)",
                "(replay --seed overrides it)",
              ),
          },
          description: text("Free text, ignored."),
          comment: text("Free text, ignored."),
        },
        required: ["faults"],
        additionalProperties: false,
      },
      { type: "array", items: { $ref: "#/$defs/entry" }, description: "A bare list of entries." },
    ],
    $defs: {
      target,
      fault: { oneOf: Object.keys(KIND_FIELDS).map(ourFault) },
      python,
      entry,
    },
  };
}
