/**
 * A playbook: a scripted client session in JSONC or TOML, for `record
 * --script`, `check --script` and `verify --script` (docs/playbooks.md).
 * Who the client is, what it can do, the steps it takes in order, and the
 * answers it gives when the server asks (sampling, elicitation, roots).
 *
 * @module
 */
import { CassetteError } from "../errors/errors.ts";
import type { JsonObject } from "../jsonrpc/messages.ts";
import { jsoncLocator, parseJsonc } from "../json/jsonc.ts";
import { runtime } from "../runtime/mod.ts";
import { isObject } from "../util/helpers.ts";
import type { Fail } from "./fields.ts";
import { parseStep } from "./steps.ts";
import type { PlaybookStep } from "./steps.ts";
import { parseAnswers } from "./answers.ts";
import type { PlaybookAnswers } from "./answers.ts";

export type { PlaybookStep } from "./steps.ts";
export type { PlaybookAnswers } from "./answers.ts";

/** A playbook that cannot be used: names the file and what is wrong with it. */
export class PlaybookError extends CassetteError {
  constructor(readonly file: string, problem: string) {
    super(`${file}: ${problem}`);
  }
}

/** A parsed playbook. */
export interface Playbook {
  /** The file it came from. */
  file: string;
  /** `clientInfo` of the handshake. */
  client: { name: string; version: string; title?: string };
  /** The client's capabilities; by default, what the answers make it able to do. */
  capabilities: JsonObject;
  /** The protocol revision asked for (default: our client's). */
  protocolVersion?: string;
  answers: PlaybookAnswers;
  steps: PlaybookStep[];
}

/**
 * The top-level fields. The first, `$schema`, points an editor at
 * schemas/playbook.schema.json: it is ignored, and messages leave it out.
 */
const TOP_KEYS = new Set([
  "$schema",
  "client",
  "capabilities",
  "protocolVersion",
  "answers",
  "steps",
]);

function parseText(text: string, file: string): Promise<unknown> | unknown {
  if (/\.toml$/i.test(file)) {
    return import("smol-toml").then(({ parse }) => {
      try {
        return parse(text);
      } catch (error) {
        const { message, line, column } = error as Error & { line?: number; column?: number };
        const where = line !== undefined ? `${file}:${line}:${column ?? 1}` : file;
        throw new PlaybookError(where, `not valid TOML: ${message.split("\n")[0]}`);
      }
    });
  }
  const parsed = parseJsonc(text);
  if (!parsed.ok) {
    throw new PlaybookError(
      `${file}:${parsed.line}:${parsed.column}`,
      `not valid JSON/JSONC (${parsed.problem})`,
    );
  }
  return parsed.value;
}

function parseClient(value: unknown, fail: Fail): Playbook["client"] {
  if (value === undefined) return { name: "mcp-cassette-playbook", version: "1.0.0" };
  if (!isObject(value) || typeof value.name !== "string" || value.name === "") {
    return fail(`"client" must be an object with a "name" string (and "version")`);
  }
  for (const key of Object.keys(value)) {
    if (!["name", "version", "title"].includes(key)) {
      fail(`unknown field "client.${key}" (known: name, version, title)`);
    }
  }
  if (value.version !== undefined && typeof value.version !== "string") {
    fail(`"client.version" must be a string`);
  }
  if (value.title !== undefined && typeof value.title !== "string") {
    fail(`"client.title" must be a string`);
  }
  return {
    name: value.name,
    version: typeof value.version === "string" ? value.version : "1.0.0",
    ...(typeof value.title === "string" ? { title: value.title } : {}),
  };
}

/** The capabilities a client needs to be asked what the answers answer. */
function capabilitiesFor(answers: PlaybookAnswers): JsonObject {
  const capabilities: JsonObject = {};
  if (answers.sampling) capabilities.sampling = {};
  if (answers.elicitation) capabilities.elicitation = {};
  if (answers.roots) capabilities.roots = { listChanged: true };
  return capabilities;
}

/** Where a value of the playbook is (`line:column`), by its path, when the format can tell. */
export type Locate = (path: (string | number)[]) => string | undefined;

/**
 * Checks an already parsed playbook document; `file` names it in messages,
 * with the line and column of the step at fault when `locate` knows them.
 */
export function playbookFrom(value: unknown, file: string, locate?: Locate): Playbook {
  const fail: Fail = (problem) => {
    throw new PlaybookError(file, problem);
  };
  const failAt = (path: (string | number)[]): Fail => (problem) => {
    const place = locate?.(path);
    throw new PlaybookError(place ? `${file}:${place}` : file, problem);
  };
  if (!isObject(value)) return fail(`a playbook is an object with "steps"`);
  for (const key of Object.keys(value)) {
    if (!TOP_KEYS.has(key)) {
      failAt([key])(`unknown field "${key}" (known: ${[...TOP_KEYS].slice(1).join(", ")})`);
    }
  }
  if (!Array.isArray(value.steps) || value.steps.length === 0) {
    fail(`"steps" must be a list of at least one step`);
  }
  const answers = parseAnswers(value.answers, fail);
  if (value.capabilities !== undefined && !isObject(value.capabilities)) {
    fail(`"capabilities" must be an object`);
  }
  if (value.protocolVersion !== undefined && typeof value.protocolVersion !== "string") {
    fail(`"protocolVersion" must be a string such as "2025-11-25"`);
  }
  const steps = (value.steps as unknown[]).map((step, index) =>
    parseStep(step, (problem) => failAt(["steps", index])(`steps[${index}]: ${problem}`))
  );
  return {
    file,
    client: parseClient(value.client, fail),
    capabilities: isObject(value.capabilities) ? value.capabilities : capabilitiesFor(answers),
    ...(typeof value.protocolVersion === "string"
      ? { protocolVersion: value.protocolVersion }
      : {}),
    answers,
    steps,
  };
}

/** Parses playbook text: TOML when `file` ends in `.toml`, else JSONC. */
export async function parsePlaybook(text: string, file: string): Promise<Playbook> {
  const fail: Fail = (problem) => {
    throw new PlaybookError(file, problem);
  };
  if (text.trim() === "") fail(`the playbook is empty (expected {"steps": [...]})`);
  const toml = /\.toml$/i.test(file);
  return playbookFrom(await parseText(text, file), file, toml ? undefined : jsoncLocator(text));
}

/** Reads and parses a playbook file. */
export async function loadPlaybook(file: string): Promise<Playbook> {
  let text: string;
  try {
    text = await runtime.readTextFile(file);
  } catch (error) {
    const code = (error as { code?: string }).code;
    const why = code === "ENOENT" || (error as Error).name === "NotFound"
      ? "no such file"
      : (error as Error).message.split("\n")[0];
    throw new PlaybookError(file, `cannot read the playbook: ${why}`);
  }
  return await parsePlaybook(text, file);
}
