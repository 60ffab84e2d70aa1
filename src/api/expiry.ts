/**
 * Expiry for the library and the test helpers: before a cassette is
 * replayed, its age is checked against `maxAge`. `warn` prints one line,
 * `fail` throws {@linkcode ExpiredError} (exit 8), and `rerecord` in mode
 * `once` records the cassette anew into a file beside it, renamed over the
 * old one only when the recording ended well: a failed re-recording leaves
 * the previous cassette as it was.
 *
 * @module
 */
import path from "node:path";
import { readCassetteLines } from "../cassette/reader.ts";
import { UsageError } from "../errors/errors.ts";
import { enforceExpiry, expiryOf, parseDuration, parseOnExpired } from "../modes/expiry.ts";
import type { OnExpired } from "../modes/expiry.ts";
import type { ModeAction, RecordMode } from "../modes/mode.ts";
import { runtime } from "../runtime/mod.ts";
import { checkTarget } from "../files/safe_write.ts";

/** What expiry decided for one start. */
export interface ExpiryPlan {
  action: ModeAction;
  /** Where the recorder writes: the cassette, or (re-recording) a file beside it. */
  output: string;
}

/** The header's `created`, read from line 1 alone. */
async function createdOf(cassette: string): Promise<string> {
  for await (const line of readCassetteLines(cassette)) {
    if (line.kind === "header") return line.header.created;
    break;
  }
  return "";
}

/**
 * Applies `maxAge`/`onExpired` to a start whose mode chose `action`. Bad
 * values throw {@linkcode UsageError} before anything runs.
 */
export async function planExpiry(
  cassette: string,
  mode: RecordMode,
  action: ModeAction,
  options: { maxAge?: string; onExpired?: OnExpired | string; server?: string[] },
): Promise<ExpiryPlan> {
  const plan = { action, output: cassette };
  if (options.maxAge === undefined) {
    if (options.onExpired !== undefined) throw new UsageError("onExpired needs maxAge");
    return plan;
  }
  const maxAgeMs = parseDuration(String(options.maxAge), "maxAge");
  const onExpired = parseOnExpired(String(options.onExpired ?? "warn"), "onExpired");
  if (action === "record") return plan;
  const expiry = expiryOf(cassette, await createdOf(cassette), maxAgeMs);
  if (expiry && onExpired === "rerecord" && mode === "once" && action === "replay") {
    if ((options.server ?? []).length === 0) {
      throw new UsageError(`${expiry.message}: onExpired "rerecord" needs the live \`server\``);
    }
    const base = path.basename(cassette);
    const output = path.join(path.dirname(cassette), `.${base}.rerecord-${runtime.pid()}.tmp`);
    runtime.writeStderr(`mcp-cassette: ${expiry.message}; recording it anew\n`);
    return { action: "record", output };
  }
  const choice = onExpired === "rerecord" ? "warn" : onExpired;
  enforceExpiry(expiry, choice, (line) => runtime.writeStderr(`mcp-cassette: ${line}\n`));
  return plan;
}

/**
 * After the launches of a re-recording: a whole new cassette (every launch
 * exited 0, the file is there) replaces the old one in one rename; anything
 * else removes the new file and keeps the old.
 */
export async function settleRerecord(
  plan: ExpiryPlan,
  cassette: string,
  codes: (number | undefined)[],
): Promise<void> {
  if (plan.output === cassette) return;
  const whole = codes.length > 0 && codes.every((code) => code === 0) &&
    (await runtime.stat(plan.output))?.isFile === true;
  if (!whole) return await runtime.remove(plan.output).catch(() => {});
  // A link at the cassette's path is refused, never written through.
  await checkTarget(cassette, { what: "the cassette" });
  await runtime.rename(plan.output, cassette);
}
