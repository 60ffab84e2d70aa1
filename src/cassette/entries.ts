/**
 * A cassette fed to a consumer one line at a time, for the tools that
 * summarise a file (lint, inspect, diff): they keep what they need across
 * lines and let each entry go, so a large cassette is never held whole.
 * One of ours is streamed; another tool's file is converted whole first (the
 * converters work on whole files, and such files are small).
 *
 * @module
 */
import { CassetteFormatError } from "../errors.ts";
import type { CassetteHeader } from "./format.ts";
import { FORMAT_NAME } from "./format.ts";
import { lineBatches, loadCassette, readCassetteLines } from "./reader.ts";
import type { Cassette, LocatedEntry } from "./reader.ts";

/** What a consumer learns before the first entry. */
export interface CassetteStart {
  path: string;
  header: CassetteHeader;
  /** Set when the file was converted from another tool's format. */
  importedFrom?: string;
}

/** Something fed a cassette line by line. */
export interface CassetteSink {
  /** Called once, before any entry. */
  start(start: CassetteStart): void;
  /** Each entry in file order; the sink must not keep `entry` itself. */
  entry(entry: LocatedEntry): void;
  /** A last line cut short by a crash. */
  torn(torn: { line: number; text: string }): void;
}

/** Feeds a cassette already in memory. */
export function feedCassette(cassette: Cassette, sink: CassetteSink): void {
  const start: CassetteStart = { path: cassette.path, header: cassette.header };
  if (cassette.importedFrom) start.importedFrom = cassette.importedFrom;
  sink.start(start);
  for (const entry of cassette.entries) sink.entry(entry);
  if (cassette.torn) sink.torn(cassette.torn);
}

/** Thrown from the first chunk to stop reading once it has told what it had to. */
class Verdict extends Error {
  constructor(readonly ours: boolean) {
    super("verdict");
  }
}

/**
 * Whether the file's first chunk can start one of our cassettes (the test
 * loadCassette makes before it sends a file to the converters).
 */
async function looksOurs(path: string): Promise<boolean> {
  const judge = (chunk: string) => {
    const start = chunk.search(/[^\s\uFEFF]/);
    if (start === -1) throw new Verdict(true); // blank: the reader says what is wrong
    const end = chunk.indexOf("\n", start);
    const line = chunk.slice(start, end === -1 ? chunk.length : end);
    throw new Verdict(
      chunk[start] === "{" && line.includes(`"${FORMAT_NAME}"`) && line.includes('"format"'),
    );
  };
  try {
    for await (const _ of lineBatches(path, undefined, judge)) break;
  } catch (error) {
    if (error instanceof Verdict) return error.ours;
    throw error;
  }
  return true; // empty: the reader reports it
}

/**
 * Streams the cassette at `path` into `sink`: our own format line by line,
 * another tool's converted first. Errors are the ones loadCassette throws.
 */
export async function streamCassette(path: string, sink: CassetteSink): Promise<void> {
  let ours: boolean;
  try {
    ours = await looksOurs(path);
  } catch {
    ours = true; // unreadable: the reader below names the problem
  }
  if (!ours) return feedCassette(await loadCassette(path), sink);
  let started = false;
  try {
    for await (const item of readCassetteLines(path)) {
      if (item.kind === "header") {
        sink.start({ path, header: item.header });
        started = true;
      } else if (item.kind === "entry") {
        sink.entry(Object.assign(item.entry, { line: item.line }));
      } else sink.torn({ line: item.line, text: item.text });
    }
  } catch (error) {
    // A first line that only looked like ours: let loadCassette decide (it converts or refuses).
    if (started || !(error instanceof CassetteFormatError) || error.line !== 1) throw error;
    return feedCassette(await loadCassette(path), sink);
  }
}
