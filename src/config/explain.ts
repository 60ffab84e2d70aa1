/**
 * `inspect --explain-config`: every setting of every section, its value and
 * where it came from, so "why is replay strict?" has an answer. The keys are
 * the option schema's (src/options/all.ts).
 *
 * @module
 */
import { sectionOptions } from "../options/all.ts";
import { runtime } from "../runtime/mod.ts";
import { CONFIG_SECTIONS, loadConfig } from "./file.ts";
import type { ConfigSection } from "./file.ts";
import { describeSource, resolveOptions } from "./options.ts";
import { MODE_ENV } from "../modes/mode.ts";
import { modeFromEnvironment, testingSettings } from "./testing.ts";

/** One row of the explanation. */
export interface ExplainedSetting {
  section: ConfigSection;
  key: string;
  /** The value in effect, undefined when nothing sets it and it has no default. */
  value?: string | boolean | string[];
  /** `flag`, `env NAME`, `file:line` or `default`. */
  source: string;
}

function show(value: ExplainedSetting["value"]): string {
  return value === undefined ? "(unset)" : JSON.stringify(value);
}

/** Every setting, checked (a mistake in any section is an error here). */
export async function explainSettings(): Promise<{ file?: string; settings: ExplainedSetting[] }> {
  const file = await loadConfig();
  const settings: ExplainedSetting[] = [];
  for (const section of CONFIG_SECTIONS) {
    const options = sectionOptions(section);
    const resolved = section === "testing"
      ? await testingSettings()
      : resolveOptions(section, options, {}, file);
    for (const [key, spec] of Object.entries(options)) {
      const source = resolved.sources.get(key) ?? { from: "default" };
      const value = resolved.values[key] as ExplainedSetting["value"];
      settings.push({
        section,
        key,
        value: source.from === "default" ? spec.default : value,
        source: describeSource(source),
      });
    }
  }
  // The mode variable beats code and file alike; show it where it applies.
  const forced = modeFromEnvironment();
  for (const setting of settings) {
    if (setting.key === "mode" && forced !== undefined) {
      setting.value = forced;
      setting.source = `env ${MODE_ENV}`;
    }
  }
  return { file: file?.path, settings };
}

/** The explanation as text, one line per setting under its section. */
export async function explainConfig(): Promise<string> {
  const { file, settings } = await explainSettings();
  const lines = [
    file
      ? `config file: ${file}`
      : `config file: none (no mcp-cassette.toml in ${runtime.cwd()} or above)`,
    "precedence: flag, then environment (MCP_CASSETTE_<SECTION>_<KEY>), then file, then default",
  ];
  const width = Math.max(...settings.map((setting) => setting.key.length));
  for (const section of CONFIG_SECTIONS) {
    lines.push("", `[${section}]`);
    for (const setting of settings.filter((candidate) => candidate.section === section)) {
      const text = `${setting.key.padEnd(width)} = ${show(setting.value)}`;
      lines.push(`  ${text.padEnd(width + 24)}  ${setting.source}`);
    }
  }
  return lines.join("\n") + "\n";
}
