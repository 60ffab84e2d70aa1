/**
 * Replay pacing: answer at once, or keep the recorded gaps (scaled, capped).
 * The engine adds any `delay` fault on top of {@linkcode pacedDelay}.
 *
 * @module
 */
import { UsageError } from "../errors/errors.ts";

/** How replay spaces its answers. */
export interface PacingOptions {
  /** `instant`: no waiting; `recorded`: wait the recorded gap. */
  mode: "instant" | "recorded";
  /** Multiplies recorded gaps (0.5 = twice as fast). */
  scale: number;
  /** Longest single wait in milliseconds; 0 means no cap. */
  capMs: number;
}

/** The default cap on one recorded gap, so a recording with a long pause does not stall a test. */
export const DEFAULT_PACE_CAP_MS = 5000;

/** Pacing when no flag is given. */
export const DEFAULT_PACING: Readonly<PacingOptions> = {
  mode: "instant",
  scale: 1,
  capMs: DEFAULT_PACE_CAP_MS,
};

function parseScale(text: string): number {
  const scale = /^\s*(\d+(\.\d*)?|\.\d+)\s*$/.test(text) ? Number(text) : NaN;
  if (!(scale > 0) || !Number.isFinite(scale)) {
    throw new UsageError(
      `--pace-scale must be a number greater than 0, got ${JSON.stringify(text)}`,
    );
  }
  return scale;
}

function parseCap(text: string): number {
  const cap = /^\s*\d+\s*$/.test(text) ? Number(text) : NaN;
  if (!Number.isSafeInteger(cap)) {
    throw new UsageError(
      `--pace-cap-ms must be a whole number of milliseconds (0 = no cap), got ${
        JSON.stringify(text)
      }`,
    );
  }
  return cap;
}

/**
 * Reads the `--pace`, `--pace-scale` and `--pace-cap-ms` flag values.
 * Giving a scale or cap without `--pace` implies `recorded`; giving one
 * with `--pace instant` is a mistake worth telling about.
 *
 * @example
 * ```ts
 * parsePacing({ pace: "recorded", paceScale: "0.5" }); // { mode: "recorded", scale: 0.5, capMs: 5000 }
 * parsePacing({}); // { mode: "instant", scale: 1, capMs: 5000 }
 * ```
 */
export function parsePacing(
  values: { pace?: string; paceScale?: string; paceCapMs?: string },
): PacingOptions {
  const tuned = values.paceScale !== undefined || values.paceCapMs !== undefined;
  let mode: PacingOptions["mode"];
  if (values.pace === undefined) mode = tuned ? "recorded" : "instant";
  else if (values.pace === "instant" || values.pace === "recorded") mode = values.pace;
  else {throw new UsageError(
      `--pace must be "recorded" or "instant", got ${JSON.stringify(values.pace)}`,
    );}
  if (mode === "instant" && tuned) {
    const flag = values.paceScale !== undefined ? "--pace-scale" : "--pace-cap-ms";
    throw new UsageError(`${flag} has no effect with --pace instant (use --pace recorded)`);
  }
  return {
    mode,
    scale: values.paceScale === undefined ? 1 : parseScale(values.paceScale),
    capMs: values.paceCapMs === undefined ? DEFAULT_PACE_CAP_MS : parseCap(values.paceCapMs),
  };
}

/**
 * Milliseconds to wait before sending an answer whose recorded gap (since
 * the request, or the previous frame) was `recordedGapMs`: 0 when instant,
 * else gap × scale, capped. Negative or non-finite gaps count as 0.
 *
 * @example
 * ```ts
 * pacedDelay(8000, { mode: "recorded", scale: 1, capMs: 5000 }); // 5000
 * pacedDelay(300, { mode: "recorded", scale: 2, capMs: 0 }); // 600
 * ```
 */
export function pacedDelay(recordedGapMs: number, options: PacingOptions): number {
  if (options.mode === "instant" || !(recordedGapMs > 0) || !Number.isFinite(recordedGapMs)) {
    return 0;
  }
  const scaled = recordedGapMs * options.scale;
  return options.capMs > 0 ? Math.min(scaled, options.capMs) : scaled;
}
