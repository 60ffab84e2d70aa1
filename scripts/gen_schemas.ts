/**
 * Generates the JSON Schemas in `schemas/` (draft 2020-12): the config file
 * from the option schema (src/options/), playbooks, fault overlays and
 * cassette lines from their definitions in scripts/schemas/, which take
 * their shared descriptions from the option schema too.
 *
 * Usage: deno run -A scripts/gen_schemas.ts [--check]
 *   --check  write nothing; exit 1 when a file in schemas/ is not what it would write
 *
 * @module
 */
import * as fs from "node:fs";
import path from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import type { JsonSchema } from "./schemas/common.ts";
import { cassetteLineSchema } from "./schemas/cassette.ts";
import { configSchema } from "./schemas/config.ts";
import { faultsSchema } from "./schemas/faults.ts";
import { playbookSchema } from "./schemas/playbook.ts";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** Where the schemas live. */
export const SCHEMA_DIR = path.join(ROOT, "schemas");

/** Each schema file's name and what builds it. */
export const SCHEMAS: Readonly<Record<string, () => JsonSchema>> = {
  "config.schema.json": configSchema,
  "playbook.schema.json": playbookSchema,
  "faults.schema.json": faultsSchema,
  "cassette-line.schema.json": cassetteLineSchema,
};

/** The text of one schema file, as written. */
export function renderSchema(name: string): string {
  return JSON.stringify(SCHEMAS[name](), null, 2) + "\n";
}

if (path.resolve(fileURLToPath(import.meta.url)) === path.resolve(process.argv[1] ?? "")) {
  const check = process.argv.includes("--check");
  let stale = 0;
  fs.mkdirSync(SCHEMA_DIR, { recursive: true });
  for (const name of Object.keys(SCHEMAS)) {
    const file = path.join(SCHEMA_DIR, name);
    const text = renderSchema(name);
    const current = fs.existsSync(file) ? fs.readFileSync(file, "utf8") : "";
    if (check) {
      if (current !== text) {
        console.error(`schemas/${name} is out of date: run \`deno run -A scripts/gen_schemas.ts\``);
        stale++;
      }
    } else if (current !== text) {
      fs.writeFileSync(file, text);
      console.log(`Wrote schemas/${name}`);
    }
  }
  process.exit(stale > 0 ? 1 : 0);
}
