/**
 * Renders a {@linkcode VerifyReport}: console text, JSON, Markdown, JUnit
 * XML and a shields.io endpoint badge.
 *
 * @module
 */
import { visible } from "../text/visible.ts";
import type { Json } from "../jsonrpc/messages.ts";
import { paint } from "../text/paint.ts";
import type { Regression } from "./compare.ts";
import { REGRESSION_KINDS } from "./compare.ts";
import type { GradeLetter } from "./grade.ts";
import type { ExchangeResult, VerifyReport } from "./run.ts";

/** Options of the console report. */
export interface TextOptions {
  /** ANSI colours (only when asked for). */
  color?: boolean;
  /** Most difference lines shown per failing exchange. */
  detailLines?: number;
  /** A title line; default names the cassette and the server. */
  title?: string;
}

/** A value, shortened for one line. */
export function showValue(value: Json | undefined, max = 60): string {
  if (value === undefined) return "(absent)";
  const text = JSON.stringify(value);
  return text.length > max ? text.slice(0, max - 1) + "…" : text;
}

/** One difference on one line: `$.result.total: 5 → 6`. */
export function describeRegression(regression: Regression): string {
  const note = regression.note ? ` (${regression.note})` : "";
  if (regression.kind === "missing-response") return `${regression.path}: no answer${note}`;
  if (regression.note === "key removed") {
    return `${regression.path}: key removed, was ${showValue(regression.before)}`;
  }
  if (regression.note === "key added") {
    return `${regression.path}: key added, now ${showValue(regression.after)}`;
  }
  if (regression.kind === "value-change" && regression.note) {
    return `${regression.path}: ${regression.note}`;
  }
  return `${regression.path}: ${showValue(regression.before)} → ${
    showValue(regression.after)
  }${note}`;
}

/** The name of an exchange: `#3 tools/call add`. */
export function exchangeName(exchange: ExchangeResult): string {
  return `#${exchange.index} ${exchange.method}${
    exchange.target !== undefined ? ` ${exchange.target}` : ""
  }`;
}

function kindsOf(exchange: ExchangeResult): string[] {
  return REGRESSION_KINDS.filter((kind) =>
    exchange.regressions.some((regression) => regression.kind === kind)
  );
}

/** The grade line: `grade A (100.0/100)`. */
export function gradeLine(report: VerifyReport): string {
  const { grade } = report;
  const capped = grade.capped ? ", capped at D: a request got no answer" : "";
  return `grade ${grade.letter} (${grade.score.toFixed(1)}/100${capped})`;
}

/**
 * The noise: paths whose value moved between two live runs of the same
 * build, with the flag that keeps them out of later runs.
 */
function noiseLines(report: VerifyReport, color: boolean): string[] {
  const noise = report.noise ?? [];
  if (noise.length === 0) return [];
  const paths = [...new Set(noise.map((item) => item.path))];
  return [
    ...noise.map((item) =>
      `  ${paint("NOISE", "dim", color)} #${item.index} ${item.method}${
        item.target ? ` ${item.target}` : ""
      }  ${item.path} differs between two live runs (not graded)`
    ),
    `  keep it out: ${paths.map((path) => `--ignore-path ${path}`).join(" ")}`,
  ];
}

/** The information lines under an exchange: differences expected of a new build, not graded. */
function infoLines(exchange: ExchangeResult, color: boolean): string[] {
  return (exchange.info ?? []).map((difference) =>
    `         ${paint("info", "dim", color)} ${
      describeRegression(difference)
    } (the build's version, expected to change; --version-is-regression grades it)`
  );
}

/** The console report: one line per exchange, details under failures, the grade. */
export function formatText(report: VerifyReport, options: TextOptions = {}): string {
  const color = options.color ?? false;
  const detailLines = options.detailLines ?? 3;
  const lines = [options.title ?? `verify ${report.cassette} against ${report.server}`];
  for (const exchange of report.exchanges) {
    if (exchange.status === "skip") {
      lines.push(
        `  ${paint("SKIP", "dim", color)} ${exchangeName(exchange)}  (${exchange.skipReason})`,
      );
      continue;
    }
    if (exchange.status === "pass") {
      lines.push(`  ${paint("PASS", "green", color)} ${exchangeName(exchange)}`);
      lines.push(...infoLines(exchange, color));
      continue;
    }
    lines.push(
      `  ${paint("FAIL", "red", color)} ${exchangeName(exchange)}  ${kindsOf(exchange).join(", ")}`,
    );
    for (const regression of exchange.regressions.slice(0, detailLines)) {
      lines.push(`         ${describeRegression(regression)}`);
    }
    const more = exchange.regressions.length - detailLines;
    if (more > 0) lines.push(`         … and ${more} more`);
    lines.push(...infoLines(exchange, color));
  }
  lines.push(...noiseLines(report, color));
  const found = REGRESSION_KINDS.filter((kind) => report.kinds[kind] > 0).map((kind) =>
    `${kind} ${report.kinds[kind]}`
  );
  const tally =
    `${
      report.exchanges.length - report.skipped - report.failed
    } passed, ${report.failed} failed, ` +
    `${report.skipped} skipped`;
  const letterColour = report.grade.letter === "A"
    ? "green"
    : report.grade.letter === "B"
    ? "yellow"
    : "red";
  lines.push(
    `  ${paint(gradeLine(report), letterColour, color)}: ${tally}${
      found.length ? `; ${found.join(", ")}` : ""
    }`,
  );
  return lines.join("\n") + "\n";
}

