/**
 * docs/cli.md is generated from the command definitions the parser uses;
 * this fails when someone changes a command without regenerating it.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { CLI_DOCS, renderCliDocs } from "../../scripts/gen_cli_docs.ts";
import { commandNames } from "../../src/cli/registry.ts";

test("docs/cli.md equals a fresh generation (run `deno run -A scripts/gen_cli_docs.ts` to update)", async () => {
  const fresh = await renderCliDocs();
  for (const name of commandNames) {
    assert.match(fresh, new RegExp(`^## ${name}$`, "m"), `${name} has no section`);
  }
  assert.match(fresh, /^## Exit codes$/m);
  assert.equal(readFileSync(CLI_DOCS, "utf8"), fresh);
});
