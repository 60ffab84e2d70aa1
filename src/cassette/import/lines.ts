/**
 * Reading another tool's file a chunk at a time: its JSONL lines parsed as
 * they complete, or, for the formats that are one JSON document, the text
 * gathered whole (such a document cannot be parsed in pieces anyway).
 *
 * @module
 */
import { CassetteFormatError } from "../../errors/errors.ts";
import { LineSplitter } from "../../framing/jsonl.ts";
import type { JsonObject } from "../../jsonrpc/messages.ts";
import { objectOrUndefined } from "./common.ts";

/** One parsed line of a JSONL file, with its line number. */
export interface JsonLine {
  line: number;
  value: JsonObject;
}

/** The lines of a JSONL file; a torn last line is reported, not fatal. */
export interface JsonLines {
  lines: JsonLine[];
  torn?: { line: number; text: string };
}

/** The rest of a file as chunks of text, after the one already read. */
export type Chunks = Pick<ReadableStreamDefaultReader<string>, "read">;

/** Parses each line as it completes, skipping blanks. */
export async function collectJsonLines(
  path: string,
  first: string,
  rest: Chunks,
): Promise<JsonLines> {
  const lines: JsonLine[] = [];
  const result: JsonLines = { lines };
  for await (const batch of jsonLineBatches(path, first, rest, (torn) => result.torn = torn)) {
    lines.push(...batch);
  }
  return result;
}

/**
 * The lines parsed a chunk's worth at a time, so that a converter can write
 * them out as they come; `onTorn` hears of an unparsable last line with no
 * newline (after a first line), which is reported, not fatal.
 */
export async function* jsonLineBatches(
  path: string,
  first: string,
  rest: Chunks,
  onTorn: (torn: { line: number; text: string }) => void,
): AsyncGenerator<JsonLine[]> {
  const splitter = new LineSplitter();
  let number = 0;
  let any = false;
  const take = (text: string, into: JsonLine[]) => {
    number++;
    if (text.trim() === "") return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      throw new CassetteFormatError(path, number, `not valid JSON (${(error as Error).message})`);
    }
    const value = objectOrUndefined(parsed);
    if (!value) throw new CassetteFormatError(path, number, "each line must be a JSON object");
    into.push({ line: number, value });
    any = true;
  };
  for (let chunk: string | undefined = first; chunk !== undefined; chunk = await next(rest)) {
    const batch: JsonLine[] = [];
    for (const text of splitter.pushText(chunk)) take(text, batch);
    if (batch.length > 0) yield batch;
  }
  const { lines: held, rest: unterminated } = splitter.end();
  const batch: JsonLine[] = [];
  for (const text of held) take(text, batch);
  if (unterminated !== undefined) {
    const last = splitter.finish(unterminated);
    const before = any;
    try {
      take(last, batch);
    } catch (error) {
      // Only a last line with no newline may be torn, and only after a first line.
      const unparsable = error instanceof CassetteFormatError &&
        error.problem.startsWith("not valid JSON");
      if (!before || !unparsable) throw error;
      onTorn({ line: number, text: last });
    }
  }
  if (batch.length > 0) yield batch;
}

/** The whole text of a one-document file. */
export async function collectText(first: string, rest: Chunks): Promise<string> {
  const parts = [first];
  for (let chunk = await next(rest); chunk !== undefined; chunk = await next(rest)) {
    parts.push(chunk);
  }
  return parts.join("");
}

/**
 * The start of the file for telling its format: at least 64 KiB (where a
 * document's own keys are), and on to the first newline, up to 1 MiB (a
 * one-line document, a long first line); `start` is what was read already.
 */
export async function firstPart(reader: Chunks, start = ""): Promise<string> {
  let text = start;
  while ((text.length < 64 << 10 || !text.includes("\n")) && text.length < 1 << 20) {
    const chunk = await next(reader);
    if (chunk === undefined) break;
    text += chunk;
  }
  return text;
}

/** The next chunk, or undefined at the end. */
export async function next(reader: Chunks): Promise<string | undefined> {
  const { done, value } = await reader.read();
  return done ? undefined : value;
}
