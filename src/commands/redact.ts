/**
 * `mcp-cassette redact`: scrub an existing cassette in place, or scan it
 * for anything the rules would catch.
 *
 * @module
 */
import { REDACT_OPTIONS } from "../options/redact.ts";
import type { LocatedEntry } from "../cassette/reader.ts";
import { loadCassette } from "../cassette/reader.ts";
import { CassetteWriter } from "../cassette/writer.ts";
import type { Entry } from "../cassette/format.ts";
import type { Command, CommandInput } from "../cli/command.ts";
import { flag, stringList } from "../cli/command.ts";
import { printErr, printOut } from "../cli/output.ts";
import { ExitCode, UsageError } from "../errors/errors.ts";
import { runtime } from "../runtime/mod.ts";
import {
  createRedactor,
  entryFindings,
  headerLineFindings,
  mergeRedactionInfo,
  recordedDigest,
  REDACT_KEY_ENV,
  redactEntry,
  redactHeader,
} from "../redact/mod.ts";
import type { Redactor } from "../redact/mod.ts";

function withoutLine(entry: LocatedEntry): Entry {
  const { line: _line, ...rest } = entry;
  return rest as Entry;
}

async function scan(path: string, redactor: Redactor): Promise<number> {
  const cassette = await loadCassette(path);
  const lines: string[] = [];
  for (const finding of headerLineFindings(redactor, cassette.header)) {
    lines.push(`${path}:1 ${finding.path} ${finding.rule}`);
  }
  for (const entry of cassette.entries) {
    for (const finding of entryFindings(redactor, withoutLine(entry))) {
      lines.push(`${path}:${entry.line} ${finding.path} ${finding.rule}`);
    }
  }
  if (cassette.torn) printErr(`${path}:${cassette.torn.line}: torn last line not scanned`);
  if (lines.length === 0) return ExitCode.Ok;
  await printOut(lines.join("\n") + "\n");
  return ExitCode.Findings;
}

async function scrub(path: string, redactor: Redactor): Promise<number> {
  const cassette = await loadCassette(path);
  if (cassette.importedFrom) {
    throw new UsageError(
      `${path} is a ${cassette.importedFrom} file: convert it with \`mcp-cassette import\` first`,
    );
  }
  const info = mergeRedactionInfo(cassette.header.redaction, redactor.info());
  const header = redactHeader(redactor, cassette.header, info);
  const writer = await CassetteWriter.open(path, { header, aside: true });
  let values = headerLineFindings(redactor, cassette.header).length;
  let changed = 0;
  try {
    for (const located of cassette.entries) {
      const entry = withoutLine(located);
      const redacted = redactEntry(redactor, entry);
      if (redacted !== entry) {
        changed++;
        values += entryFindings(redactor, entry).length;
      }
      writer.append(redacted);
    }
  } catch (error) {
    await writer.abandon();
    throw error;
  }
  await writer.close();
  if (cassette.torn) {
    printErr(
      `${path}:${cassette.torn.line}: dropped the torn last line (it may have held a secret)`,
    );
  }
  await printOut(
    `Scrubbed ${path}: ${values} value(s) redacted in ${changed} of ${cassette.entries.length} entries (${info.rules.length} rules)\n`,
  );
  return ExitCode.Ok;
}

/** The `redact` command. */
export const command: Command = {
  name: "redact",
  summary: "Scrub secrets from a cassette in place, or --scan for them",
  usage: "redact CASSETTE [--redact RULE]... [--pack FILE]... [--no-detectors] [--scan]",
  description: [
    "Applies the redaction rules to an existing cassette: the always-on credential key rule,",
    "the free-text detectors (unless --no-detectors), --redact rules and TOML rule packs.",
    "Without --scan the file is rewritten aside and renamed over the original, and its",
    "header's `redaction` field records what scrubbed it. With --scan nothing is written:",
    "each finding is printed as `FILE:LINE POINTER rule` (never the secret) and the exit",
    `code is 4 when there is any. The key of keyed placeholders and of the hash strategy is`,
    `$${REDACT_KEY_ENV}, else the recorder's key file (~/.config/mcp-cassette/redact.key).`,
    "See docs/redaction.md.",
  ].join(" "),
  options: REDACT_OPTIONS,
  async run(input: CommandInput): Promise<number> {
    if (input.positionals.length !== 1) throw new UsageError("redact takes exactly one CASSETTE");
    const [path] = input.positionals;
    // Keyed like the recording: its salt, and its key (a wrong or missing one stops here).
    const { existingRedaction, redactKey } = await import("./redact_key.ts");
    const before = await existingRedaction(path).catch(() => undefined);
    const digestKey = await redactKey(!flag(input.values, "scan"));
    if (before?.digest) recordedDigest(before, digestKey, path);
    const redactor = await createRedactor({
      rules: stringList(input.values, "redact"),
      packs: stringList(input.values, "pack"),
      detectors: !flag(input.values, "no-detectors"),
      hashKey: runtime.env(REDACT_KEY_ENV) || undefined,
      digestKey,
      digestSalt: before?.digest?.salt,
    });
    return flag(input.values, "scan") ? await scan(path, redactor) : await scrub(path, redactor);
  },
};
