/**
 * The cassette the reports name, for `runs` without `--cassette`: a report
 * names it by the SHA-256 of its first line and by its path (as the replay
 * was given it, and made absolute). The path is tried as resolved, then as
 * given; a file that is gone, or whose first line no longer has the hash,
 * is one line naming the report, the path and what is wrong.
 *
 * @module
 */
import { ReportError } from "../view/reports.ts";
import { readRecorded } from "./drift.ts";
import type { RecordedArguments } from "./drift.ts";
import type { Run } from "./read.ts";
import { runtime } from "../runtime/mod.ts";

/** The first run that names its cassette by path, with the file found for it. */
async function locate(runs: readonly Run[]): Promise<{ run: Run; file: string } | undefined> {
  const run = runs.find((run) => run.cassettePath !== undefined);
  if (!run) return undefined;
  const { given, resolved } = run.cassettePath!;
  for (const candidate of [resolved, given]) {
    if (candidate === undefined) continue;
    const info = await runtime.stat(candidate).catch(() => undefined);
    if (info?.isFile) return { run, file: candidate };
  }
  throw new ReportError(
    run.file,
    `names the cassette ${
      resolved ?? given
    }, which is gone (no such file); give it with --cassette`,
  );
}

/**
 * The recorded arguments of the cassette the reports name, and its path;
 * a reason instead when no report names one by path. Throws a
 * {@linkcode ReportError} when the named file is gone, cannot be read, or
 * is not the cassette the report was written for.
 */
export async function namedRecorded(
  runs: readonly Run[],
): Promise<{ recorded: RecordedArguments | string; path?: string }> {
  const found = await locate(runs);
  if (!found) {
    return {
      recorded: "no --cassette given, and no report names its cassette's path " +
        "(an older report names it only by the hash of its first line)",
    };
  }
  const { run, file } = found;
  const recorded = await readRecorded(file);
  if (typeof recorded === "string") {
    throw new ReportError(run.file, `names the cassette ${file}: ${recorded}`);
  }
  if (run.cassette !== undefined && recorded.headerSha256 !== run.cassette) {
    throw new ReportError(
      run.file,
      `names the cassette ${file}, whose first line no longer has the SHA-256 the report holds ` +
        `(${run.cassette.slice(0, 12)}…, the file's is ${recorded.headerSha256.slice(0, 12)}…): ` +
        "give the cassette it replayed with --cassette",
    );
  }
  return { recorded, path: file };
}
