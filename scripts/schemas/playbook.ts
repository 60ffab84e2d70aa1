/**
 * The JSON Schema of a playbook (`record --script`, `check --script`,
 * `verify --script`; docs/playbooks.md), for JSONC and TOML alike. The
 * checks in src/script/ stay the authority (the schema cannot say "exactly
 * one step kind" as clearly); this is what an editor needs to complete and
 * flag a playbook.
 *
 * @module
 */
import { SCRIPT_OPTIONS } from "../../src/options/shared.ts";
import { anyObject, DIALECT, type JsonSchema, text } from "./common.ts";

const answerError: JsonSchema = {
  type: "object",
  description: "Answer with a JSON-RPC error instead of a result.",
  properties: {
    error: {
      type: "object",
      properties: { code: { type: "number" }, message: { type: "string" }, data: {} },
      required: ["code", "message"],
    },
  },
  required: ["error"],
};

function answers(one: JsonSchema, description: string): JsonSchema {
  return {
    description,
    anyOf: [one, answerError, { type: "array", items: { anyOf: [one, answerError] } }],
  };
}

/** The fields every step may have. */
const COMMON: Record<string, JsonSchema> = {
  label: text("How the report names the step (default: `call echo`, `list tools`, …)."),
  timeoutMs: {
    type: "integer",
    exclusiveMinimum: 0,
    description: "How long to wait for this answer, in ms (default 10000).",
  },
  expectError: {
    type: "boolean",
    description: "The step passes only if the server answers with an error.",
  },
};

const completeRef: JsonSchema = {
  description: "What to complete: a prompt by name, or a resource template by URI.",
  oneOf: [
    { type: "object", properties: { prompt: { type: "string" } }, required: ["prompt"] },
    { type: "object", properties: { resource: { type: "string" } }, required: ["resource"] },
  ],
};

/** Each step kind: its key's value, and the other fields it takes. */
const KINDS: Record<string, { value: JsonSchema; extra?: Record<string, JsonSchema> }> = {
  call: {
    value: text("Sends tools/call of this tool."),
    extra: { arguments: anyObject("The tool's arguments.") },
  },
  read: { value: text("Sends resources/read of this URI.") },
  prompt: {
    value: text("Sends prompts/get of this prompt."),
    extra: { arguments: anyObject("The prompt's arguments.") },
  },
  complete: {
    value: completeRef,
    extra: {
      argument: {
        type: "object",
        description: "The argument being completed.",
        properties: { name: { type: "string" }, value: { type: "string" } },
        required: ["name", "value"],
      },
      context: anyObject("Completion context (the other arguments)."),
    },
  },
  list: {
    value: {
      enum: ["tools", "resources", "templates", "resourceTemplates", "prompts"],
      description: "Sends the list request, following nextCursor through every page.",
    },
  },
  ping: { value: { description: "Sends ping (the value is ignored; write true)." } },
  subscribe: { value: text("Sends resources/subscribe of this URI.") },
  unsubscribe: { value: text("Sends resources/unsubscribe of this URI.") },
  logLevel: { value: text("Sends logging/setLevel with this level.") },
  request: {
    value: text("Sends any request with this method."),
    extra: { params: anyObject("The request's params.") },
  },
  notify: {
    value: text("Sends a notification with this method."),
    extra: { params: anyObject("The notification's params.") },
  },
  wait: { value: { type: "number", minimum: 0, description: "Waits this many milliseconds." } },
};

/** A step of one kind: that kind's key is required, other kinds' keys are not allowed. */
function stepOf(kind: string): JsonSchema {
  const { value, extra = {} } = KINDS[kind];
  const waits = kind !== "notify" && kind !== "wait";
  const common = waits ? COMMON : { label: COMMON.label };
  return {
    type: "object",
    properties: { [kind]: value, ...extra, ...common },
    required: [kind],
    additionalProperties: false,
  };
}

/** The schema of a playbook. */
export function playbookSchema(): JsonSchema {
  return {
    $schema: DIALECT,
    title: "mcp-cassette playbook",
    description: `${SCRIPT_OPTIONS.script.description}. A scripted client session.`,
    type: "object",
    properties: {
      $schema: text("The JSON Schema of this file (for editors; ignored)."),
      client: {
        type: "object",
        description: "Who the client says it is (default: mcp-cassette-playbook 1.0.0).",
        properties: {
          name: { type: "string", minLength: 1 },
          version: { type: "string" },
          title: { type: "string" },
        },
        required: ["name"],
        additionalProperties: false,
      },
      capabilities: anyObject(
        "The capabilities the client declares (default: what the answers let it do).",
      ),
      protocolVersion: text("The protocol revision asked for, e.g. 2025-11-25."),
      answers: {
        type: "object",
        description: "What the client answers when the server asks.",
        properties: {
          sampling: answers(
            { anyOf: [{ type: "string" }, { type: "object" }] },
            "Answers sampling/createMessage: a text, a CreateMessageResult, or a list used in turn.",
          ),
          elicitation: answers(
            { type: "object" },
            'Answers elicitation/create: a result such as {"action": "accept"}, or a list.',
          ),
          roots: {
            description:
              "The roots roots/list returns: a list of roots, or a whole result or an error answer.",
            anyOf: [{ type: "array", items: { type: "object" } }, { type: "object" }],
          },
        },
        additionalProperties: false,
      },
      steps: {
        type: "array",
        minItems: 1,
        description: "The steps, in order; each is an object with exactly one kind key.",
        items: { oneOf: Object.keys(KINDS).map(stepOf) },
      },
    },
    required: ["steps"],
    additionalProperties: false,
  };
}
