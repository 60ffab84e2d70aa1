/**
 * The error classes mcp-cassette raises, and the CLI's exit codes.
 *
 * @module
 */
import { visible } from "../text/visible.ts";

/** Exit codes of the `mcp-cassette` command, documented in docs/cli.md. */
export const ExitCode = {
  Ok: 0,
  /** A check failed, or a verify gate was not met. */
  Failed: 1,
  /** Bad input: a flag, a file, a cassette, a config. */
  BadInput: 2,
  /** Replay saw a request it had no recording for. */
  ReplayMiss: 3,
  /** A gate found something: lint findings, secrets on scan. */
  Findings: 4,
  /** `diff` found the server surface moved. */
  SurfaceChanged: 5,
  /** Another writer holds the cassette's claim. */
  Claimed: 6,
  /** The server could not be started or reached. */
  Unreachable: 7,
  /** The cassette is older than `--max-age` and `--on-expired fail` refused it. */
  Expired: 8,
  /** A file could not be written (a full disk, a read-only folder); what was written is whole. */
  WriteFailed: 9,
} as const;

/**
 * Base class of every error mcp-cassette raises on purpose. Its message
 * shows control characters as escapes (src/text/visible.ts): it often
 * quotes a cassette or a client, and a test runner prints it as it is.
 */
export class CassetteError extends Error {
  /** The exit code the CLI uses for this error. */
  exitCode: number = ExitCode.BadInput;
  /**
   * True once the message was printed as it happened (a recorder that kept
   * the session going after a failed write): the CLI then only exits.
   */
  reported = false;
  constructor(message: string, options?: ErrorOptions) {
    super(visible(message), options);
    this.name = new.target.name;
  }
}

/** A cassette file that cannot be read: names the file and line. */
export class CassetteFormatError extends CassetteError {
  constructor(readonly file: string, readonly line: number, readonly problem: string) {
    // Line 0 means the file as a whole (it could not be opened or read).
    super(line > 0 ? `${file}:${line}: ${problem}` : `${file}: ${problem}`);
  }
}

/** Wrong command-line usage or a bad option value. */
export class UsageError extends CassetteError {}

/** A server command that could not start, or a URL that refused. */
export class ServerUnreachableError extends CassetteError {
  override exitCode: number = ExitCode.Unreachable;
}

/** A cassette older than its `--max-age`, refused by `--on-expired fail`. */
export class ExpiredError extends CassetteError {
  override exitCode: number = ExitCode.Expired;
}

/** A file that could not be written: names the file and the cause. */
export class WriteError extends CassetteError {
  override exitCode: number = ExitCode.WriteFailed;
}

/** A cassette already claimed by another writer. */
export class ClaimError extends CassetteError {
  override exitCode: number = ExitCode.Claimed;
}

/** One request replay could not answer. */
export interface MissReport {
  method: string;
  message: string;
  /** The cassette line of the closest recorded request, when there was one. */
  closestLine?: number;
  /** What differed from it: `method`, `name`, or a path inside the params. */
  path?: string;
  /** `--match-ignore` paths that would have matched it: it differed only in volatile-looking values. */
  ignore?: string[];
}

/** Raised when a replay session ends with misses (or, if asked, with unplayed recordings). */
export class ReplayMissError extends CassetteError {
  override exitCode: number = ExitCode.ReplayMiss;
  constructor(readonly misses: MissReport[], readonly unplayed: string[] = []) {
    super(
      misses.length > 0
        ? `Replay missed ${misses.length} request(s): ${
          misses.map((miss) => miss.message).join("; ")
        }`
        : `Replay left ${unplayed.length} recorded request(s) unplayed: ${unplayed.join(", ")}`,
    );
  }
}

/** Formats an unknown thrown value as one line. */
export function describeError(error: unknown): string {
  if (error instanceof Error) return error.message.split("\n")[0];
  return String(error);
}
