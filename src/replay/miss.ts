/**
 * What a miss says: the diagnosis of its closest recording, the era hint,
 * and (./volatile_hint.ts) the `--match-ignore` flags when only
 * volatile-looking values differ; as the report's entry and the data of
 * the JSON-RPC error the client gets.
 *
 * @module
 */
import type { MissReport } from "../errors/errors.ts";
import type { MissDiagnosis } from "../match/diagnose.ts";
import type { RequestKey } from "../match/fingerprint.ts";
import { volatileHint, volatileIgnores } from "./volatile_hint.ts";

/** A miss as reported, and the `data` of its error answer. */
export interface DescribedMiss {
  report: MissReport;
  data: { closest: string | null; differs: string | null };
}

/** Builds the miss for `key` from its diagnosis; `eraText` is the era hint (or ""). */
export function describeMiss(
  diagnosis: MissDiagnosis & { closestLine?: number; closestParams?: unknown },
  key: RequestKey,
  eraText: string,
): DescribedMiss {
  const ignore = volatileIgnores(diagnosis, key.params);
  const report: MissReport = {
    method: key.method,
    message: diagnosis.message + eraText + volatileHint(ignore),
    closestLine: diagnosis.closestLine,
    path: diagnosis.differs,
    ignore: ignore.length > 0 ? ignore : undefined,
  };
  return {
    report,
    data: { closest: diagnosis.closest ?? null, differs: diagnosis.differs ?? null },
  };
}
