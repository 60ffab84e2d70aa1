/**
 * The build's identity. A new build of a server is expected to say a new
 * `serverInfo.version` in its initialize answer; grading that as a value
 * change failed every release that changed nothing else, so by default it
 * is information, shown with the exchange but not graded.
 *
 * @module
 */
import type { Regression } from "./compare.ts";

/** Where the initialize answer names the build. */
export const IDENTITY_PATHS: readonly string[] = ["$.result.serverInfo.version"];

/** An exchange's differences split into the graded ones and the information. */
export interface SplitDifferences {
  regressions: Regression[];
  info: Regression[];
}

/**
 * Moves a changed build version of an `initialize` answer from the
 * regressions to the information.
 *
 * @example
 * ```ts
 * splitIdentity("initialize", [{ kind: "value-change", path: "$.result.serverInfo.version", before: "1.0.0", after: "1.1.0" }]);
 * // { regressions: [], info: [ …the version change… ] }
 * ```
 */
export function splitIdentity(method: string, found: readonly Regression[]): SplitDifferences {
  if (method !== "initialize") return { regressions: [...found], info: [] };
  const isIdentity = (regression: Regression) =>
    regression.kind === "value-change" && IDENTITY_PATHS.includes(regression.path);
  return {
    regressions: found.filter((regression) => !isIdentity(regression)),
    info: found.filter(isIdentity),
  };
}
