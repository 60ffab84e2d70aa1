/**
 * Where this folder's modules live, for finding the CLI entry beside them
 * (node_compat.ts). A module of its own so that the npm package's CommonJS build
 * (scripts/build_npm.ts), where `import.meta` does not exist, can replace
 * just this file with one that points at the ES module copy.
 *
 * @module
 */

/** The URL of this module: `…/src/runtime/module_url.ts` from source, `.js` in the npm package. */
export const RUNTIME_MODULE_URL: string = (import.meta as unknown as { url: string }).url;
