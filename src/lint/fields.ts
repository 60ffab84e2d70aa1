/**
 * Everything the server said, cut into named text fields ("surfaces") that
 * rules aim at: `tool.description`, `tool.input-schema`, `tool.result`, …
 *
 * @module
 */
import type { Json, JsonObject } from "../jsonrpc/messages.ts";
import type { Exchange, LocatedMessage } from "../surface/mod.ts";
import { pairMessages, pointerToken } from "../surface/mod.ts";
import { isObject } from "../util/helpers.ts";

/** The field ids a rule's `surface` may name (or match with `*`). */
export const SURFACES: readonly string[] = [
  "tool.name",
  "tool.title",
  "tool.description",
  "tool.input-schema",
  "tool.output-schema",
  "tool.result",
  "prompt.name",
  "prompt.title",
  "prompt.description",
  "prompt.arguments",
  "prompt.result",
  "resource.name",
  "resource.title",
  "resource.description",
  "resource.content",
  "template.name",
  "template.title",
  "template.description",
  "server.instructions",
  "server.other",
];

/** One piece of server text with its place in the cassette. */
export interface TextField {
  field: string;
  text: string;
  line: number;
  pointer: string;
  /** What the text belongs to, e.g. `tool "echo"`. */
  subject: string;
}

/** Keys whose values are binary payloads or plumbing, never prose. */
const SKIPPED_KEYS = new Set(["data", "blob", "mimeType", "type", "jsonrpc", "$schema", "_meta"]);

/**
 * Calls `visit` on every string under `value` except binary payloads, in
 * document order. With a stack of its own, not recursion: a value as deep as
 * the reader accepts must not overflow the call stack.
 */
export function walkStrings(
  value: Json | undefined,
  pointer: string,
  visit: (text: string, pointer: string) => void,
): void {
  const stack: [Json | undefined, string][] = [[value, pointer]];
  while (stack.length > 0) {
    const [item, here] = stack.pop()!;
    if (typeof item === "string") visit(item, here);
    else if (Array.isArray(item)) {
      for (let i = item.length - 1; i >= 0; i--) stack.push([item[i], `${here}/${i}`]);
    } else if (isObject(item)) {
      const entries = Object.entries(item);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, child] = entries[i];
        if (!SKIPPED_KEYS.has(key)) stack.push([child, `${here}/${pointerToken(key)}`]);
      }
    }
  }
}

/** Strings in a JSON schema that a model reads: descriptions, titles, enum values, defaults, examples, property names. */
function walkSchema(
  schema: Json | undefined,
  pointer: string,
  visit: (text: string, pointer: string) => void,
): void {
  if (Array.isArray(schema)) {
    schema.forEach((item, i) => walkSchema(item, `${pointer}/${i}`, visit));
    return;
  }
  if (!isObject(schema)) return;
  for (const [key, value] of Object.entries(schema)) {
    const here = `${pointer}/${pointerToken(key)}`;
    if ((key === "description" || key === "title") && typeof value === "string") visit(value, here);
    else if (key === "enum" || key === "examples" || key === "const" || key === "default") {
      walkStrings(value, here, visit);
    } else if (
      (key === "properties" || key === "patternProperties" || key === "$defs" ||
        key === "definitions") && isObject(value)
    ) {
      for (const [name, sub] of Object.entries(value)) {
        const subPointer = `${here}/${pointerToken(name)}`;
        visit(name, subPointer);
        walkSchema(sub, subPointer, visit);
      }
    } else if (typeof value === "object" && value !== null) walkSchema(value, here, visit);
  }
}

type Add = (field: string, text: string, pointer: string) => void;

function listedItems(
  kind: string,
  items: Json | undefined,
  base: string,
  line: number,
  out: TextField[],
) {
  if (!Array.isArray(items)) return;
  items.forEach((item, i) => {
    if (!isObject(item)) return;
    const key = kind === "resource" ? item.uri : kind === "template" ? item.uriTemplate : item.name;
    const subject = `${kind} ${JSON.stringify(typeof key === "string" ? key : i)}`;
    const at = `${base}/${i}`;
    const add: Add = (field, text, pointer) => out.push({ field, text, line, pointer, subject });
    if (typeof item.name === "string") add(`${kind}.name`, item.name, `${at}/name`);
    if (typeof item.title === "string") add(`${kind}.title`, item.title, `${at}/title`);
    if (typeof item.description === "string") {
      add(`${kind}.description`, item.description, `${at}/description`);
    }
    if (kind === "tool") {
      walkSchema(
        item.inputSchema,
        `${at}/inputSchema`,
        (text, pointer) => add("tool.input-schema", text, pointer),
      );
      walkSchema(
        item.outputSchema,
        `${at}/outputSchema`,
        (text, pointer) => add("tool.output-schema", text, pointer),
      );
    }
    if (kind === "prompt") {
      walkStrings(
        item.arguments,
        `${at}/arguments`,
        (text, pointer) => add("prompt.arguments", text, pointer),
      );
    }
  });
}

