/**
 * What keeping the journal costs one request, apart from the rest of the
 * replay, in figures a loaded machine barely moves: the CPU time of
 * `journalRequest` itself (10,000 `tools/call` requests held for the
 * recording's redaction, as the HTTP replay journals them) and the heap it
 * keeps per request, measured after a full collection, while the arguments
 * wait for redaction and once they are redacted. The arguments objects are
 * kept alive on both sides of the measure: what is counted is the journal's
 * own memory. Each tree runs in fresh processes, alternating.
 *
 * Usage: deno run -A scripts/bench/journal_cost.ts [--base DIR] [--rounds 5]
 *   (DIR: another checkout, e.g. a commit exported with `git archive`)
 *
 * @module
 */
import { spawnSync } from "node:child_process";
import path from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const DENO = path.join(ROOT, "node_modules", ".bin", "deno");
const N = 10_000;

type Figures = { usPerRequest: number; heldBytes: number; settledBytes: number };

/** The child: one tree's journal; prints its figures as JSON. */
async function child(tree: string): Promise<void> {
  const journalModule = await import(path.join(tree, "src/replay/journal.ts"));
  const { journalRequest, emptyJournal, settleJournal } = journalModule;
  const gc = (globalThis as { gc?: () => void }).gc!;
  const redact = (message: unknown) => ({ message });
  const key = { method: "tools/call", name: "echo", key: "tools/call echo" };
  const messages = () =>
    Array.from({ length: N }, (_, i) =>
      JSON.parse(JSON.stringify({
        jsonrpc: "2.0",
        id: i,
        method: "tools/call",
        params: { name: "echo", arguments: { message: `m${i % 20}` } },
      })));
  const times: number[] = [];
  for (let round = 0; round < 30; round++) {
    const journal = emptyJournal(N);
    const live = messages();
    const cpu = process.cpuUsage();
    for (let i = 0; i < N; i++) {
      journalRequest(journal, live[i], key, "s-1", "exact", 5 + i, redact);
    }
    const used = process.cpuUsage(cpu);
    times.push((used.user + used.system) / N);
    await settleJournal(journal);
  }
  const live = messages();
  gc();
  const before = process.memoryUsage().heapUsed;
  const journal = emptyJournal(N);
  for (let i = 0; i < N; i++) journalRequest(journal, live[i], key, "s-1", "exact", 5 + i, redact);
  gc();
  const held = process.memoryUsage().heapUsed;
  await settleJournal(journal);
  gc();
  const settled = process.memoryUsage().heapUsed;
  const figures: Figures = {
    usPerRequest: median(times),
    heldBytes: (held - before) / N,
    settledBytes: (settled - before) / N,
  };
  console.log(JSON.stringify(figures), live.length, journal.requests.length);
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1];

function main(): void {
  const { values } = parseArgs({
    options: {
      base: { type: "string" },
      rounds: { type: "string", default: "5" },
      child: { type: "string" },
    },
  });
  if (values.child) return void child(values.child);
  const trees: Record<string, string> = { this: ROOT };
  if (values.base) trees.base = path.resolve(values.base);
  const runs: Record<string, Figures[]> = { base: [], this: [] };
  for (let round = 0; round < Number(values.rounds); round++) {
    const names = Object.keys(trees);
    for (const name of round % 2 ? names.reverse() : names) {
      const args = ["run", "-A", "--no-check", "--v8-flags=--expose-gc"];
      args.push(fileURLToPath(import.meta.url), "--child", trees[name]);
      const out = spawnSync(DENO, args, { encoding: "utf8" });
      if (out.status !== 0) throw new Error(out.stderr);
      runs[name].push(JSON.parse(out.stdout.trim().split("\n").pop()!.split(" ")[0]));
    }
  }
  const row = (name: string) => {
    const of = (field: keyof Figures) => median(runs[name].map((r) => r[field]));
    return `| ${name} | ${of("usPerRequest").toFixed(2)} µs | ${of("heldBytes").toFixed(0)} B | ${
      of("settledBytes").toFixed(0)
    } B |`;
  };
  console.log(
    [
      `| journal, ${N} requests (medians of ${values.rounds} processes) | CPU per request | heap kept per request, waiting | redacted |`,
      "| --- | ---: | ---: | ---: |",
      ...Object.keys(trees).map(row),
    ].join("\n"),
  );
}

main();
