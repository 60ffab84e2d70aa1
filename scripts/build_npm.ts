/**
 * Builds the npm package `@mcp-cassette/mcp-cassette` (executable `mcp-cassette`) into npm/ (or `--out DIR`).
 *
 * dnt lives on JSR, which this project cannot reach, so the build is
 * TypeScript's own compiler with `rewriteRelativeImportExtensions`: every
 * `./x.ts` import becomes `./x.js`, the output is ESM with `.d.ts` beside
 * each file, and bare import-map names (`jsonc-parser`, `smol-toml`) stay
 * bare so Node resolves them as the package's pinned dependencies.
 *
 * A second pass compiles the library's entry points again as CommonJS into
 * `cjs/` (the `require` condition of `exports`): jest with ts-jest or babel,
 * and plain `require()`, cannot load ES modules with top-level await on
 * Node 20. That pass builds from a staged copy of the sources in which the
 * two files CommonJS cannot express (the runtime chosen with top-level
 * await, a module's own `import.meta.url`) are replaced by the texts below.
 *
 * Usage: deno run -A scripts/build_npm.ts [--out DIR] [--pack DIR] [--allow-type-errors]
 *
 * Type errors fail the build (the package ships .d.ts files); while the
 * sources are mid-change `--allow-type-errors` emits anyway and warns.
 *
 * @module
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import { createRequire } from "node:module";
import * as os from "node:os";
import path from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const REPOSITORY = "https://github.com/mcp-cassette/mcp-cassette";
/** The package's name on npm (and on JSR); its executable is `mcp-cassette`. */
export const PACKAGE_NAME = "@mcp-cassette/mcp-cassette";

/** What the build produced. */
export interface NpmBuild {
  outDir: string;
  packageJson: Record<string, unknown>;
  /** The tarball, when `pack` was asked for. */
  tarball?: string;
}

interface DenoConfig {
  name: string;
  version: string;
  license?: string;
  imports?: Record<string, string>;
}

function readDenoConfig(): DenoConfig {
  return JSON.parse(fs.readFileSync(path.join(ROOT, "deno.json"), "utf8"));
}

/** Every runtime source file: the entry points and src/, never tests. */
function sourceFiles(): string[] {
  const files: string[] = [];
  for (const entry of ["cli.ts", "mod.ts"]) {
    if (fs.existsSync(path.join(ROOT, entry))) files.push(path.join(ROOT, entry));
  }
  const walk = (dir: string) => {
    for (const item of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, item.name);
      if (item.isDirectory()) walk(full);
      // Whole src/, not only what cli.ts reaches: lazily imported modules must ship too.
      else if (item.name.endsWith(".ts") && !/_test\.ts$/.test(item.name)) files.push(full);
    }
  };
  walk(path.join(ROOT, "src"));
  return files;
}

/** How one tsc pass emits: ES modules from the sources, or CommonJS from a staged copy. */
interface Pass {
  rootDir: string;
  outDir: string;
  files: string[];
  commonJs: boolean;
}

function compile(pass: Pass, allowTypeErrors: boolean): void {
  const configDir = fs.mkdtempSync(path.join(os.tmpdir(), "mcp-cassette-build-"));
  const config = {
    compilerOptions: {
      target: "ES2022",
      ...(pass.commonJs
        // CommonJS proper: import() of a relative module becomes require(), which
        // jest's CommonJS runtime can load without --experimental-vm-modules.
        ? { module: "CommonJS", moduleResolution: "Node10", ignoreDeprecations: "6.0" }
        : { module: "NodeNext", moduleResolution: "NodeNext" }),
      lib: ["ES2022"],
      types: ["node"],
      typeRoots: [path.join(ROOT, "node_modules", "@types")],
      strict: true,
      skipLibCheck: true,
      rewriteRelativeImportExtensions: true,
      declaration: true,
      rootDir: pass.rootDir,
      outDir: pass.outDir,
      newLine: "lf",
    },
    files: pass.files,
  };
  const configPath = path.join(configDir, "tsconfig.json");
  fs.writeFileSync(configPath, JSON.stringify(config, null, 2));
  const tsc = path.join(ROOT, "node_modules", "typescript", "bin", "tsc");
  // tsc is a Node program; `node` is on PATH wherever the npm package is built.
  const result = spawnSync("node", [tsc, "-p", configPath, "--pretty", "false"], {
    encoding: "utf8",
  });
  fs.rmSync(configDir, { recursive: true, force: true });
  if (result.error) throw new Error(`Cannot run tsc with node: ${result.error.message}`);
  if (result.status === 0) return;
  const what = pass.commonJs ? "tsc (CommonJS pass)" : "tsc";
  const report = `${what} failed (exit ${result.status}):\n${result.stdout}${result.stderr}`;
  // Exit 2 means "emitted, with type errors"; anything else emitted nothing.
  if (allowTypeErrors && result.status === 2) {
    console.warn(report.replace("failed", "reported type errors"));
  } else throw new Error(report);
}

