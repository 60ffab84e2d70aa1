/**
 * Fault overlays for replay: load a JSON/JSONC file that says which matched
 * requests get delayed, errored, broken or dropped, and an injector the
 * replay engine asks once per matched request. Also replay pacing.
 *
 * @example
 * ```ts
 * import { createFaultInjector, faultSubjectFromRequest, loadFaultOverlay } from "./src/faults/mod.ts";
 *
 * const overlay = await loadFaultOverlay("faults.jsonc");
 * const injector = createFaultInjector(overlay, { seed: 7 });
 * const faults = injector.faultsFor(faultSubjectFromRequest(request));
 * // ... apply them; at the end:
 * for (const line of injector.unfired()) console.error(line);
 * ```
 *
 * @module
 */
export type {
  Fault,
  FaultEntry,
  FaultInjector,
  FaultMatch,
  FaultOverlay,
  FaultSubject,
  NthSelector,
} from "./types.ts";
export { loadFaultOverlay, NAMED_TARGET_METHODS, parseFaultOverlay } from "./overlay.ts";
export { FaultOverlayError } from "./overlay_fields.ts";
export { createFaultInjector, DEFAULT_FAULT_SEED, parseFaultSeed } from "./injector.ts";
export type { FaultInjectorOptions, OverlayFaultInjector } from "./injector.ts";
export {
  describeFaultEntry,
  faultSubjectFromRequest,
  matchesPattern,
  matchesSubject,
} from "./match.ts";
export { dryRunFaults, recordedRequests } from "./dry_run.ts";
export type { DryRunHit, DryRunResult } from "./dry_run.ts";
export { DEFAULT_PACE_CAP_MS, DEFAULT_PACING, pacedDelay, parsePacing } from "./pacing.ts";
export type { PacingOptions } from "./pacing.ts";
export { entryRandom, mulberry32 } from "./prng.ts";
export type { Random } from "./prng.ts";
