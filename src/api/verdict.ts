/**
 * The end-of-session verdict the library gives: misses fail, unplayed
 * recordings fail when asked to.
 *
 * @module
 */
import { ReplayMissError } from "../errors.ts";
import type { MissReport } from "../errors.ts";

/** Throws {@linkcode ReplayMissError} for misses, or for unplayed recordings when `failOnUnplayed`. */
export function checkReport(
  misses: MissReport[],
  unplayed: string[],
  failOnUnplayed: boolean,
): void {
  if (misses.length > 0) throw new ReplayMissError(misses, unplayed);
  if (failOnUnplayed && unplayed.length > 0) throw new ReplayMissError([], unplayed);
}
