/**
 * `mcp-cassette import`: converts another tool's cassette into ours.
 *
 * @module
 */
import { IMPORT_OPTIONS } from "../options/import.ts";
import type { Command } from "../cli/command.ts";
import { flag, stringOption } from "../cli/command.ts";
import { printErr } from "../cli/output.ts";
import { convertForeign } from "../cassette/import/stream.ts";
import { CassetteWriter } from "../cassette/writer.ts";
import { checkOutputPath } from "../cassette/open.ts";
import type { Entry } from "../cassette/format.ts";
import { CassetteError, ExitCode, UsageError } from "../errors/errors.ts";
import { runtime } from "../runtime/mod.ts";

/**
 * Writes the conversion of `input` to `output` as it is read; the file
 * appears only once complete (an error leaves `output` as it was).
 */
async function writeConverted(input: string, output: string, force: boolean) {
  let writer: CassetteWriter | undefined;
  let entries = 0;
  let source = "";
  let torn: { line: number } | undefined;
  try {
    for await (const item of convertForeign(input)) {
      if (item.kind === "header") {
        source = item.source;
        writer = await CassetteWriter.open(output, {
          header: item.header,
          aside: true,
          // --force: the user asked for OUT to go, whatever it is (a link is replaced, not followed).
          force,
          replaceAny: force,
        });
      } else if (item.kind === "entry") {
        const { line: _line, ...entry } = item.entry;
        writer!.append(entry as Entry);
        entries++;
      } else torn = { line: item.line };
    }
    await writer!.close();
  } catch (error) {
    await writer?.abandon();
    throw error;
  }
  return { entries, source, torn };
}

/** The `import` command. */
export const command: Command = {
  name: "import",
  summary: "Convert another record/replay tool's cassette into this format",
  usage: "import FILE -o OUT [--force]",
  description:
    "Reads a cassette written by another record/replay tool (the Python mcp-cassette's JSON, " +
    "format_version 1-3; the TypeScript mcp-cassette's JSONL, cassetteVersion 1-2; mcp-recorder's " +
    "JSON, version 1.x; mcp-vcr's NDJSON transcripts, from record --format ndjson; mcp-rec's JSONL; " +
    "mcp-replay's mcp-replay/cassette@1 JSONL) and writes the same session in this tool's format. " +
    "The first chunk of FILE tells its format; a file of none of them (YAML, binary data) stops " +
    "there with exit 2. `replay`, `lint`, " +
    "`diff` and `inspect` also read those files directly; import makes the conversion permanent. " +
    "docs/import.md lists what each format maps to and what it never recorded.",
  options: IMPORT_OPTIONS,
  async run({ values, positionals }) {
    if (positionals.length !== 1) throw new UsageError("import takes exactly one FILE");
    const output = stringOption(values, "output");
    if (!output) throw new UsageError("import needs -o OUT");
    const [input] = positionals;
    await checkOutputPath(output, "-o");
    if (!flag(values, "force") && await runtime.stat(output)) {
      throw new CassetteError(`${output} already exists (use --force to overwrite it)`);
    }
    const { entries, source, torn } = await writeConverted(input, output, flag(values, "force"));
    const dropped = torn ? ` (dropped a torn last line ${torn.line})` : "";
    printErr(`${input}: converted ${entries} entries from ${source} into ${output}${dropped}`);
    return ExitCode.Ok;
  },
};
