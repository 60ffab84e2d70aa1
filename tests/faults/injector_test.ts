import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { UsageError } from "../../src/errors/errors.ts";
import { createFaultInjector, parseFaultOverlay, parseFaultSeed } from "../../src/faults/mod.ts";
import type { FaultSubject } from "../../src/faults/mod.ts";
import { callTool, request } from "./helpers.ts";

function overlayOf(entries: unknown[], seed?: number) {
  return parseFaultOverlay(
    JSON.stringify(seed === undefined ? { faults: entries } : { faults: entries, seed }),
    "test.json",
  );
}

/** 1-based positions in `subjects` at which the injector returned faults. */
function firedAt(
  entries: unknown[],
  subjects: FaultSubject[],
  seed?: number,
  optionSeed?: number,
): number[] {
  const injector = createFaultInjector(
    overlayOf(entries, seed),
    optionSeed === undefined ? {} : { seed: optionSeed },
  );
  return subjects.flatMap((subject, i) => (injector.faultsFor(subject).length > 0 ? [i + 1] : []));
}

const timeout = { kind: "timeout" };

describe("createFaultInjector: occurrences", () => {
  it("fires on the nth matching request only, counting only matches", () => {
    const injector = createFaultInjector(overlayOf([
      {
        match: { method: "tools/call", tool: "get-sum", nth: 2 },
        fault: { kind: "error", code: -32000, message: "rate limited" },
      },
    ]));
    assert.deepEqual(injector.faultsFor(callTool("get-sum")), []);
    assert.deepEqual(injector.faultsFor(callTool("echo")), [], "another tool does not count");
    assert.deepEqual(injector.faultsFor(request("tools/list")), []);
    assert.deepEqual(injector.faultsFor(callTool("get-sum")), [{
      kind: "error",
      code: -32000,
      message: "rate limited",
    }]);
    assert.deepEqual(injector.faultsFor(callTool("get-sum")), [], "nth 2 fires once");
  });

  it("takes a list of occurrences, or every one (the default)", () => {
    const calls = Array.from({ length: 6 }, () => callTool("x"));
    assert.deepEqual(
      firedAt([{ match: { method: "tools/call", nth: [5, 1, 3] }, fault: timeout }], calls),
      [1, 3, 5],
    );
    assert.deepEqual(
      firedAt([{ match: { method: "tools/call", nth: "every" }, fault: timeout }], calls),
      [1, 2, 3, 4, 5, 6],
    );
    assert.deepEqual(firedAt([{ match: { method: "tools/call" }, fault: timeout }], calls), [
      1,
      2,
      3,
      4,
      5,
      6,
    ]);
  });

  it("counts each entry on its own and applies entries in file order", () => {
    const injector = createFaultInjector(overlayOf([
      { match: { method: "tools/call", nth: 2 }, fault: { kind: "delay", ms: 100 } },
      { match: { tool: "b" }, fault: { kind: "disconnect" } },
    ]));
    assert.deepEqual(injector.faultsFor(callTool("b")), [{ kind: "disconnect" }]);
    assert.deepEqual(injector.faultsFor(callTool("b")), [{ kind: "delay", ms: 100 }, {
      kind: "disconnect",
    }]);
  });

  it("hands out copies, so the engine cannot change the overlay", () => {
    const injector = createFaultInjector(
      overlayOf([{ match: { method: "ping" }, fault: { kind: "delay", ms: 5 } }]),
    );
    const first = injector.faultsFor(request("ping"));
    (first[0] as { ms: number }).ms = 999;
    assert.deepEqual(injector.faultsFor(request("ping")), [{ kind: "delay", ms: 5 }]);
  });
});

describe("createFaultInjector: targets", () => {
  const subjects = [
    callTool("get-sum"),
    request("prompts/get", { name: "greeting" }),
    request("resources/read", { uri: "file:///a.txt" }),
    request("resources/read", { uri: "file:///b.txt" }),
    callTool("get-product"),
    request("tools/list"),
    request("resources/subscribe", { uri: "file:///a.txt" }),
  ];

  it("by tool, prompt and uri name", () => {
    assert.deepEqual(firedAt([{ match: { tool: "get-sum" }, fault: timeout }], subjects), [1]);
    assert.deepEqual(firedAt([{ match: { prompt: "greeting" }, fault: timeout }], subjects), [2]);
    assert.deepEqual(firedAt([{ match: { uri: "file:///a.txt" }, fault: timeout }], subjects), [
      3,
      7,
    ]);
    assert.deepEqual(
      firedAt(
        [{ match: { method: "resources/read", uri: "file:///a.txt" }, fault: timeout }],
        subjects,
      ),
      [3],
    );
  });

  it("by method, with * as a wildcard in any target", () => {
    assert.deepEqual(firedAt([{ match: { method: "tools/*" }, fault: timeout }], subjects), [
      1,
      5,
      6,
    ]);
    assert.deepEqual(firedAt([{ match: { tool: "get-*" }, fault: timeout }], subjects), [1, 5]);
    assert.deepEqual(
      firedAt([{ match: { uri: "file:///*.txt", nth: 2 }, fault: timeout }], subjects),
      [4],
    );
    assert.deepEqual(firedAt([{ match: { method: "resources/read" }, fault: timeout }], subjects), [
      3,
      4,
    ]);
  });

  it("reads the name from the message when the subject does not carry it", () => {
    const injector = createFaultInjector(
      overlayOf([{ match: { tool: "get-sum" }, fault: timeout }]),
    );
    const message = {
      jsonrpc: "2.0" as const,
      id: 9,
      method: "tools/call",
      params: { name: "get-sum" },
    };
    assert.deepEqual(injector.faultsFor({ method: "tools/call", message }), [{ kind: "timeout" }]);
  });
});

