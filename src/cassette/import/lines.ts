/**
 * Reading another tool's file a chunk at a time: its JSONL lines parsed as
 * they complete, or, for the formats that are one JSON document, the text
 * gathered whole (such a document cannot be parsed in pieces anyway).
 *
 * @module
 */
import { CassetteFormatError } from "../../errors.ts";
import { LineSplitter } from "../../framing/jsonl.ts";
import type { JsonObject } from "../../jsonrpc.ts";
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
export type Chunks = ReadableStreamDefaultReader<string>;

/** Parses each line as it completes, skipping blanks. */
export async function collectJsonLines(
  path: string,
  first: string,
  rest: Chunks,
): Promise<JsonLines> {
  const splitter = new LineSplitter();
  const lines: JsonLine[] = [];
  let number = 0;
  const take = (text: string) => {
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
    lines.push({ line: number, value });
  };
  for (let chunk: string | undefined = first; chunk !== undefined; chunk = await next(rest)) {
    for (const text of splitter.pushText(chunk)) take(text);
  }
  const { lines: held, rest: unterminated } = splitter.end();
  for (const text of held) take(text);
  if (unterminated === undefined) return { lines };
  const last = splitter.finish(unterminated);
  try {
    take(last);
  } catch (error) {
    // Only a last line with no newline may be torn, and only after a first line.
    const unparsable = error instanceof CassetteFormatError &&
      error.problem.startsWith("not valid JSON");
    if (lines.length === 0 || !unparsable) throw error;
    return { lines, torn: { line: number, text: last } };
  }
  return { lines };
}

/** The whole text of a one-document file. */
export async function collectText(first: string, rest: Chunks): Promise<string> {
  const parts = [first];
  for (let chunk = await next(rest); chunk !== undefined; chunk = await next(rest)) {
    parts.push(chunk);
  }
  return parts.join("");
}

/** The next chunk, or undefined at the end. */
export async function next(reader: Chunks): Promise<string | undefined> {
  const { done, value } = await reader.read();
  return done ? undefined : value;
}
