/**
 * The `replay` command's upkeep flags: `--max-age`/`--on-expired` (expiry),
 * `--on-miss live`/`--append` (spy mode) and `--learn-ignores`, turned into
 * the library's calls. Kept beside src/commands/replay.ts.
 *
 * @module
 */
import type { OptionValues } from "../cli/command.ts";
import { flag, stringOption } from "../cli/command.ts";
import type { CassetteHeader } from "../cassette/format.ts";
import { printErr } from "../cli/output.ts";
import { UsageError } from "../errors/errors.ts";
import { enforceExpiry, expiryOf, parseDuration, parseOnExpired } from "../modes/expiry.ts";
import type { ReplayReport } from "../replay/report.ts";

/** `--max-age` and `--on-expired` applied to the cassette about to be replayed. */
export function checkExpiry(
  values: OptionValues,
  log: (line: string) => void,
  header: CassetteHeader | undefined,
  path: string | undefined,
): void {
  const maxAge = stringOption(values, "max-age");
  const onExpired = stringOption(values, "on-expired");
  if (maxAge === undefined) {
    if (onExpired !== undefined) throw new UsageError("--on-expired needs --max-age");
    return;
  }
  const maxAgeMs = parseDuration(maxAge, "--max-age");
  const choice = parseOnExpired(onExpired ?? "warn", "--on-expired");
  if (choice === "rerecord") {
    throw new UsageError(
      "--on-expired rerecord is for the test helpers' once mode (replay cannot record): use warn or fail",
    );
  }
  if (!header || path === undefined) return;
  // Printed even with --quiet: an expired cassette is news the user asked for.
  enforceExpiry(expiryOf(path, header.created, maxAgeMs), choice, (line) => {
    log(line);
    if (flag(values, "quiet")) printErr(`mcp-cassette: ${line}`);
  });
}
/** `--on-miss live` (spy mode); `--append` without it is a usage error. */
export function spying(values: OptionValues): boolean {
  const live = stringOption(values, "on-miss") === "live";
  if (flag(values, "append") && !live) throw new UsageError("--append goes with --on-miss live");
  return live;
}
/**
 * `--learn-ignores`: the `--match-ignore` paths the misses suggested go into
 * `[replay] match-ignore` of the nearest mcp-cassette.toml.
 */
export async function learnFrom(report: ReplayReport, values: OptionValues): Promise<void> {
  if (!flag(values, "learn-ignores")) return;
  const paths = report.misses.flatMap((miss) => miss.ignore ?? []);
  if (paths.length === 0) return;
  const { learnIgnores } = await import(
    "../" + "config/learn.ts"
  ) as typeof import("../config/learn.ts");
  const learned = await learnIgnores(paths);
  if (!learned || learned.added.length === 0) return;
  const flags = learned.added.map((path) => `--match-ignore ${path}`).join(" ");
  printErr(`mcp-cassette: learned ${flags}: written under [replay] in ${learned.file}`);
}

/**
 * How a replay with extras talks to a live server: `spy` (`--on-miss
 * live`), `appending` (`--new-episodes`, or spy with `--append`), and `url`
 * (`--url`, a Streamable HTTP server in place of the command after `--`);
 * checks the live server goes with them, and that only spy mode (which
 * writes nothing) goes with `--listen`.
 */
export function liveFlags(
  values: OptionValues,
  command: string[],
): { spy: boolean; appending: boolean; url?: string } {
  const spy = spying(values);
  const appending = flag(values, "new-episodes") || (spy && flag(values, "append"));
  const url = stringOption(values, "url");
  if (url !== undefined && command.length > 0) {
    throw new UsageError("replay takes either --url or a server command after --, not both");
  }
  const live = command.length > 0 || url !== undefined;
  if (spy && !live) {
    throw new UsageError(
      "replay --on-miss live needs the live server command after -- (or --url URL)",
    );
  }
  if (appending && !live) {
    throw new UsageError(
      "replay --new-episodes needs the live server command after -- (or --url URL)",
    );
  }
  if (!appending && !spy && command.length > 0) {
    throw new UsageError(
      "replay takes a server command after -- only with --new-episodes or --on-miss live",
    );
  }
  if (!appending && !spy && url !== undefined) {
    throw new UsageError("replay --url goes with --on-miss live or --new-episodes");
  }
  // Spy mode writes nothing, so one live server can stand behind every HTTP session.
  if (stringOption(values, "listen") && (appending || stringOption(values, "run-log"))) {
    throw new UsageError(
      "--new-episodes, --append and --run-log work over stdio only, not with --listen",
    );
  }
  return { spy, appending, ...(url !== undefined ? { url } : {}) };
}