describe("createFaultInjector: probability and seeds", () => {
  const calls = Array.from({ length: 200 }, () => callTool("x"));
  const coin = [{ match: { method: "tools/call", probability: 0.3 }, fault: timeout }];

  it("picks the same requests with the same seed", () => {
    const first = firedAt(coin, calls, 7);
    assert.deepEqual(firedAt(coin, calls, 7), first);
    assert.deepEqual(
      firedAt(coin, calls, undefined, 7),
      first,
      "an option seed acts like the file's",
    );
    // Roughly the asked-for share, and neither none nor all.
    assert.ok(first.length > 30 && first.length < 90, `fired ${first.length} of 200`);
  });

  it("picks different requests with a different seed", () => {
    assert.notDeepEqual(firedAt(coin, calls, 7), firedAt(coin, calls, 8));
  });

  it("lets the option seed override the file's", () => {
    assert.deepEqual(firedAt(coin, calls, 7, 8), firedAt(coin, calls, 8));
    assert.notDeepEqual(firedAt(coin, calls, 7, 8), firedAt(coin, calls, 7));
    assert.equal(createFaultInjector(overlayOf(coin, 7), { seed: 8 }).seed, 8);
    assert.equal(
      createFaultInjector(overlayOf(coin)).seed,
      0,
      "no seed anywhere: 0, still repeatable",
    );
  });

  it("keeps a named entry's picks when another entry is added before it, and an unnamed one's when added after", () => {
    const named = [{ name: "coin", ...coin[0] }];
    const other = {
      match: { method: "tools/call", probability: 0.5 },
      fault: { kind: "delay", ms: 1 },
    };
    const timeoutsAt = (entries: unknown[]) => {
      const injector = createFaultInjector(overlayOf(entries, 3));
      return calls.flatMap((subject, i) =>
        injector.faultsFor(subject).some((f) => f.kind === "timeout") ? [i + 1] : []
      );
    };
    assert.deepEqual(timeoutsAt([other, ...named]), timeoutsAt(named));
    assert.deepEqual(timeoutsAt([...coin, other]), timeoutsAt(coin));
    assert.notDeepEqual(
      timeoutsAt([other, ...coin]),
      timeoutsAt(coin),
      "unnamed entries are keyed by position",
    );
  });

  it("uses independent dice per entry", () => {
    const alone = firedAt(coin, calls, 3);
    const injector = createFaultInjector(
      overlayOf([...coin, { ...coin[0], fault: { kind: "disconnect" } }], 3),
    );
    const kinds = calls.map((subject) => injector.faultsFor(subject).map((f) => f.kind));
    assert.deepEqual(kinds.flatMap((k, i) => k.includes("timeout") ? [i + 1] : []), alone);
    assert.notDeepEqual(kinds.flatMap((k, i) => k.includes("disconnect") ? [i + 1] : []), alone);
  });

  it("combines nth with probability: dice only on the listed occurrences", () => {
    const entries = [{
      match: { method: "tools/call", nth: [1, 2, 3, 4], probability: 1 },
      fault: timeout,
    }];
    assert.deepEqual(firedAt(entries, calls, 1), [1, 2, 3, 4]);
    assert.deepEqual(firedAt([{ match: { probability: 0 }, fault: timeout }], calls, 1), []);
  });

  it("a probability alone targets every request", () => {
    assert.deepEqual(
      firedAt([{ match: { probability: 1 }, fault: timeout }], [request("ping"), callTool("x")]),
      [1, 2],
    );
  });

  it("parses a seed flag", () => {
    assert.equal(parseFaultSeed("42"), 42);
    assert.equal(parseFaultSeed("-3"), -3);
    assert.throws(() => parseFaultSeed("4.2"), UsageError);
    assert.throws(
      () => parseFaultSeed("seven", "--fault-seed"),
      /--fault-seed must be an integer, got "seven"/,
    );
  });
});

describe("createFaultInjector: unfired", () => {
  it("lists entries that never fired, naming index, name, kind and target", () => {
    const injector = createFaultInjector(overlayOf([
      {
        match: { method: "tools/call", tool: "get-sum", nth: 1 },
        fault: { kind: "delay", ms: 10 },
      },
      {
        match: { method: "tools/call", tool: "get-sum", nth: 3 },
        fault: { kind: "error", code: 1, message: "m" },
      },
      {
        name: "flaky list",
        target: { method: "tools/list", probability: 0.5 },
        type: "disconnect",
      },
      {
        match: { uri: "file:///x" },
        fault: [{ kind: "delay", ms: 1 }, { kind: "malformed", strategy: "truncate" }],
      },
    ]));
    injector.faultsFor(callTool("get-sum"));
    injector.faultsFor(callTool("get-sum"));
    assert.deepEqual(injector.unfired(), [
      "fault #2 (error on tools/call get-sum nth 3) never fired",
      'fault #3 "flaky list" (disconnect on tools/list probability 0.5) never fired',
      "fault #4 (delay+malformed on resources/read file:///x) never fired",
    ]);
    injector.faultsFor(callTool("get-sum"));
    assert.equal(injector.unfired().length, 2);
    assert.deepEqual(injector.fireCounts().map((count) => count.fired), [1, 1, 0, 0]);
  });
});