/** src/runtime/mod.ts for CommonJS: no top-level await; `require` serves Node and Bun. */
const CJS_RUNTIME_MOD =
  `/** The runtime on node: modules (the CommonJS entry serves Node and Bun; Deno imports the ES modules). */
import type { Runtime } from "./types.ts";
import { nodeCompatRuntime } from "./node_compat.ts";
export type * from "./types.ts";
/** The runtime this process runs on. */
export const runtime: Runtime = nodeCompatRuntime;
`;

/**
 * src/runtime/module_url.ts for CommonJS, which has no import.meta: the ES
 * module copy of the folder (<package>/src/runtime/, three folders above
 * <package>/cjs/src/runtime/), so the CLI a helper starts is the package's cli.js.
 */
const CJS_MODULE_URL = `import path from "node:path";
import { pathToFileURL } from "node:url";
/** The URL of the ES module copy of this module. */
export const RUNTIME_MODULE_URL: string = pathToFileURL(
  path.join(__dirname, "..", "..", "..", "src", "runtime", "module_url.js"),
).href;
`;

/**
 * Compiles the library entry points (mod.ts, src/testing/mod.ts and what
 * they import) as CommonJS into `<outDir>/cjs`, from a staged copy of the
 * sources with the two CommonJS replacements.
 */
function compileCommonJs(outDir: string, files: string[], allowTypeErrors: boolean): void {
  const stage = fs.mkdtempSync(path.join(os.tmpdir(), "mcp-cassette-cjs-"));
  try {
    for (const file of files) {
      const target = path.join(stage, path.relative(ROOT, file));
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.copyFileSync(file, target);
    }
    fs.writeFileSync(path.join(stage, "src", "runtime", "mod.ts"), CJS_RUNTIME_MOD);
    fs.writeFileSync(path.join(stage, "src", "runtime", "module_url.ts"), CJS_MODULE_URL);
    // The staged copy resolves the pinned dependencies' types from the checkout.
    fs.symlinkSync(path.join(ROOT, "node_modules"), path.join(stage, "node_modules"), "junction");
    const cjsDir = path.join(outDir, "cjs");
    const entries = ["mod.ts", path.join("src", "testing", "mod.ts")].map((entry) =>
      path.join(stage, entry)
    );
    compile({ rootDir: stage, outDir: cjsDir, files: entries, commonJs: true }, allowTypeErrors);
    // The package is "type": "module"; this folder's .js files are CommonJS.
    fs.writeFileSync(
      path.join(cjsDir, "package.json"),
      JSON.stringify({ type: "commonjs" }) + "\n",
    );
  } finally {
    fs.rmSync(stage, { recursive: true, force: true });
  }
}

function* emittedScripts(dir: string): Generator<string> {
  for (const item of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, item.name);
    if (item.isDirectory()) yield* emittedScripts(full);
    else if (item.name.endsWith(".js")) yield full;
  }
}

/** TypeScript's own scanner, so imports shown in doc comments do not count. */
const ts = createRequire(import.meta.url)("typescript") as {
  preProcessFile(
    text: string,
    readImports: boolean,
    detectJs: boolean,
  ): { importedFiles: { fileName: string }[] };
};

