/**
 * `mcp-cassette demo`: thirty seconds that show what verify is for.
 *
 * @module
 */
import { DEMO_OPTIONS } from "../options/demo.ts";
import type { Command } from "../cli/command.ts";
import { flag, stringOption } from "../cli/command.ts";
import { printOut } from "../cli/output.ts";
import { ExitCode, UsageError } from "../errors/errors.ts";
import { runtime } from "../runtime/mod.ts";
import { runDemo } from "../demo/run.ts";
import { DEMO_VARIANTS, serveDemo } from "../demo/servers.ts";
import type { DemoVariant } from "../demo/servers.ts";

/** The `demo` command. */
export const command: Command = {
  name: "demo",
  summary: "Record a bundled server, then catch its regressed twin with verify",
  usage: "demo [--out DIR | --keep]",
  description:
    "Records a short session against a bundled sample server, then verifies the recording against " +
    "the same server (grade A) and against a regressed twin whose tools/list is identical but whose " +
    "answers drifted: a number changed and a JSON field was renamed. Exits 0 when verify caught both.",
  options: DEMO_OPTIONS,
  async run(input) {
    const serve = stringOption(input.values, "serve");
    if (serve !== undefined) {
      if (!(DEMO_VARIANTS as readonly string[]).includes(serve)) {
        throw new UsageError(`--serve must be one of ${DEMO_VARIANTS.join(", ")}, not "${serve}"`);
      }
      await serveDemo(serve as DemoVariant);
      return ExitCode.Ok;
    }
    const color = flag(input.values, "color") && runtime.env("NO_COLOR") === undefined;
    const outcome = await runDemo({
      outDir: stringOption(input.values, "out"),
      color,
      keep: flag(input.values, "keep"),
    });
    await printOut(outcome.text);
    return outcome.asExpected ? ExitCode.Ok : ExitCode.Failed;
  },
};
