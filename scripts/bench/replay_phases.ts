/**
 * Where replay's start-up time goes, phase by phase (module loading, cassette
 * loading, engine, redactor). Usage: deno run -A --no-check scripts/bench/replay_phases.ts CASSETTE
 */
const t0 = performance.now();
const { main } = await import("../../src/cli/main.ts");
const t1 = performance.now();
const { loadCommand } = await import("../../src/cli/registry.ts");
await loadCommand("replay");
const t2 = performance.now();
const { loadCassette } = await import("../../src/cassette/reader.ts");
const c = await loadCassette(Deno.args[0]);
const t3 = performance.now();
const { ReplayEngine } = await import("../../src/replay/engine.ts");
new ReplayEngine(c);
const t4 = performance.now();
const { createReplayRedactor } = await import("../../src/redact/mod.ts");
await createReplayRedactor(c.header.redaction);
const t5 = performance.now();
void main;
console.log(
  `start ${t0.toFixed(1)} main ${(t1 - t0).toFixed(1)} replay-cmd ${(t2 - t1).toFixed(1)} load ${
    (t3 - t2).toFixed(1)
  } engine ${(t4 - t3).toFixed(1)} redactor ${(t5 - t4).toFixed(1)}`,
);
