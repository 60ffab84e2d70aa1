/**
 * One lint run over one cassette, fed entry by entry: the text rules look at
 * each server message as it passes and keep only their findings; the rules
 * over the whole traffic keep what ./consistency.ts and the surface builder
 * need (requests in flight, the listed items). A loaded cassette and a
 * streamed file go through the same run, so both give the same findings.
 *
 * @module
 */
import type { CassetteSink, CassetteStart } from "../cassette/entries.ts";
import type { LocatedEntry } from "../cassette/reader.ts";
import { StreamPairing, SurfaceBuilder } from "../surface/stream.ts";
import { BUILTIN_PATTERN_RULES } from "./builtin_pack.ts";
import { ConsistencyRules } from "./consistency.ts";
import { markupNameFindings } from "./names.ts";
import { answerFields, messageFields } from "./fields.ts";
import type { TextField } from "./fields.ts";
import {
  characterFindings,
  duplicateFindings,
  patternFindings,
  rugPullFindings,
} from "./findings.ts";
import type { LintBaseline } from "./findings.ts";
import type { PatternRule } from "./pack.ts";
import { ruleEnabled } from "./rules.ts";
import { compareFindings } from "./types.ts";
import { expiryOf } from "../modes/expiry.ts";
import type { Finding } from "./types.ts";

/** What a run needs besides the cassette. */
export interface LintRunOptions {
  packs?: readonly PatternRule[];
  baseline?: LintBaseline;
  select?: readonly string[];
  ignore?: readonly string[];
  /** With a most age in ms (`--max-age`), an older cassette is an MCL010 finding. */
  maxAgeMs?: number;
  /** Now, in ms since the epoch (default `Date.now()`). */
  now?: number;
}

/** A lint run: feed it a cassette (it is a {@linkcode CassetteSink}), then call `finish`. */
export class LintRun implements CassetteSink {
  private file = "";
  private readonly pairing = new StreamPairing();
  private readonly surface = new SurfaceBuilder();
  private consistency = new ConsistencyRules("");
  private readonly patternRules: PatternRule[];
  private readonly findings: Finding[] = [];

  constructor(private readonly options: LintRunOptions = {}) {
    const packIds = new Set((options.packs ?? []).map((rule) => rule.id));
    // A pack rule with a built-in id replaces the built-in one.
    this.patternRules = [
      ...BUILTIN_PATTERN_RULES.filter((rule) => !packIds.has(rule.id)),
      ...(options.packs ?? []),
    ];
  }

  /** The header. */
  start(start: CassetteStart): void {
    this.file = start.path;
    this.consistency = new ConsistencyRules(start.path);
    this.consistency.start(start.header);
    if (this.options.maxAgeMs === undefined) return;
    const expiry = expiryOf(
      start.path,
      start.header.created,
      this.options.maxAgeMs,
      this.options.now,
    );
    if (!expiry) return;
    this.findings.push({
      rule: "MCL010",
      severity: "error",
      message: expiry.message,
      file: start.path,
      line: 1,
      pointer: "/created",
    });
  }

  /** One entry; nothing of it is kept but findings and the listed items. */
  entry(entry: LocatedEntry): void {
    this.consistency.entry(entry);
    this.findings.push(...markupNameFindings(this.file, entry));
    if (entry.type !== "message") return;
    const fields: TextField[] = [];
    for (const message of this.pairing.messagesOf(entry)) {
      const step = this.pairing.push(message);
      this.consistency.message(message, step);
      if (step.kind === "answer" && step.exchange.request.dir === "c2s") {
        this.surface.answered(step.exchange);
        answerFields(step.exchange, fields);
      } else if (message.dir === "s2c") messageFields(message, fields);
    }
    if (fields.length === 0) return;
    this.findings.push(
      ...patternFindings(this.file, fields, this.patternRules),
      ...characterFindings(this.file, fields),
    );
  }

  /** A torn last line. */
  torn(torn: { line: number; text: string }): void {
    this.consistency.torn(torn);
  }

  /** The findings the options enable, sorted by line. */
  finish(): Finding[] {
    const surface = this.surface.finish();
    const findings = [
      ...this.consistency.finish(surface),
      ...this.findings,
      ...duplicateFindings(this.file, surface),
      ...(this.options.baseline ? rugPullFindings(this.file, surface, this.options.baseline) : []),
    ];
    const select = this.options.select ?? [];
    const ignore = this.options.ignore ?? [];
    return findings.filter((finding) => ruleEnabled(finding.rule, select, ignore)).sort(
      compareFindings,
    );
  }
}
