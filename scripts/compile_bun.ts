/**
 * Run by Bun for scripts/compile.ts: `bun scripts/compile_bun.ts TARGET OUTFILE ENTRY`
 * compiles ENTRY into a standalone binary with Bun.build, its code as bytecode.
 *
 * Modules load some others by specifiers built from a folder constant
 * (`import(SRC + "modes/replay_run.ts")`), so that Deno does not load them
 * with the importer (see src/cli/registry.ts). Bun folds such a constant
 * back into a literal only in modules it loads eagerly: in a module it loads
 * lazily (every command) the constant becomes a `var`, the import stays
 * computed, and the binary fails at run time ("Cannot find module
 * '../replay/http.ts'"). This plugin writes the folded literal into the
 * source as Bun reads it, so every such import is bundled.
 *
 * @module
 */
import process from "node:process";

/** The little of Bun's API used here (the repository has no Bun types). */
interface BunApi {
  argv: string[];
  file(path: string): { text(): Promise<string> };
  build(options: {
    entrypoints: string[];
    compile: { target: string; outfile: string };
    minify: { syntax: boolean };
    bytecode: boolean;
    format: string;
    plugins: unknown[];
  }): Promise<{ success: boolean; logs: unknown[] }>;
}
interface PluginBuild {
  onLoad(
    options: { filter: RegExp },
    load: (args: { path: string }) => Promise<{ contents: string; loader: "ts" }>,
  ): void;
}
const bun = (globalThis as unknown as { Bun: BunApi }).Bun;

/** `import(NAME + "` (across a line break too) becomes `import("VALUE` for each `const NAME = "VALUE";`. */
export function foldSpecifiers(text: string): string {
  let out = text;
  for (const [, name, value] of text.matchAll(/^const (\w+) = "([^"\\]*)";$/gm)) {
    out = out.replace(new RegExp(`(import\\(\\s*)${name} \\+ "`, "g"), `$1"${value}`);
  }
  return out;
}

const fold = {
  name: "fold-built-specifiers",
  setup(build: PluginBuild) {
    build.onLoad({ filter: /[\\/]src[\\/].*\.ts$/ }, async (args) => ({
      contents: foldSpecifiers(await bun.file(args.path).text()),
      loader: "ts",
    }));
  },
};

const [target, outfile, entry] = bun.argv.slice(2);
const built = await bun.build({
  entrypoints: [entry],
  compile: { target, outfile },
  minify: { syntax: true },
  // Bytecode compiled ahead: the binary starts without parsing its 10 MB bundle (a replay's
  // spawn to first answer drops by more than half; BENCHMARKS.md).
  bytecode: true,
  format: "esm",
  plugins: [fold],
});
if (!built.success) {
  for (const log of built.logs) console.error(String(log));
  process.exit(1);
}
