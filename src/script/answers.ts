/**
 * The answers a playbook gives to the server's own requests: sampling
 * (`sampling/createMessage`), elicitation (`elicitation/create`) and roots
 * (`roots/list`). Each of sampling and elicitation is one answer or a list
 * used in turn (the last one repeating); an answer may be an error.
 *
 * @module
 */
import type { ServerRequestAnswer, ServerRequestHandler } from "../client/connection.ts";
import { defaultServerRequestAnswer } from "../client/connection.ts";
import { ErrorCode } from "../jsonrpc/messages.ts";
import type { JsonObject } from "../jsonrpc/messages.ts";
import { asJson } from "./fields.ts";
import { isObject } from "../util/helpers.ts";
import type { Fail } from "./fields.ts";

/** The parsed answers, by the method they answer. */
export interface PlaybookAnswers {
  sampling?: ServerRequestAnswer[];
  elicitation?: ServerRequestAnswer[];
  roots?: ServerRequestAnswer[];
}

const METHODS = {
  sampling: "sampling/createMessage",
  elicitation: "elicitation/create",
  roots: "roots/list",
} as const;

/** The model name a sampling answer given as plain text carries. */
export const PLAYBOOK_MODEL = "mcp-cassette-playbook";

function oneAnswer(key: keyof PlaybookAnswers, value: unknown, where: string, fail: Fail) {
  if (key === "sampling" && typeof value === "string") {
    return {
      result: { model: PLAYBOOK_MODEL, role: "assistant", content: { type: "text", text: value } },
    };
  }
  if (!isObject(value)) {
    return fail(`${where} must be an object${key === "sampling" ? " or a text" : ""}`);
  }
  if (value.error !== undefined) {
    const error = value.error;
    if (!isObject(error) || typeof error.code !== "number" || typeof error.message !== "string") {
      fail(`${where}.error must be {"code": NUMBER, "message": TEXT}`);
    }
    return { error: asJson(error, `${where}.error`, fail) as ServerRequestAnswer & JsonObject };
  }
  return { result: asJson(value, where, fail) as JsonObject };
}

/** Parses the `answers` table; absent means the client answers nothing but ping. */
export function parseAnswers(value: unknown, fail: Fail): PlaybookAnswers {
  if (value === undefined) return {};
  if (!isObject(value)) return fail(`"answers" must be an object`);
  const answers: PlaybookAnswers = {};
  for (const [key, given] of Object.entries(value)) {
    if (!Object.hasOwn(METHODS, key)) {
      fail(`unknown field "answers.${key}" (known: ${Object.keys(METHODS).join(", ")})`);
    }
    const name = key as keyof PlaybookAnswers;
    const where = `"answers.${key}"`;
    if (name === "roots") {
      // A list of roots is the one answer; a table is a whole result or an error.
      answers.roots = [
        Array.isArray(given)
          ? { result: { roots: asJson(given, where, fail) } }
          : oneAnswer(name, given, where, fail) as ServerRequestAnswer,
      ];
      continue;
    }
    const list = Array.isArray(given) ? given : [given];
    if (list.length === 0) fail(`${where} is an empty list`);
    answers[name] = list.map((item, i) =>
      oneAnswer(
        name,
        item,
        Array.isArray(given) ? `${where}[${i}]` : where,
        fail,
      ) as ServerRequestAnswer
    );
  }
  return answers;
}

/** Answers the server's requests from the playbook, each list in turn, the last repeating. */
export function answerServerRequests(answers: PlaybookAnswers): ServerRequestHandler {
  const used = new Map<string, number>();
  return (request) => {
    const key = (Object.keys(METHODS) as (keyof PlaybookAnswers)[]).find((name) =>
      METHODS[name] === request.method
    );
    const list = key ? answers[key] : undefined;
    if (!list) {
      if (request.method === "ping") return defaultServerRequestAnswer("ping");
      return {
        error: {
          code: ErrorCode.MethodNotFound,
          message: `the playbook has no answer for ${request.method}`,
        },
      };
    }
    const turn = used.get(request.method) ?? 0;
    used.set(request.method, turn + 1);
    return list[Math.min(turn, list.length - 1)];
  };
}
