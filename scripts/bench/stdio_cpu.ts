/**
 * The stdio replay's own work per call, without pipes or a client: runs
 * `mcp-cassette replay --quiet CASSETTE` in this process with stdin and
 * stdout replaced by in-memory streams, sends the recorded session's client
 * messages one at a time (each after the previous answer), and prints the
 * time per `tools/call` after a warm-up, median over rounds.
 *
 * Usage: deno run -A --v8-flags=--expose-gc scripts/bench/stdio_cpu.ts CASSETTE [--rounds 5] [--warmup 300]
 *
 * @module
 */
import { readFileSync } from "node:fs";
import process from "node:process";
import { parseArgs } from "node:util";
import { main } from "../../src/cli/main.ts";
import { runtime } from "../../src/runtime/mod.ts";

const { values, positionals } = parseArgs({
  args: process.argv.slice(2),
  allowPositionals: true,
  options: { rounds: { type: "string", default: "5" }, warmup: { type: "string", default: "300" } },
});
const cassette = positionals[0];
const encoder = new TextEncoder();
const decoder = new TextDecoder();
/** The client's side of the recorded session, in order: the lines replay will be sent. */
const requests = readFileSync(cassette, "utf8").split("\n").filter(Boolean).map((line) =>
  JSON.parse(line)
).filter((entry) => entry.dir === "c2s").map((entry) => JSON.stringify(entry.msg));

/** One in-process replay session; returns µs per call after the warm-up. */
async function session(warmup: number): Promise<number> {
  let next = 0;
  let answered: (() => void) | undefined;
  let previous: Promise<void> = Promise.resolve();
  let started = 0;
  const stdin = Object.assign(new ReadableStream<Uint8Array>(), {
    async readNow(): Promise<Uint8Array | undefined> {
      // The next line goes once the last request's answer is out, as a client waits for it.
      await previous;
      if (next >= requests.length) return undefined;
      if (next === warmup) started = performance.now();
      const line = requests[next++];
      if (line.includes('"id":')) previous = new Promise<void>((resolve) => (answered = resolve));
      return encoder.encode(line + "\n");
    },
  });
  const stdout = Object.assign(new WritableStream<Uint8Array>(), {
    writeNow(bytes: Uint8Array) {
      decoder.decode(bytes);
      const resolve = answered;
      answered = undefined;
      resolve?.();
    },
  });
  Object.defineProperty(runtime, "stdin", { get: () => stdin, configurable: true });
  Object.defineProperty(runtime, "stdout", { get: () => stdout, configurable: true });
  await main(["replay", "--quiet", cassette]);
  return (performance.now() - started) * 1000 / (requests.length - warmup);
}

const rounds: number[] = [];
for (let round = 0; round < Number(values.rounds); round++) {
  rounds.push(await session(Number(values.warmup)));
}
rounds.sort((a, b) => a - b);
console.log(
  `stdio replay in process, ${requests.length} client messages: ${
    rounds[rounds.length >> 1].toFixed(1)
  } µs per call (median of ${rounds.length}; ${rounds[0].toFixed(1)}–${
    rounds[rounds.length - 1].toFixed(1)
  })`,
);
