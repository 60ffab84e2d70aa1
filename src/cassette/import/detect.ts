/**
 * Tells another tool's format from the first chunk of its file (up to
 * 1 MiB), so that a file of no known format (YAML, a binary, random bytes)
 * is refused before the rest is read.
 *
 * @module
 */
import { CassetteFormatError } from "../../errors/errors.ts";
import { objectOrUndefined } from "./common.ts";

/** The one line that says which formats are known. */
export const EXPECTED =
  `not a cassette of any known format (expected an "mcp-cassette" header line, ` +
  `a Python mcp-cassette JSON document with "format_version" and "messages", ` +
  `an mcp-recorder JSON document with "version" and "interactions", ` +
  `a TypeScript mcp-cassette "cassetteVersion" header, an "mcp-replay/cassette@1" header, ` +
  `an mcp-vcr NDJSON "_type": "meta" line (mcp-vcr record --format ndjson; its YAML is not read), ` +
  `or mcp-rec JSONL lines with "ts", "dir" and "msg")`;

/** How the rest of the file is read. */
export type Layout =
  /** One JSON document (Python mcp-cassette, mcp-recorder): read whole, then parsed. */
  | "document"
  /** One JSON object a line: parsed as the lines come. */
  | "lines";

/** Keys that only the one-document formats have near their start. */
const DOCUMENT_KEYS = /"(format_version|interactions)"\s*:/;

/**
 * The layout of a foreign file from its first chunk; throws the one-line
 * known-formats error when no format could start this way.
 */
export function detectLayout(path: string, first: string): Layout {
  const text = first.replace(/^\uFEFF/, "").trimStart();
  if (text === "") {
    throw new CassetteFormatError(path, 1, "the file is empty (expected a cassette header)");
  }
  // Every known format is JSON and starts with an object; line 1 of text is
  // line 1 of the file unless blank lines came first.
  const line = first.slice(0, first.length - text.length).split("\n").length;
  if (!text.startsWith("{")) throw new CassetteFormatError(path, line, EXPECTED);
  const end = text.indexOf("\n");
  if (end !== -1) {
    const firstLine = parseObject(text.slice(0, end));
    // A whole object on line 1 makes JSONL, unless it is a one-line document.
    if (firstLine) return isDocument(firstLine) ? "document" : "lines";
  } else if (parseObject(text)) {
    return isDocument(parseObject(text)!) ? "document" : "lines";
  }
  if (DOCUMENT_KEYS.test(text)) return "document";
  throw new CassetteFormatError(path, line, EXPECTED);
}

function parseObject(text: string) {
  try {
    return objectOrUndefined(JSON.parse(text));
  } catch {
    return undefined;
  }
}

function isDocument(value: Record<string, unknown>): boolean {
  return Array.isArray(value.messages) && "format_version" in value ||
    Array.isArray(value.interactions);
}
