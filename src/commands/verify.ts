/**
 * `mcp-cassette verify`: replay a cassette's client traffic against a new
 * build of the server and grade how its answers moved.
 *
 * @module
 */
import { VERIFY_OPTIONS } from "../options/verify.ts";
import type { Command, CommandInput } from "../cli/command.ts";
import { flag, positiveInt, stringList, stringOption } from "../cli/command.ts";
import { colorEnabled, printErr, printOut } from "../cli/output.ts";
import { ExitCode, UsageError } from "../errors/errors.ts";
// Registers the Streamable HTTP client transport for `verify --url`.
import { describeTarget } from "../client/target.ts";
import type { ServerTarget } from "../client/target.ts";
import { GRADE_LETTERS, meetsGrade } from "../verify/grade.ts";
import type { GradeLetter } from "../verify/grade.ts";
import { planFile } from "../verify/plan.ts";
import type { VerifyPlan } from "../verify/plan.ts";
import { compileIgnorePaths } from "../verify/normalize.ts";
import {
  formatBadge,
  formatJson,
  formatJunit,
  formatMarkdown,
  formatText,
} from "../verify/report.ts";
import type { VerifyReport } from "../verify/run.ts";
import { verifyCassette } from "../verify/mod.ts";
import { targetFromInput } from "./check.ts";
import { planChooserFromFlags } from "../script/select.ts";
import { chooseOnly, parseOnly } from "../verify/only.ts";
import { recordingRedactor } from "./replay_redaction.ts";
import { writeFileSafely } from "../files/safe_write.ts";

function parseGrade(value: string | undefined): GradeLetter | undefined {
  if (value === undefined) return undefined;
  const letter = value.toUpperCase();
  if (!(GRADE_LETTERS as readonly string[]).includes(letter)) {
    throw new UsageError(`--min-grade must be one of ${GRADE_LETTERS.join(", ")}, not "${value}"`);
  }
  return letter as GradeLetter;
}

/** The dry-run listing: what would be sent, and what would be skipped. */
export function formatDryRun(cassette: string, plan: VerifyPlan): string {
  const lines = [`verify ${cassette}: dry run, no server started`];
  let sent = 0;
  let skipped = 0;
  for (const session of plan.sessions) {
    if (plan.sessions.length > 1) {
      lines.push(`  session ${session.session ?? "(default)"}: a fresh server`);
    }
    for (const step of session.steps) {
      if (step.kind === "notification") {
        lines.push(`  notify ${step.message.method}`);
        continue;
      }
      const name = `#${step.index} ${step.method}${
        step.target !== undefined ? ` ${step.target}` : ""
      }`;
      if (step.skip) {
        skipped++;
        lines.push(`  skip   ${name}  (${step.skip})`);
      } else {
        sent++;
        lines.push(`  send   ${name}`);
      }
    }
  }
  lines.push(`${sent} request(s) would be sent, ${skipped} skipped`);
  return lines.join("\n") + "\n";
}

function dryRunJson(plan: VerifyPlan): string {
  const steps = plan.sessions.flatMap((session) =>
    session.steps.map((step) =>
      step.kind === "notification"
        ? { session: session.session ?? null, notification: step.message.method }
        : {
          session: session.session ?? null,
          index: step.index,
          method: step.method,
          target: step.target ?? null,
          action: step.skip ? "skip" : "send",
          ...(step.skip ? { reason: step.skip } : {}),
        }
    )
  );
  return JSON.stringify({ dryRun: true, steps }, null, 2) + "\n";
}

function optionalTarget(input: CommandInput): ServerTarget | undefined {
  const given = stringOption(input.values, "stdio") !== undefined ||
    stringOption(input.values, "url") !== undefined ||
    input.rest.length > 0;
  return given ? targetFromInput(input, "verify") : undefined;
}

async function writeReports(input: CommandInput, report: VerifyReport): Promise<void> {
  const junit = stringOption(input.values, "junit");
  const badge = stringOption(input.values, "badge");
  if (junit !== undefined) {
    await writeFileSafely(junit, formatJunit(report), { what: "the JUnit report" });
  }
  if (badge !== undefined) await writeFileSafely(badge, formatBadge(report), { what: "the badge" });
  if (flag(input.values, "json")) await printOut(formatJson(report));
  else if (flag(input.values, "markdown")) await printOut(formatMarkdown(report));
  else {
    const color = colorEnabled("stdout", flag(input.values, "color"));
    await printOut(formatText(report, { color }));
  }
}