/** The npm packages the emitted code imports, pinned to the import map's versions. */
function dependencies(outDir: string, imports: Record<string, string>): Record<string, string> {
  const wanted = new Set<string>();
  for (const file of emittedScripts(outDir)) {
    for (
      const { fileName: specifier } of ts.preProcessFile(fs.readFileSync(file, "utf8"), true, true)
        .importedFiles
    ) {
      if (specifier.startsWith("node:") || specifier.startsWith(".")) continue;
      const name = specifier.startsWith("@")
        ? specifier.split("/").slice(0, 2).join("/")
        : specifier.split("/")[0];
      wanted.add(name);
    }
  }
  const deps: Record<string, string> = {};
  for (const name of [...wanted].sort()) {
    const target = imports[name];
    const pinned = target?.match(/^npm:((?:@[^/]+\/)?[^@]+)@(\d[^/]*)$/);
    if (!pinned) {
      throw new Error(
        `src imports "${name}", which deno.json's import map does not pin as npm:${name}@<version>`,
      );
    }
    deps[pinned[1]] = pinned[2];
  }
  return deps;
}

function fixShebang(cliPath: string): void {
  const text = fs.readFileSync(cliPath, "utf8");
  const body = text.startsWith("#!") ? text.slice(text.indexOf("\n") + 1) : text;
  fs.writeFileSync(cliPath, "#!/usr/bin/env node\n" + body);
  fs.chmodSync(cliPath, 0o755);
}

/** The library's entry points: `import` gets the ES modules, `require` the CommonJS build. */
const ENTRY_POINTS: readonly [string, string][] = [[".", "mod"], ["./testing", "src/testing/mod"]];

function exportsMap(outDir: string): Record<string, unknown> {
  const map: Record<string, unknown> = {};
  for (const [subpath, stem] of ENTRY_POINTS) {
    for (const file of [`${stem}.js`, `${stem}.d.ts`, `cjs/${stem}.js`, `cjs/${stem}.d.ts`]) {
      if (!fs.existsSync(path.join(outDir, file))) throw new Error(`The build has no ${file}`);
    }
    map[subpath] = {
      import: { types: `./${stem}.d.ts`, default: `./${stem}.js` },
      require: { types: `./cjs/${stem}.d.ts`, default: `./cjs/${stem}.js` },
    };
  }
  map["./package.json"] = "./package.json";
  return map;
}

const FALLBACK_README = `# mcp-cassette

Record an MCP (Model Context Protocol) session once, replay it as a server forever.

\`\`\`sh
npm install --save-dev @mcp-cassette/mcp-cassette
npx mcp-cassette record -o session.cassette.jsonl -- npx -y @modelcontextprotocol/server-everything
npx mcp-cassette replay session.cassette.jsonl
\`\`\`

Inside a project that installed it, \`npx mcp-cassette --help\` lists every command.
`;

function mitLicense(): string {
  return `MIT License

Copyright (c) ${new Date().getUTCFullYear()} the mcp-cassette authors

Permission is hereby granted, free of charge, to any person obtaining a copy
of this software and associated documentation files (the "Software"), to deal
in the Software without restriction, including without limitation the rights
to use, copy, modify, merge, publish, distribute, sublicense, and/or sell
copies of the Software, and to permit persons to whom the Software is
furnished to do so, subject to the following conditions:

The above copyright notice and this permission notice shall be included in all
copies or substantial portions of the Software.

THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE
SOFTWARE.
`;
}

