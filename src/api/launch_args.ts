/**
 * The command line a library start hands the client: what follows
 * mcp-cassette itself for a recording, a replay, or a replay that appends.
 *
 * @module
 */
import type { MatchMode } from "../replay/options.ts";
import type { ModeAction, RecordMode } from "../modes/mode.ts";
import { parseIgnorePaths } from "../match/ignore_paths.ts";
import { UsageError } from "../errors/errors.ts";
import { readSecrets } from "../secrets/env.ts";

/** What the client is to run after mcp-cassette itself: record, replay or replay appending. */
export function launchArgs(
  action: ModeAction,
  launch: {
    cassette: string;
    mode: RecordMode;
    group: string;
    runLog: string;
    recordArgs: string[];
    replay: string[];
    server: string[];
    /** Spy mode: a replay whose misses go to `server`, or to `liveUrl` when given. */
    spy?: boolean;
    liveUrl?: string;
  },
): string[] {
  const { cassette, mode, group, runLog, recordArgs, replay, server } = launch;
  if (action === "record") {
    const flags = ["-o", cassette, "--mode", mode, "--group", group, "--run-log", runLog];
    return ["record", ...flags, ...recordArgs, "--", ...server];
  }
  if (action === "replay-append") {
    const flags = ["--new-episodes", "--group", group, "--run-log", runLog];
    return ["replay", cassette, ...flags, ...replay, "--", ...server];
  }
  const to = launch.liveUrl === undefined ? ["--", ...server] : ["--url", launch.liveUrl];
  const live = launch.spy ? ["--on-miss", "live", ...to] : [];
  // --control: the launch's side channel, which startCassette's `control` steers (src/api/steer.ts).
  return ["replay", cassette, "--run-log", runLog, "--control", ...replay, ...live];
}

/** The replay flags for the match options. */
export function matchArgs(options: { match?: MatchMode; matchIgnore?: string[] }): string[] {
  const args = options.match === "lenient" ? ["--lenient"] : [];
  // A bad path fails here, not in the child.
  for (const ignored of parseIgnorePaths(options.matchIgnore ?? [], "matchIgnore")) {
    args.push("--match-ignore", ignored.text);
  }
  return args;
}

/**
 * Whether a start is a spy-mode replay (`onMiss: "live"` on a cassette the
 * mode replays); a bad `onMiss`, `live` with no server command nor
 * `liveUrl`, or a `liveUrl` without `live`, is a UsageError.
 */
export function spyMode(
  onMiss: string | undefined,
  action: ModeAction,
  server: string[],
  liveUrl?: string,
): boolean {
  if (onMiss !== undefined && onMiss !== "error" && onMiss !== "live") {
    throw new UsageError(`onMiss must be "error" or "live", not ${JSON.stringify(onMiss)}`);
  }
  if (liveUrl !== undefined && onMiss !== "live") {
    throw new UsageError(`liveUrl goes with onMiss "live"`);
  }
  if (liveUrl !== undefined && !/^https?:\/\//i.test(liveUrl)) {
    // Not quoted: the URL may hold a token.
    throw new UsageError("liveUrl must be an http:// or https:// URL");
  }
  const spy = onMiss === "live" && action === "replay";
  if (spy && server.length === 0 && liveUrl === undefined) {
    throw new UsageError(
      `onMiss "live" needs the live server command as \`server\` (or its URL as \`liveUrl\`)`,
    );
  }
  return spy;
}

/**
 * The recorder's `--secret-env` flags; a name that is not set stops a start
 * that records (a UsageError naming it) before the client runs anything.
 */
export function secretArgs(names: string[] | undefined, action: ModeAction): string[] {
  if (!names || names.length === 0) return [];
  if (action === "record") readSecrets(names, "secretEnv");
  return names.flatMap((name) => ["--secret-env", name]);
}