function subjectOfRequest(request: LocatedMessage): string {
  const params = (request.msg as JsonObject).params;
  const name = isObject(params) ? params.name ?? params.uri : undefined;
  return typeof name === "string"
    ? `${request.method} ${JSON.stringify(name)}`
    : request.method ?? "request";
}

/** The text fields of the answer to a client request (the exchange has its response). */
export function answerFields(exchange: Exchange, out: TextField[]): void {
  const response = exchange.response!;
  const method = exchange.request.method ?? "";
  const msg = response.msg as JsonObject;
  const base = response.pointer;
  const line = response.line;
  const result = msg.result;
  const subject = subjectOfRequest(exchange.request);
  const addAll = (field: string, value: Json | undefined, pointer: string) =>
    walkStrings(
      value,
      pointer,
      (text, at) => out.push({ field, text, line, pointer: at, subject }),
    );
  if (response.kind === "error") {
    addAll(method === "tools/call" ? "tool.result" : "server.other", msg.error, `${base}/error`);
    return;
  }
  if (!isObject(result)) return;
  switch (method) {
    case "initialize":
    case "server/discover":
      if (typeof result.instructions === "string") {
        out.push({
          field: "server.instructions",
          text: result.instructions,
          line,
          pointer: `${base}/result/instructions`,
          subject: "server",
        });
      }
      return;
    case "tools/list":
      return listedItems("tool", result.tools, `${base}/result/tools`, line, out);
    case "prompts/list":
      return listedItems("prompt", result.prompts, `${base}/result/prompts`, line, out);
    case "resources/list":
      return listedItems("resource", result.resources, `${base}/result/resources`, line, out);
    case "resources/templates/list":
      return listedItems(
        "template",
        result.resourceTemplates,
        `${base}/result/resourceTemplates`,
        line,
        out,
      );
    case "tools/call":
      return addAll("tool.result", result, `${base}/result`);
    case "prompts/get":
      return addAll("prompt.result", result, `${base}/result`);
    case "resources/read":
      return addAll("resource.content", result, `${base}/result`);
    default:
      return addAll("server.other", result, `${base}/result`);
  }
}

/** The text fields of a server-to-client message that answers no client request. */
export function messageFields(message: LocatedMessage, out: TextField[]): void {
  const subject = message.method ?? "message";
  walkStrings(message.msg, message.pointer, (text, pointer) => {
    // The method name itself is protocol, not prose.
    if (pointer !== `${message.pointer}/method`) {
      out.push({ field: "server.other", text, line: message.line, pointer, subject });
    }
  });
}

/** Cuts every server-to-client message into text fields. */
export function collectFields(messages: readonly LocatedMessage[]): TextField[] {
  const out: TextField[] = [];
  const answered = new Set<LocatedMessage>();
  for (const exchange of pairMessages(messages).exchanges) {
    if (exchange.request.dir === "c2s" && exchange.response) {
      answered.add(exchange.response);
      answerFields(exchange, out);
    }
  }
  for (const message of messages) {
    if (message.dir === "s2c" && !answered.has(message)) messageFields(message, out);
  }
  return out;
}

/** True when a surface selector (`tool.description`, `tool.*`, `*.name`, `*`) matches a field id. */
export function selectorMatches(selector: string, field: string): boolean {
  if (selector === field || selector === "*") return true;
  if (!selector.includes("*")) return false;
  const pattern = new RegExp(
    `^${
      selector.split("*").map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&")).join("[^.]*")
    }$`,
  );
  return pattern.test(field);
}

/** True when a selector matches at least one known field id. */
export function isKnownSelector(selector: string): boolean {
  return SURFACES.some((field) => selectorMatches(selector, field));
}