/** Relative links (docs/…) would break on npmjs.com: point them at the repository. */
function absoluteLinks(markdown: string): string {
  return markdown.replace(
    /\]\((?!https?:|#|mailto:)([^)\s]+)\)/g,
    (_, target: string) => `](${REPOSITORY}/blob/main/${target.replace(/^\.\//, "")})`,
  );
}

function copyDocs(outDir: string, license: string | undefined): void {
  const readme = path.join(ROOT, "README.md");
  fs.writeFileSync(
    path.join(outDir, "README.md"),
    fs.existsSync(readme) ? absoluteLinks(fs.readFileSync(readme, "utf8")) : FALLBACK_README,
  );
  const licenseFile = path.join(ROOT, "LICENSE");
  if (fs.existsSync(licenseFile)) fs.copyFileSync(licenseFile, path.join(outDir, "LICENSE"));
  else if (license === "MIT") fs.writeFileSync(path.join(outDir, "LICENSE"), mitLicense());
  else throw new Error(`No LICENSE file and no text known for license "${license}"`);
}

/** Packs the build with `npm pack`; returns the tarball's path. */
function pack(outDir: string, destination: string): string {
  fs.mkdirSync(destination, { recursive: true });
  // On Windows npm is npm.cmd, which only a shell can start.
  const result = spawnSync("npm", ["pack", "--json", "--pack-destination", destination], {
    cwd: outDir,
    encoding: "utf8",
    shell: process.platform === "win32",
  });
  if (result.status !== 0) throw new Error(`npm pack failed:\n${result.stdout}${result.stderr}`);
  const [info] = JSON.parse(result.stdout) as { filename: string }[];
  return path.join(destination, info.filename);
}

/** Builds the package into `outDir` (emptied first) and optionally packs it. */
export function buildNpm(
  options: { outDir?: string; packTo?: string; allowTypeErrors?: boolean } = {},
): NpmBuild {
  const outDir = path.resolve(options.outDir ?? path.join(ROOT, "npm"));
  const config = readDenoConfig();
  fs.rmSync(outDir, { recursive: true, force: true });
  fs.mkdirSync(outDir, { recursive: true });
  const files = sourceFiles();
  const allowTypeErrors = options.allowTypeErrors ?? false;
  compile({ rootDir: ROOT, outDir, files, commonJs: false }, allowTypeErrors);
  compileCommonJs(outDir, files, allowTypeErrors);
  fixShebang(path.join(outDir, "cli.js"));
  const packageJson = {
    // Scoped like the JSR package: the bare npm name `mcp-cassette` is another project's.
    name: PACKAGE_NAME,
    version: config.version,
    description: "Record an MCP session once, replay it as a server forever: " +
      "record/replay, verify, lint, diff and fault injection for Model Context Protocol servers",
    license: config.license ?? "MIT",
    keywords: ["mcp", "model-context-protocol", "record", "replay", "cassette", "testing", "mock"],
    repository: { type: "git", url: `git+${REPOSITORY}.git` },
    homepage: `${REPOSITORY}#readme`,
    type: "module",
    bin: { "mcp-cassette": "cli.js" },
    // main/types for tools that predate `exports` (which also means `require`).
    main: "./cjs/mod.js",
    types: "./cjs/mod.d.ts",
    exports: exportsMap(outDir),
    engines: { node: ">=20" },
    dependencies: dependencies(outDir, config.imports ?? {}),
  };
  fs.writeFileSync(path.join(outDir, "package.json"), JSON.stringify(packageJson, null, 2) + "\n");
  copyDocs(outDir, config.license);
  const tarball = options.packTo ? pack(outDir, path.resolve(options.packTo)) : undefined;
  return { outDir, packageJson, tarball };
}

if (path.resolve(fileURLToPath(import.meta.url)) === path.resolve(process.argv[1] ?? "")) {
  const { values } = parseArgs({
    args: process.argv.slice(2),
    options: {
      out: { type: "string" },
      pack: { type: "string" },
      "allow-type-errors": { type: "boolean", default: false },
    },
  });
  try {
    const build = buildNpm({
      outDir: values.out,
      packTo: values.pack,
      allowTypeErrors: values["allow-type-errors"],
    });
    const relative = path.relative(process.cwd(), build.outDir) || ".";
    console.log(`Built ${build.packageJson.name}@${build.packageJson.version} into ${relative}`);
    console.log(`  dependencies: ${JSON.stringify(build.packageJson.dependencies)}`);
    console.log(`  exports: ${Object.keys(build.packageJson.exports as object).join(", ")}`);
    if (build.tarball) console.log(`  tarball: ${build.tarball}`);
  } catch (error) {
    console.error(`build_npm: ${(error as Error).message}`);
    process.exit(1);
  }
}
