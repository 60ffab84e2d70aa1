/**
 * The step kinds of a playbook and what each sends. A step is an object
 * with exactly one kind key (`{"call": "echo", "arguments": {...}}`), a few
 * fields of its kind, and the fields every step may carry (`label`,
 * `timeoutMs`, `expectError`). docs/playbooks.md lists them.
 *
 * @module
 */
import type { JsonObject } from "../jsonrpc/messages.ts";
import { asJson, needString, optionalObject } from "./fields.ts";
import { isObject } from "../util/helpers.ts";
import type { Fail } from "./fields.ts";

/** A step that sends a request and waits for its answer. */
export interface RequestStep {
  kind: "request";
  /** How reports name the step: `call echo`, `list tools`. */
  label: string;
  method: string;
  params?: JsonObject;
  /** For `list`: the result key of the items; the pages are followed by `nextCursor`. */
  pages?: string;
  /** The step passes only when the server answers with an error. */
  expectError: boolean;
  timeoutMs?: number;
}

/** A step that sends a notification. */
export interface NotifyStep {
  kind: "notify";
  label: string;
  method: string;
  params?: JsonObject;
}

/** A pause, for notifications the server sends in its own time. */
export interface WaitStep {
  kind: "wait";
  label: string;
  ms: number;
}

/** One parsed step. */
export type PlaybookStep = RequestStep | NotifyStep | WaitStep;

type Fields = Record<string, unknown>;
interface Kind {
  /** Fields of this kind besides its key and the common ones. */
  extra: readonly string[];
  build(value: unknown, fields: Fields, fail: Fail): PlaybookStep;
}

const COMMON = ["label", "timeoutMs", "expectError"];

const LISTS: Record<string, { method: string; key: string }> = {
  tools: { method: "tools/list", key: "tools" },
  resources: { method: "resources/list", key: "resources" },
  templates: { method: "resources/templates/list", key: "resourceTemplates" },
  resourceTemplates: { method: "resources/templates/list", key: "resourceTemplates" },
  prompts: { method: "prompts/list", key: "prompts" },
};

function request(label: string, method: string, params?: JsonObject): PlaybookStep {
  return { kind: "request", label, method, ...(params ? { params } : {}), expectError: false };
}

/** A step that names a tool or prompt, with optional `arguments`. */
function named(method: string, key: string) {
  return (value: unknown, fields: Fields, fail: Fail): PlaybookStep => {
    const name = needString(value, `"${key}"`, fail);
    const args = optionalObject(fields.arguments, `"arguments"`, fail);
    return request(`${key} ${name}`, method, { name, ...(args ? { arguments: args } : {}) });
  };
}

/** A step that names a resource by its URI. */
function byUri(method: string, key: string) {
  return (value: unknown, _fields: Fields, fail: Fail): PlaybookStep => {
    const uri = needString(value, `"${key}"`, fail);
    return request(`${key} ${uri}`, method, { uri });
  };
}

function completeRef(value: unknown, fail: Fail): JsonObject {
  if (isObject(value) && typeof value.prompt === "string" && Object.keys(value).length === 1) {
    return { type: "ref/prompt", name: value.prompt };
  }
  if (isObject(value) && typeof value.resource === "string" && Object.keys(value).length === 1) {
    return { type: "ref/resource", uri: value.resource };
  }
  return fail(`"complete" must be {"prompt": NAME} or {"resource": URI_TEMPLATE}`);
}

