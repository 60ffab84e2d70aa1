/**
 * Conversion of other tools' cassette formats into ours: the Python
 * mcp-cassette's JSON (`format_version` 1–3), mcp-recorder's JSON
 * (`"version": "1.x"`), the TypeScript mcp-cassette's JSONL
 * (`cassetteVersion` 1–2), mcp-replay's JSONL (`mcp-replay/cassette@1`),
 * mcp-vcr's NDJSON and mcp-rec's JSONL. The format is told from the first
 * chunk of the file, and the file is read as a stream: a file of no known
 * format is refused after that chunk. docs/cassette-format.md says what maps
 * to what.
 *
 * @module
 */
import { CassetteFormatError } from "../errors/errors.ts";
import { openCassetteHead } from "./open.ts";
import type { CassetteHead } from "./open.ts";
import { finishHeader } from "./import/common.ts";
import type { Converted, ImportedCassette } from "./import/common.ts";
import { detectLayout, EXPECTED } from "./import/detect.ts";
import { collectJsonLines, collectText, firstPart } from "./import/lines.ts";
import type { Chunks } from "./import/lines.ts";
import { convertPython, isPythonCassette } from "./import/python.ts";
import { convertMcpRecorder, isMcpRecorderCassette } from "./import/mcp_recorder.ts";
import { convertTypeScript, isTypeScriptHeader } from "./import/typescript.ts";
import { convertMcpReplay, isMcpReplayHeader } from "./import/mcp_replay.ts";
import { convertMcpVcr, isMcpVcrMeta } from "./import/mcp_vcr.ts";
import { convertMcpRec, isMcpRecLine } from "./import/mcp_rec.ts";

type Result = Converted & { torn?: ImportedCassette["torn"] };

async function convertDocument(path: string, first: string, rest: Chunks): Promise<Result> {
  const text = await collectText(first, rest);
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    throw new CassetteFormatError(path, 0, `not valid JSON (${(error as Error).message})`);
  }
  if (isPythonCassette(document)) return convertPython(path, text, document);
  if (isMcpRecorderCassette(document)) return convertMcpRecorder(path, text, document);
  throw new CassetteFormatError(path, 1, EXPECTED);
}

async function convertLines(path: string, first: string, rest: Chunks): Promise<Result> {
  const { lines, torn } = await collectJsonLines(path, first, rest);
  const head = lines[0]?.value;
  if (!head) throw new CassetteFormatError(path, 1, EXPECTED);
  if (isTypeScriptHeader(head)) return { ...convertTypeScript(path, lines), torn };
  if (isMcpReplayHeader(head)) return { ...convertMcpReplay(path, lines), torn };
  if (isMcpVcrMeta(head)) return { ...convertMcpVcr(path, lines), torn };
  if (isMcpRecLine(head)) return { ...convertMcpRec(path, lines), torn };
  throw new CassetteFormatError(path, lines[0].line, EXPECTED);
}

/**
 * Converts a file written by another record/replay tool; throws when the
 * format is unknown. `head`, the start of the file a caller already opened
 * and read, is read on from, so the file is opened once; a file of no known
 * format is refused from the head alone when line 1 is whole in it.
 */
export async function importForeign(
  path: string,
  head?: CassetteHead<string>,
): Promise<ImportedCassette> {
  const given = head !== undefined;
  head ??= await openCassetteHead(path);
  const reader = head.rest;
  let converted: Result;
  try {
    // A head without a newline may stop inside line 1: firstPart reads on.
    if (given && head.text.includes("\n")) detectLayout(path, head.text);
    const first = await firstPart(reader, head.text);
    converted = detectLayout(path, first) === "document"
      ? await convertDocument(path, first, reader)
      : await convertLines(path, first, reader);
  } catch (error) {
    if (error instanceof CassetteFormatError) throw error;
    throw new CassetteFormatError(path, 0, `cannot read the file: ${(error as Error).message}`);
  } finally {
    reader.cancel().catch(() => {});
  }
  const cassette: ImportedCassette = {
    path,
    header: finishHeader(converted),
    entries: converted.entries,
    importedFrom: converted.source,
  };
  if (converted.torn) cassette.torn = converted.torn;
  return cassette;
}
