/**
 * Regenerates docs/interop.md: runs tests/interop/setup.sh, then every row
 * of the interop matrix, and writes the table.
 *
 * Usage: deno run -A --no-check scripts/interop_matrix.ts [OUTPUT]
 */
import path from "node:path";
import process from "node:process";
import { ROOT } from "../tests/helpers.ts";
import { writeMatrix } from "../tests/interop/matrix_doc.ts";

const output = process.argv[2] ?? path.join(ROOT, "docs", "interop.md");
const rows = await writeMatrix(output, (line) => process.stderr.write(`${line}\n`));
const count = (status: string) => rows.filter((row) => row.status === status).length;
const failed = count("fail");
process.stderr.write(
  `wrote ${output}: ${rows.length} rows, ${count("pass")} passed, ${failed} failed, ${
    count("skip")
  } skipped\n`,
);
process.exit(failed ? 1 : 0);