const KINDS: Record<string, Kind> = {
  call: { extra: ["arguments"], build: named("tools/call", "call") },
  read: { extra: [], build: byUri("resources/read", "read") },
  prompt: { extra: ["arguments"], build: named("prompts/get", "prompt") },
  complete: {
    extra: ["argument", "context"],
    build(value, fields, fail) {
      const ref = completeRef(value, fail);
      const argument = fields.argument;
      if (
        !isObject(argument) || typeof argument.name !== "string" ||
        typeof argument.value !== "string"
      ) fail(`"argument" must be {"name": NAME, "value": TEXT}`);
      const context = optionalObject(fields.context, `"context"`, fail);
      const params: JsonObject = { ref, argument: asJson(argument, "argument", fail) };
      if (context) params.context = context;
      return request(`complete ${ref.name ?? ref.uri}`, "completion/complete", params);
    },
  },
  list: {
    extra: [],
    build(value, _fields, fail) {
      const list = typeof value === "string" && Object.hasOwn(LISTS, value)
        ? LISTS[value]
        : fail(`"list" must be one of ${Object.keys(LISTS).join(", ")}`);
      return { ...request(`list ${value}`, list.method), pages: list.key } as RequestStep;
    },
  },
  ping: { extra: [], build: () => request("ping", "ping") },
  subscribe: { extra: [], build: byUri("resources/subscribe", "subscribe") },
  unsubscribe: { extra: [], build: byUri("resources/unsubscribe", "unsubscribe") },
  logLevel: {
    extra: [],
    build: (value, _fields, fail) =>
      request(`logLevel ${value}`, "logging/setLevel", {
        level: needString(value, `"logLevel"`, fail),
      }),
  },
  request: {
    extra: ["params"],
    build(value, fields, fail) {
      const method = needString(value, `"request"`, fail);
      return request(`request ${method}`, method, optionalObject(fields.params, `"params"`, fail));
    },
  },
  notify: {
    extra: ["params"],
    build(value, fields, fail) {
      const method = needString(value, `"notify"`, fail);
      const params = optionalObject(fields.params, `"params"`, fail);
      return { kind: "notify", label: `notify ${method}`, method, ...(params ? { params } : {}) };
    },
  },
  wait: {
    extra: [],
    build(value, _fields, fail) {
      if (typeof value !== "number" || !(value >= 0)) {
        fail(`"wait" must be a number of milliseconds`);
      }
      return { kind: "wait", label: `wait ${value} ms`, ms: value as number };
    },
  },
};

/** The step kinds, in the order the docs list them. */
export const STEP_KINDS: readonly string[] = Object.keys(KINDS);

function commonFields(step: PlaybookStep, fields: Fields, fail: Fail): PlaybookStep {
  if (fields.label !== undefined) step.label = needString(fields.label, `"label"`, fail);
  if (step.kind !== "request") {
    if (fields.expectError !== undefined || fields.timeoutMs !== undefined) {
      fail(`"expectError" and "timeoutMs" belong to steps that wait for an answer`);
    }
    return step;
  }
  if (fields.expectError !== undefined) {
    if (typeof fields.expectError !== "boolean") fail(`"expectError" must be true or false`);
    step.expectError = fields.expectError as boolean;
  }
  if (fields.timeoutMs !== undefined) {
    const ms = fields.timeoutMs;
    if (typeof ms !== "number" || !Number.isInteger(ms) || ms <= 0) {
      fail(`"timeoutMs" must be a positive whole number`);
    }
    step.timeoutMs = ms as number;
  }
  return step;
}

/** Parses one step; `fail` already names the step. */
export function parseStep(value: unknown, fail: Fail): PlaybookStep {
  if (!isObject(value)) return fail(`a step is an object such as {"call": "echo"}`);
  const kinds = Object.keys(value).filter((key) =>
    !COMMON.includes(key) && Object.hasOwn(KINDS, key)
  );
  if (kinds.length === 0) {
    const other = Object.keys(value).find((key) => !COMMON.includes(key));
    return fail(
      `${other ? `unknown step kind "${other}"` : "no step kind"} (known: ${
        STEP_KINDS.join(", ")
      })`,
    );
  }
  if (kinds.length > 1) fail(`one step kind per step, not ${kinds.join(" and ")}`);
  const kind = KINDS[kinds[0]];
  for (const key of Object.keys(value)) {
    if (key !== kinds[0] && !COMMON.includes(key) && !kind.extra.includes(key)) {
      fail(
        `unknown field "${key}" for a ${kinds[0]} step (known: ${
          [...kind.extra, ...COMMON].join(", ")
        })`,
      );
    }
  }
  return commonFields(kind.build(value[kinds[0]], value, fail), value, fail);
}