/** The JSON report. */
export function formatJson(report: VerifyReport, extra: Record<string, Json> = {}): string {
  return JSON.stringify({ ...report, ...extra }, null, 2) + "\n";
}

function escapeMarkdown(text: string): string {
  return text.replace(/\|/g, "\\|").replace(/\n/g, " ");
}

/** The Markdown report: a summary and a table, for a pull-request comment. */
export function formatMarkdown(report: VerifyReport): string {
  const { grade } = report;
  const pct = (value: number) => `${Math.round(value * 100)} %`;
  const lines = [
    `## mcp-cassette verify: grade ${grade.letter} (${grade.score.toFixed(1)}/100)`,
    "",
    `Cassette \`${report.cassette}\` against \`${report.server}\`.`,
    "",
    "| Dimension | Weight | Score |",
    "| --- | --- | --- |",
    `| Responsiveness | 25 % | ${pct(grade.dimensions.responsiveness)} |`,
    `| Match rate | 45 % | ${pct(grade.dimensions.matchRate)} |`,
    `| Error parity | 20 % | ${pct(grade.dimensions.errorParity)} |`,
    `| Structural stability | 10 % | ${pct(grade.dimensions.structuralStability)} |`,
    "",
    "| # | Request | Result | Details |",
    "| --- | --- | --- | --- |",
  ];
  for (const exchange of report.exchanges) {
    const request = escapeMarkdown(
      `${exchange.method}${exchange.target !== undefined ? ` ${exchange.target}` : ""}`,
    );
    const result = exchange.status === "skip"
      ? "SKIP"
      : exchange.status === "pass"
      ? "PASS"
      : `FAIL: ${kindsOf(exchange).join(", ")}`;
    const details = exchange.status === "skip" ? exchange.skipReason ?? "" : [
      ...exchange.regressions.slice(0, 5).map((regression) =>
        `\`${escapeMarkdown(describeRegression(regression))}\``
      ),
      ...(exchange.info ?? []).map((difference) =>
        `info: \`${escapeMarkdown(describeRegression(difference))}\``
      ),
    ].join("<br>");
    lines.push(`| ${exchange.index} | \`${request}\` | ${result} | ${details} |`);
  }
  if (grade.capped) lines.push("", "A request got no answer, so the grade is capped at D.");
  return lines.join("\n") + "\n";
}

/**
 * What XML 1.0 cannot carry, not even as a character reference: C0 controls
 * but tab, newline and return, lone surrogates, U+FFFE and U+FFFF. Dropped.
 */
const XML_FORBIDDEN =
  // deno-lint-ignore no-control-regex -- exactly the characters XML 1.0 forbids
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

function escapeXml(text: string): string {
  const entities: Record<string, string> = {
    "<": "&lt;",
    ">": "&gt;",
    "&": "&amp;",
    '"': "&quot;",
    "'": "&apos;",
  };
  // Controls a terminal acts on are shown as escapes (src/text/visible.ts); the rest XML forbids goes.
  return visible(text).replace(/[<>&"']/g, (char) => entities[char]).replace(XML_FORBIDDEN, "");
}

/** JUnit XML: one testcase per exchange, a failure element per failing one. */
export function formatJunit(report: VerifyReport, suiteName = "mcp-cassette verify"): string {
  const cases = report.exchanges.map((exchange) => {
    const name = escapeXml(exchangeName(exchange));
    const classname = escapeXml(`verify.${report.cassette.split(/[\\/]/).pop()}`);
    const open = `    <testcase classname="${classname}" name="${name}">`;
    if (exchange.status === "pass") {
      return `    <testcase classname="${classname}" name="${name}"/>`;
    }
    if (exchange.status === "skip") {
      return `${open}\n      <skipped message="${
        escapeXml(exchange.skipReason ?? "")
      }"/>\n    </testcase>`;
    }
    const kinds = kindsOf(exchange).join(", ");
    const body = exchange.regressions.map((regression) =>
      `${regression.kind} ${describeRegression(regression)}`
    ).join("\n");
    return `${open}\n      <failure type="${escapeXml(kinds)}" message="${escapeXml(kinds)}">${
      escapeXml(body)
    }</failure>\n    </testcase>`;
  });
  const counts =
    `tests="${report.exchanges.length}" failures="${report.failed}" errors="0" skipped="${report.skipped}"`;
  return [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<testsuites name="${escapeXml(suiteName)}" ${counts}>`,
    `  <testsuite name="${escapeXml(`${suiteName}: ${report.cassette}`)}" ${counts}>`,
    `    <properties><property name="grade" value="${report.grade.letter}"/><property name="score" value="${
      report.grade.score.toFixed(1)
    }"/></properties>`,
    ...cases,
    `  </testsuite>`,
    `</testsuites>`,
  ].join("\n") + "\n";
}

const BADGE_COLOURS: Record<GradeLetter, string> = {
  A: "brightgreen",
  B: "green",
  C: "yellow",
  D: "orange",
  F: "red",
};

/** A shields.io endpoint badge (https://shields.io/badges/endpoint-badge). */
export function formatBadge(report: VerifyReport, label = "mcp verify"): string {
  const badge = {
    schemaVersion: 1,
    label,
    message: `${report.grade.letter} ${report.grade.score.toFixed(0)}/100`,
    color: BADGE_COLOURS[report.grade.letter],
  };
  return JSON.stringify(badge) + "\n";
}
