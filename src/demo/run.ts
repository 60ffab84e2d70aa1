/**
 * The demo: record a session against the healthy server, verify it against
 * the healthy server and against its regressed twin, and show both reports.
 *
 * @module
 */
import { runtime } from "../runtime/mod.ts";
import { verifyCassette } from "../verify/mod.ts";
import type { VerifyReport } from "../verify/run.ts";
import { formatText } from "../verify/report.ts";
import { recordScript, toolCall } from "./record_script.ts";
import { runCheck } from "../check/run.ts";
import { formatCheckText } from "../check/report.ts";
import { StdioClientTransport } from "../client/stdio.ts";
import type { ScriptedCall } from "./record_script.ts";
import type { DemoVariant } from "./servers.ts";

/** The scripted session the demo records. */
export const DEMO_SCRIPT: readonly ScriptedCall[] = [
  { method: "tools/list", params: {} },
  toolCall("get_weather", { city: "Lisbon" }),
  toolCall("convert_currency", { amount: 250 }),
  toolCall("echo", { message: "hello" }),
];

/** What the demo found. */
export interface DemoOutcome {
  cassette: string;
  healthy: VerifyReport;
  regressed: VerifyReport;
  /** True when the healthy server passed cleanly and both drifts were caught in the twin. */
  asExpected: boolean;
  text: string;
}

/** The command that starts a demo server: this same CLI, hidden `--serve`. */
export function demoServerCommand(variant: DemoVariant): string[] {
  return [...runtime.selfCommand(), "demo", "--serve", variant];
}

/**
 * Runs the demo; `outDir` keeps the cassette there. Without it the cassette
 * goes to a temp folder, removed at the end unless `keep` is set.
 */
export async function runDemo(
  options: { outDir?: string; color?: boolean; keep?: boolean } = {},
): Promise<DemoOutcome> {
  const dir = options.outDir ?? await runtime.makeTempDir("mcp-cassette-demo-");
  const removeAfter = options.outDir === undefined && !options.keep;
  try {
    return await demoIn(dir, options, removeAfter);
  } finally {
    if (removeAfter) await runtime.remove(dir).catch(() => {});
  }
}

async function demoIn(
  dir: string,
  options: { outDir?: string; color?: boolean },
  removed: boolean,
): Promise<DemoOutcome> {
  if (options.outDir) await runtime.mkdir(options.outDir);
  const cassette = `${dir.replace(/[\\/]$/, "")}/demo.cassette.jsonl`;
  await recordScript(demoServerCommand("healthy"), DEMO_SCRIPT, cassette);
  const verify = (variant: DemoVariant) =>
    verifyCassette({
      cassette,
      target: { kind: "stdio", command: demoServerCommand(variant) },
      serverName: variant,
    });
  // The cassette is itself a server: `check` must see the same thing in it as live.
  const live = formatCheckText(
    await runCheck(new StdioClientTransport(demoServerCommand("healthy"))),
  );
  const replayed = formatCheckText(
    await runCheck(
      new StdioClientTransport([...runtime.selfCommand(), "replay", "--quiet", cassette]),
    ),
  );
  const checkLine = live === replayed
    ? `check: the live server and \`replay\` of its cassette give the same report (${
      live.includes("result: PASS") ? "PASS" : "FAIL"
    })`
    : `check: the replay's report differs from the live server's:\n${replayed}`;
  const healthy = await verify("healthy");
  const regressed = await verify("regressed");
  const asExpected = live === replayed && healthy.grade.letter === "A" && healthy.failed === 0 &&
    regressed.grade.letter !== "A" &&
    regressed.kinds["value-change"] > 0 && regressed.kinds["structure-change"] > 0;
  const color = options.color ?? false;
  const text = [
    `Recorded ${DEMO_SCRIPT.length + 1} requests against the healthy demo server ${
      removed ? "(into a temp folder removed at the end; --keep keeps it)" : `into ${cassette}`
    }`,
    checkLine,
    "",
    formatText(healthy, {
      color,
      title: "== verify against the HEALTHY server (expect grade A, no regressions) ==",
    }),
    formatText(regressed, {
      color,
      title: "== verify against the REGRESSED twin (same tools/list, drifted behaviour) ==",
    }),
    asExpected
      ? `demo OK: healthy grade ${healthy.grade.letter}, twin grade ${regressed.grade.letter}; ` +
        `tools/list is identical, yet verify caught the value change and the structure change.`
      : `demo FAILED: healthy grade ${healthy.grade.letter}, twin grade ${regressed.grade.letter} (expected A and below A).`,
  ].join("\n");
  return { cassette, healthy, regressed, asExpected, text: text + "\n" };
}
