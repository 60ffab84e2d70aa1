/**
 * Conversion of other tools' cassette formats into ours: the Python
 * mcp-cassette's JSON (`format_version` 1–3), the TypeScript mcp-cassette's
 * JSONL (`cassetteVersion` 1–2) and mcp-replay's JSONL
 * (`mcp-replay/cassette@1`). docs/import.md says what maps to what.
 *
 * @module
 */
import { CassetteFormatError } from "../errors.ts";
import type { JsonObject } from "../jsonrpc.ts";
import { runtime } from "../runtime/mod.ts";
import type { Cassette } from "./reader.ts";
import { asObject, finishHeader } from "./import/common.ts";
import type { Converted } from "./import/common.ts";
import { convertPython, isPythonCassette } from "./import/python.ts";
import { convertTypeScript, isTypeScriptHeader } from "./import/typescript.ts";
import { convertMcpReplay, isMcpReplayHeader } from "./import/mcp_replay.ts";

const EXPECTED = `not a cassette of any known format (expected an "mcp-cassette" header line, ` +
  `a Python mcp-cassette JSON document with "format_version" and "messages", ` +
  `a TypeScript mcp-cassette "cassetteVersion" header, or an "mcp-replay/cassette@1" header)`;

async function readText(path: string): Promise<string> {
  try {
    return await runtime.readTextFile(path);
  } catch (error) {
    const code = (error as { code?: string }).code;
    const problem = code === "ENOENT" || error instanceof Error && error.name === "NotFound"
      ? "no such file"
      : code === "EISDIR" || error instanceof Error && error.name === "IsADirectory"
      ? "is a directory"
      : (error as Error).message;
    throw new CassetteFormatError(path, 0, `cannot read the file: ${problem}`);
  }
}

/** Parses JSONL lines, skipping blanks; a torn last line is reported, not fatal. */
function parseLines(path: string, text: string): {
  lines: { line: number; value: JsonObject }[];
  torn?: { line: number; text: string };
} {
  const raw = text.split("\n");
  const lines: { line: number; value: JsonObject }[] = [];
  let torn: { line: number; text: string } | undefined;
  for (let i = 0; i < raw.length; i++) {
    const source = raw[i].replace(/\r$/, "");
    if (source.trim() === "") continue;
    try {
      const value = asObject(JSON.parse(source));
      if (!value) throw new CassetteFormatError(path, i + 1, "each line must be a JSON object");
      lines.push({ line: i + 1, value });
    } catch (error) {
      if (error instanceof CassetteFormatError) throw error;
      const isLast = i === raw.length - 1 && !text.endsWith("\n");
      if (isLast && lines.length > 0) {
        torn = { line: i + 1, text: source };
        continue;
      }
      throw new CassetteFormatError(path, i + 1, `not valid JSON (${(error as Error).message})`);
    }
  }
  return { lines, torn };
}

/** Recognises the format of a foreign file's text and converts it. */
export function convertForeignText(
  path: string,
  text: string,
): Converted & { torn?: Cassette["torn"] } {
  if (text.trim() === "") {
    throw new CassetteFormatError(path, 1, "the file is empty (expected a cassette header)");
  }
  const trimmed = text.trimStart();
  if (trimmed.startsWith("{") && !/^\{[^\n]*\}\s*\n\s*\{/.test(trimmed)) {
    // One JSON document (the Python tool's), unless it is one-object-a-line JSONL.
    let document: unknown;
    try {
      document = JSON.parse(text);
    } catch {
      document = undefined;
    }
    if (isPythonCassette(document)) return convertPython(path, text, document);
  }
  const { lines, torn } = parseLines(path, text);
  if (lines.length === 0) throw new CassetteFormatError(path, 1, EXPECTED);
  const first = lines[0];
  if (isTypeScriptHeader(first.value)) return { ...convertTypeScript(path, lines), torn };
  if (isMcpReplayHeader(first.value)) return { ...convertMcpReplay(path, lines), torn };
  throw new CassetteFormatError(path, 1, EXPECTED);
}

/** Converts a file written by another record/replay tool; throws when the format is unknown. */
export async function importForeign(path: string): Promise<Cassette> {
  const converted = convertForeignText(path, await readText(path));
  const cassette: Cassette = {
    path,
    header: finishHeader(converted),
    entries: converted.entries,
    importedFrom: converted.source,
  };
  if (converted.torn) cassette.torn = converted.torn;
  return cassette;
}
