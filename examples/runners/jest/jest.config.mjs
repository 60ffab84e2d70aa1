/**
 * jest set-up for the example: plain ES modules, no transform, run with
 * `node --experimental-vm-modules` (jest's ESM support, which the library's
 * top-level await needs).
 *
 * In a project that installed `@mcp-cassette/mcp-cassette` from npm, its `/testing`
 * entry resolves on its own and `moduleNameMapper` is not needed. This repository
 * does not install itself, so the mapping points the import at a build made
 * by `scripts/build_npm.ts`: MCP_CASSETTE_NPM_DIR if set, else `npm/`.
 */
import path from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const packageDir = process.env.MCP_CASSETTE_NPM_DIR ?? path.join(here, "..", "..", "..", "npm");

export default {
  rootDir: here,
  testEnvironment: "node",
  testMatch: ["<rootDir>/*.test.mjs"],
  transform: {},
  watchman: false,
  moduleNameMapper: {
    "^@mcp-cassette/mcp-cassette/testing$": path.join(packageDir, "src", "testing", "mod.js"),
  },
};
