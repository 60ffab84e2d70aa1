/**
 * A cassette fed to a consumer one line at a time, for the tools that
 * summarise a file (lint, inspect, diff): they keep what they need across
 * lines and let each entry go, so a large cassette is never held whole.
 * One of ours is streamed; another tool's file is converted whole first (the
 * converters work on whole files, and such files are small).
 *
 * @module
 */
import type { CassetteHeader } from "./format.ts";
import { streamCassette } from "./reader.ts";
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

/**
 * Streams the cassette at `path` into `sink` through the reader's
 * {@linkcode streamCassette}: our own format a batch of lines at a time,
 * another tool's converted first. Errors are the ones loadCassette throws.
 */
export async function feedCassetteFile(path: string, sink: CassetteSink): Promise<void> {
  const stream = await streamCassette(path);
  const start: CassetteStart = { path: stream.path, header: stream.header };
  if (stream.importedFrom) start.importedFrom = stream.importedFrom;
  sink.start(start);
  for await (const batch of stream.batches) for (const entry of batch) sink.entry(entry);
  if (stream.torn) sink.torn(stream.torn);
}
