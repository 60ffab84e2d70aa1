/**
 * A stdio replay with nothing to do reads its stdin blocking (Deno:
 * src/runtime/deno_stdin.ts), where the main thread runs no signal listener
 * until the read returns. A signal must still end it at once, with its
 * report written: the client here keeps stdin open and sends nothing more.
 * (Deno's read returns when a signal with a listener interrupts it; a
 * runtime that restarted the read instead would hang here.)
 */
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import process from "node:process";
import { CLI, initializeRequest, ROOT, tempDir } from "../helpers.ts";

const work = tempDir("mcp-cassette-report-blocked-");
after(() => rmSync(work, { recursive: true, force: true }));

/** Sends `line`, resolves with the next line the replay answers. */
function ask(child: ReturnType<typeof spawn>, line: string): Promise<string> {
  return new Promise((resolve) => {
    let text = "";
    const onData = (chunk: string) => {
      text += chunk;
      if (!text.includes("\n")) return;
      child.stdout!.off("data", onData);
      resolve(text);
    };
    child.stdout!.on("data", onData);
    child.stdin!.write(line + "\n");
  });
}

for (const signal of ["SIGTERM", "SIGINT"] as const) {
  test(`replay --report: an idle replay ends on ${signal} within seconds, its report written`, async () => {
    const report = path.join(work, `${signal}.json`);
    const cassette = path.join(ROOT, "examples", "cassettes", "weather.cassette.jsonl");
    const child = spawn(CLI[0], [...CLI.slice(1), "replay", cassette, "--report", report], {
      env: { ...process.env, NO_COLOR: "1" },
      stdio: ["pipe", "pipe", "pipe"],
    });
    child.stdout.setEncoding("utf8");
    child.stderr.resume();
    const exited = new Promise<number | null>((resolve) =>
      child.once("exit", (code) => resolve(code))
    );
    await ask(child, JSON.stringify(initializeRequest(0)));
    // Pings, then a pause: the replay is idle, reading blocking.
    for (let id = 1; id <= 20; id++) {
      await ask(child, JSON.stringify({ jsonrpc: "2.0", id, method: "ping" }));
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
    child.kill(signal);
    const timeout = new Promise<"hung">((resolve) => setTimeout(() => resolve("hung"), 10_000));
    const ended = await Promise.race([exited, timeout]);
    child.stdin.destroy();
    if (ended === "hung") child.kill("SIGKILL");
    assert.notEqual(
      ended,
      "hung",
      `the replay did not end on ${signal} while its stdin stayed open`,
    );
    // The report is written by the replay's own listener: a signal that ended
    // the process before the listener ran leaves none.
    assert.ok(existsSync(report), `no report after ${signal}`);
    assert.ok(Array.isArray(JSON.parse(readFileSync(report, "utf8")).unplayed));
  });
}
