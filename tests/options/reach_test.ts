/**
 * Every option declared in src/options/ reaches everything that reads
 * options: the command's parser and help, the config file (its key and its
 * environment variable, for the four sections), `inspect --explain-config`,
 * the library's checks, docs/cli.md and schemas/config.schema.json. The
 * test walks the schema, so an option added there is checked here with no
 * more work, and one that misses a reader fails.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import path from "node:path";
import process from "node:process";
import { commandNames, loadCommand } from "../../src/cli/registry.ts";
import { commandHelp } from "../../src/cli/main.ts";
import { parseArgList } from "../../src/cli/args.ts";
import { resolveOptions } from "../../src/config/options.ts";
import type { ConfigEntry, ConfigFile } from "../../src/config/file.ts";
import { explainSettings } from "../../src/config/explain.ts";
import { COMMAND_OPTIONS, sectionOptions } from "../../src/options/all.ts";
import { checkLibraryOptions, libraryName } from "../../src/options/library.ts";
import { CONFIG_SECTIONS, envName, KEY_ALIASES } from "../../src/options/sections.ts";
import { isNumeric } from "../../src/options/spec.ts";
import type { OptionSpec } from "../../src/options/spec.ts";
import { UsageError } from "../../src/errors/errors.ts";
import { ROOT } from "../helpers.ts";

const visible = (options: Record<string, OptionSpec>) =>
  Object.entries(options).filter(([, spec]) => !spec.hidden);

/** A value of the option's type as text (the command line, the environment). */
function sample(spec: OptionSpec): string {
  return spec.choices?.[0] ?? (isNumeric(spec) ? "7" : "x");
}

/** A value of the option's type as the config file and the library give it. */
function typed(spec: OptionSpec): unknown {
  if (spec.type === "boolean") return true;
  const one = isNumeric(spec) ? 7 : sample(spec);
  return spec.multiple ? [String(one)] : one;
}

/** A config file holding `settings` in `section`, as the reader would have parsed it. */
function fileWith(section: string, settings: Record<string, unknown>): ConfigFile {
  const entries = new Map<string, ConfigEntry>(
    Object.entries(settings).map(([key, value], i) => [key, { value, line: i + 2 }]),
  );
  return {
    path: "/project/mcp-cassette.toml",
    dir: "/project",
    sectionLine: () => 1,
    section: (name) => (name === section ? entries : new Map()),
  };
}

test("the commands parse with the schema's own declarations, every option accepted", async () => {
  assert.deepEqual(
    Object.keys(COMMAND_OPTIONS),
    commandNames,
    "src/options/all.ts lists every command",
  );
  for (const [name, options] of Object.entries(COMMAND_OPTIONS)) {
    const command = await loadCommand(name);
    assert.ok(command, name);
    assert.equal(command.options, options, `${name} declares its options outside src/options/`);
    const help = commandHelp(command);
    for (const [option, spec] of Object.entries(options)) {
      const args = spec.type === "boolean" ? [`--${option}`] : [`--${option}`, sample(spec)];
      const parsed = parseArgList(args, options);
      assert.notEqual(parsed.values[option], undefined, `${name} --${option}`);
      if (!spec.hidden) assert.match(help, new RegExp(`--${option}\\b`), `${name} --help`);
    }
  }
});

test("every option is in docs/cli.md under its command", () => {
  const docs = fs.readFileSync(path.join(ROOT, "docs", "cli.md"), "utf8");
  for (const [name, options] of Object.entries(COMMAND_OPTIONS)) {
    const start = docs.indexOf(`\n## ${name}\n`);
    assert.ok(start >= 0, `docs/cli.md has no section for ${name}`);
    const section = docs.slice(start + 1, docs.indexOf("\n## ", start + 1));
    for (const [option] of visible(options)) {
      assert.match(section, new RegExp("`(-\\w, )?--" + option + "[ `]"), `${name} --${option}`);
    }
  }
});

test("every configurable option is a config key, an environment variable and a schema property", () => {
  const schema = JSON.parse(
    fs.readFileSync(path.join(ROOT, "schemas", "config.schema.json"), "utf8"),
  );
  for (const section of CONFIG_SECTIONS) {
    const options = sectionOptions(section);
    if (section !== "testing") {
      const all = COMMAND_OPTIONS[section];
      for (const [option, spec] of Object.entries(all)) {
        const configurable = !spec.hidden && spec.configurable !== false;
        assert.equal(option in options, configurable, `[${section}] ${option}`);
      }
    }
    const settings = Object.fromEntries(
      Object.entries(options).map(([key, spec]) => [key, typed(spec)]),
    );
    const fromFile = resolveOptions(section, options, {}, fileWith(section, settings));
    for (const [key, spec] of Object.entries(options)) {
      assert.equal(fromFile.sources.get(key)?.from, "file", `[${section}] ${key} from the file`);
      const property = schema.properties[section].properties[key];
      assert.ok(property, `schemas/config.schema.json has no [${section}] ${key}`);
      assert.ok(property.description.startsWith(spec.description), `[${section}] ${key}`);
      const variable = envName(section, key);
      process.env[variable] = spec.type === "boolean" ? "true" : sample(spec);
      try {
        const fromEnv = resolveOptions(section, options, {}, undefined);
        assert.equal(fromEnv.sources.get(key)?.from, "env", variable);
      } finally {
        delete process.env[variable];
      }
    }
    const extra = Object.keys(schema.properties[section].properties).filter((key) =>
      !(key in options) && !(key.replace(/_/g, "-") in options)
    );
    assert.deepEqual(
      extra.filter((key) => !(key in KEY_ALIASES)),
      [],
      `[${section}] schema keys with no option`,
    );
  }
});

test("inspect --explain-config lists every configurable option of every section", async () => {
  const { settings } = await explainSettings();
  for (const section of CONFIG_SECTIONS) {
    const explained = settings.filter((s) => s.section === section).map((s) => s.key);
    assert.deepEqual(explained, Object.keys(sectionOptions(section)), `[${section}]`);
  }
});

test("the library checks every option by its camelCase name against the declared type", () => {
  for (const [name, options] of Object.entries(COMMAND_OPTIONS)) {
    for (const [option, spec] of visible(options)) {
      const key = libraryName(option);
      checkLibraryOptions(name, options, { [key]: typed(spec) });
      const wrong = spec.type === "boolean" ? "yes" : spec.multiple ? 7 : isNumeric(spec) ? "7" : 7;
      assert.throws(
        () => checkLibraryOptions(name, options, { [key]: wrong }),
        (error: Error) =>
          error instanceof UsageError && error.message.startsWith(`${name}.${key} (--${option}) `),
        `${name}.${key}`,
      );
    }
  }
});
