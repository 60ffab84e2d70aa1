/**
 * Conversion as the file is read, for `import`: the formats whose lines
 * convert one by one (mcp-rec, mcp-vcr) are written out as they come, after
 * the few entries up to the handshake's answer (the header takes the server
 * and era from it). The others are converted whole: the Python tool's and
 * mcp-recorder's files are one JSON document, the TypeScript tool's and
 * mcp-replay's entries are sorted (by time, by sequence number) before they
 * can be written.
 *
 * @module
 */
import { CassetteFormatError } from "../../errors/errors.ts";
import type { CassetteHeader } from "../format.ts";
import { importForeign } from "../import.ts";
import { openCassetteHead } from "../open.ts";
import { HandshakeWatch, headerOf } from "./common.ts";
import type { LocatedEntry } from "./common.ts";
import { detectLayout, EXPECTED } from "./detect.ts";
import { firstPart, jsonLineBatches } from "./lines.ts";
import type { Chunks, JsonLine } from "./lines.ts";
import { isMcpRecLine, McpRecConverter } from "./mcp_rec.ts";
import { isMcpVcrMeta, McpVcrConverter } from "./mcp_vcr.ts";

/** What {@linkcode convertForeign} yields: the header first, then entries, then a torn line if any. */
export type ForeignItem =
  | { kind: "header"; header: CassetteHeader; source: string }
  | { kind: "entry"; entry: LocatedEntry }
  | { kind: "torn"; line: number; text: string };

/** The line-by-line converters. */
type Converter = McpRecConverter | McpVcrConverter;

/** Thrown inside to fall back to the whole-file conversion. */
class Whole extends Error {
  constructor() {
    super("converted whole");
  }
}

function converterFor(path: string, first: JsonLine): Converter {
  if (isMcpVcrMeta(first.value)) return new McpVcrConverter(path, first.value);
  if (isMcpRecLine(first.value)) return new McpRecConverter(path, first.value);
  throw new Whole();
}

/**
 * Converts another tool's file as it is read: the same header and entries
 * as {@linkcode importForeign}, holding only the entries before the
 * handshake's answer for the formats that convert line by line.
 */
export async function* convertForeign(path: string): AsyncGenerator<ForeignItem> {
  const head = await openCassetteHead(path);
  const reader = head.rest;
  let whole = false;
  try {
    const first = await firstPart(reader, head.text);
    if (detectLayout(path, first) === "document") whole = true;
    else yield* convertLines(path, first, reader);
  } catch (error) {
    if (error instanceof Whole) whole = true;
    else if (error instanceof CassetteFormatError) throw error;
    else {throw new CassetteFormatError(
        path,
        0,
        `cannot read the file: ${(error as Error).message}`,
      );}
  } finally {
    reader.cancel().catch(() => {});
  }
  if (!whole) return;
  const cassette = await importForeign(path);
  yield { kind: "header", header: cassette.header, source: cassette.importedFrom };
  for (const entry of cassette.entries) yield { kind: "entry", entry };
  if (cassette.torn) yield { kind: "torn", ...cassette.torn };
}

async function* convertLines(
  path: string,
  first: string,
  rest: Chunks,
): AsyncGenerator<ForeignItem> {
  let torn: { line: number; text: string } | undefined;
  let converter: Converter | undefined;
  const watch = new HandshakeWatch();
  let held: LocatedEntry[] | undefined = [];
  for await (const batch of jsonLineBatches(path, first, rest, (seen) => torn = seen)) {
    const out: ForeignItem[] = [];
    for (const line of batch) {
      if (!converter) {
        converter = converterFor(path, line);
        // mcp-rec's first line is a message; mcp-vcr's is its meta line.
        if (converter instanceof McpVcrConverter) continue;
      }
      const entry = converter.add(line.line, line.value);
      if (!entry) continue;
      if (!held) {
        out.push({ kind: "entry", entry });
        continue;
      }
      held.push(entry);
      if (!watch.see(entry)) continue;
      out.push(headerItem(converter, watch), ...held.map((entry) => entryItem(entry)));
      held = undefined;
    }
    yield* out;
  }
  if (!converter) throw new CassetteFormatError(path, 1, EXPECTED);
  if (held) yield* [headerItem(converter, watch), ...held.map((entry) => entryItem(entry))];
  if (torn) yield { kind: "torn", ...torn };
}

function headerItem(converter: Converter, watch: HandshakeWatch): ForeignItem {
  return {
    kind: "header",
    header: headerOf(converter.source, converter.header, watch.found ?? {}),
    source: converter.source,
  };
}

function entryItem(entry: LocatedEntry): ForeignItem {
  return { kind: "entry", entry };
}