/** The `verify` command. */
export const command: Command = {
  name: "verify",
  summary: "Re-send a cassette to a new server build, grade the regressions",
  usage: 'verify CASSETTE (-- COMMAND ARGS… | --stdio "COMMAND LINE" | --url URL) [options]',
  description:
    "Re-sends the recorded client requests and notifications of CASSETTE to a live server, answers " +
    "the server's own requests (sampling, elicitation, roots, ping) from the recording, and compares " +
    "every answer with the recorded one. Each exchange passes or fails with a regression kind: " +
    "missing-response, error-status-change, structure-change, ordering-change, value-change. " +
    "Timestamps, UUIDs, _meta, ttlMs and session ids are masked; JSON inside a tool's text content is " +
    "compared structurally. The run is graded 0-100 (A-F) over responsiveness 25 %, match rate 45 %, " +
    "error parity 20 % and structural stability 10 %; any missing response caps the grade at D. " +
    "Exit 1 when a gate (--min-grade, --fail-on-regression) is not met. See docs/verify.md.",
  takesRest: true,
  options: VERIFY_OPTIONS,
  async run(input) {
    if (input.positionals.length !== 1) {
      throw new UsageError(
        `verify takes one cassette, got ${input.positionals.length} positional argument(s)`,
      );
    }
    const [cassettePath] = input.positionals;
    const minGrade = parseGrade(stringOption(input.values, "min-grade"));
    const timeoutMs = positiveInt(stringOption(input.values, "timeout-ms"), "timeout-ms", 10_000);
    const ignorePaths = stringList(input.values, "ignore-path");
    compileIgnorePaths(ignorePaths);
    const allowDestructive = flag(input.values, "allow-destructive");
    const choose = await planChooserFromFlags(input.values, cassettePath);
    const only = stringList(input.values, "only");
    const filters = parseOnly(only);
    const updateFailed = flag(input.values, "update-failed");
    if (flag(input.values, "dry-run")) {
      optionalTarget(input);
      const built = await planFile(cassettePath, { allowDestructive });
      const plan = chooseOnly(choose ? choose(built) : built, filters, cassettePath);
      await printOut(
        flag(input.values, "json") ? dryRunJson(plan) : formatDryRun(cassettePath, plan),
      );
      return ExitCode.Ok;
    }
    const target = optionalTarget(input);
    if (!target) {
      throw new UsageError(
        `verify needs a server: -- COMMAND ARGS…, --stdio "COMMAND LINE" or --url URL`,
      );
    }
    const report = await verifyCassette({
      cassette: cassettePath,
      target,
      timeoutMs,
      ignorePaths,
      allowReorder: flag(input.values, "allow-reorder"),
      allowDestructive,
      versionIsRegression: flag(input.values, "version-is-regression"),
      updatePath: flag(input.values, "update") ? cassettePath : undefined,
      serverName: describeTarget(target),
      choose,
      noiseRuns: positiveInt(stringOption(input.values, "noise-runs"), "noise-runs", 2),
      updateFailed,
      only,
      // What is written back goes through the recording's own redaction and secrets.
      rewriteRedactor: (header) => recordingRedactor(input.values, header, cassettePath),
    });
    await writeReports(input, report);
    if (report.rewritten) printRewritten(report);
    if (flag(input.values, "learn-noise")) await learnNoise(report);
    const gradeMissed = minGrade !== undefined && !meetsGrade(report.grade.letter, minGrade);
    const regressed = flag(input.values, "fail-on-regression") && report.failed > 0;
    return gradeMissed || regressed ? ExitCode.Failed : ExitCode.Ok;
  },
};

/** `--learn-noise`: the noise paths go into `[verify] ignore-path` of the nearest mcp-cassette.toml. */
async function learnNoise(report: VerifyReport): Promise<void> {
  const paths = (report.noise ?? []).map((item) => item.path);
  const { learnIgnores } = await import("../config/learn.ts");
  const learned = await learnIgnores(paths, undefined, { section: "verify", key: "ignore-path" });
  if (!learned || learned.added.length === 0) return;
  const flags = learned.added.map((path) => `--ignore-path ${path}`).join(" ");
  printErr(`mcp-cassette: learned ${flags}: written under [verify] in ${learned.file}`);
}

/** One stderr line: which answers were rewritten, and which failures had no answer to write. */
function printRewritten(report: VerifyReport): void {
  const name = (index: number) => {
    const exchange = report.exchanges.find((item) => item.index === index)!;
    return `#${index} ${exchange.method}${
      exchange.target !== undefined ? ` ${exchange.target}` : ""
    }`;
  };
  const rewritten = report.rewritten ?? [];
  const unanswered = report.exchanges
    .filter((exchange) => exchange.status === "fail" && !rewritten.includes(exchange.index))
    .map((exchange) => exchange.index);
  const kept = unanswered.length > 0
    ? `; no answer to write for ${unanswered.map(name).join(", ")}, left as recorded`
    : "";
  printErr(
    rewritten.length > 0
      ? `mcp-cassette: rewrote ${rewritten.length} answer(s) in ${report.cassette}: ${
        rewritten.map(name).join(", ")
      }${kept}`
      : `mcp-cassette: nothing rewritten in ${report.cassette}${kept}`,
  );
}
