/**
 * `replay --report` over stdio when the session ends by a signal, as when a
 * client stops its server or goes down with it: the report is written before
 * the replay exits, not only when stdin closes.
 */
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import process from "node:process";
import { CLI, initializeRequest, ROOT, tempDir } from "../helpers.ts";

const work = tempDir("mcp-cassette-report-signal-");
after(() => rmSync(work, { recursive: true, force: true }));

for (const signal of ["SIGTERM", "SIGINT"] as const) {
  test(`replay --report: written when ${signal} ends the session`, async () => {
    const report = path.join(work, `${signal}.json`);
    const cassette = path.join(ROOT, "examples", "cassettes", "weather.cassette.jsonl");
    const child = spawn(CLI[0], [...CLI.slice(1), "replay", cassette, "--report", report], {
      env: { ...process.env, NO_COLOR: "1" },
      stdio: ["pipe", "pipe", "pipe"],
    });
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    const answered = new Promise<void>((resolve) => {
      let text = "";
      child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
        text += chunk;
        if (text.includes("\n")) resolve();
      });
    });
    child.stderr.resume();
    child.stdin.write(JSON.stringify(initializeRequest(0)) + "\n");
    await answered;
    child.kill(signal);
    await exited;
    assert.ok(existsSync(report), `no report after ${signal}`);
    const written = JSON.parse(readFileSync(report, "utf8"));
    assert.ok(
      Array.isArray(written.unplayed) && written.unplayed.length > 0,
      JSON.stringify(written),
    );
    child.stdin.destroy();
  });
}
