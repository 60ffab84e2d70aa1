import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { CassetteError, ExitCode } from "../../src/errors/errors.ts";
import { FaultOverlayError, loadFaultOverlay, parseFaultOverlay } from "../../src/faults/mod.ts";

describe("parseFaultOverlay", () => {
  it("reads our format: match, fault, name and seed", () => {
    const overlay = parseFaultOverlay(
      JSON.stringify({
        seed: 7,
        faults: [{
          name: "rate limit",
          match: { method: "tools/call", tool: "get-sum", nth: 2 },
          fault: { kind: "error", code: -32000, message: "rate limited", data: { retry: 1 } },
        }],
      }),
      "faults.json",
    );
    assert.equal(overlay.source, "faults.json");
    assert.equal(overlay.seed, 7);
    assert.deepEqual(overlay.entries, [{
      index: 1,
      name: "rate limit",
      match: { method: "tools/call", tool: "get-sum", nth: [2] },
      faults: [{ kind: "error", code: -32000, message: "rate limited", data: { retry: 1 } }],
    }]);
  });

  it("loads a Python mcp-cassette overlay as it is", () => {
    const text = JSON.stringify({
      faults: [
        {
          target: { method: "tools/call", nth: 1 },
          type: "error",
          params: { code: -32000, message: "rate limited" },
        },
        { target: { method: "tools/list" }, type: "delay", params: { ms: 250 } },
        { target: { method: "resources/read" }, type: "timeout" },
        {
          target: { method: "prompts/get", nth: 3 },
          type: "malformed",
          params: { strategy: "wrong_id" },
        },
        { target: { method: "ping" }, type: "disconnect" },
      ],
    });
    const overlay = parseFaultOverlay(text, "python.json");
    assert.deepEqual(overlay.entries.map((entry) => entry.faults), [
      [{ kind: "error", code: -32000, message: "rate limited" }],
      [{ kind: "delay", ms: 250 }],
      [{ kind: "timeout" }],
      [{ kind: "malformed", strategy: "wrong_id" }],
      [{ kind: "disconnect" }],
    ]);
    assert.deepEqual(overlay.entries[0].match, { method: "tools/call", nth: [1] });
    assert.equal(overlay.entries[1].match.nth, "every");
  });

  it("accepts JSONC comments and trailing commas", () => {
    const overlay = parseFaultOverlay(
      `// which calls to break
      {
        /* the second sum is slow */
        "faults": [
          {"match": {"tool": "get-sum", "nth": [2, 4]}, "fault": {"kind": "delay", "ms": 300},},
        ],
      }`,
      "faults.jsonc",
    );
    assert.deepEqual(overlay.entries[0].match.nth, [2, 4]);
    assert.deepEqual(overlay.entries[0].faults, [{ kind: "delay", ms: 300 }]);
  });

  it("takes a list of faults in one entry, and a bare list at the top", () => {
    const overlay = parseFaultOverlay(
      `[{"match": {"method": "tools/call"}, "fault": [{"kind": "delay", "ms": 10}, {"kind": "disconnect"}]}]`,
      "list.json",
    );
    assert.deepEqual(overlay.entries[0].faults, [{ kind: "delay", ms: 10 }, {
      kind: "disconnect",
    }]);
  });

  it("fills the headers a client expects for 401, 429 and 503, and keeps the user's", () => {
    const overlay = parseFaultOverlay(
      JSON.stringify({
        faults: [
          { match: { method: "initialize" }, fault: { kind: "http-status", status: 401 } },
          { match: { method: "tools/call" }, fault: { kind: "http-status", status: 429 } },
          {
            match: { method: "tools/list" },
            fault: { kind: "http-status", status: 503, headers: { "retry-after": 30 } },
          },
          { match: { method: "ping" }, fault: { kind: "http-status", status: 500, body: "boom" } },
          {
            match: { method: "resources/list" },
            fault: {
              kind: "http-status",
              status: 401,
              headers: { "WWW-Authenticate": 'Bearer resource_metadata="x"' },
            },
          },
        ],
      }),
      "http.json",
    );
    assert.deepEqual(overlay.entries.map((entry) => entry.faults[0]), [
      { kind: "http-status", status: 401, headers: { "WWW-Authenticate": "Bearer" } },
      { kind: "http-status", status: 429, headers: { "Retry-After": "1" } },
      { kind: "http-status", status: 503, headers: { "retry-after": "30" } },
      { kind: "http-status", status: 500, headers: {}, body: "boom" },
      {
        kind: "http-status",
        status: 401,
        headers: { "WWW-Authenticate": 'Bearer resource_metadata="x"' },
      },
    ]);
  });

  it("reads sse-drop in both spellings", () => {
    const overlay = parseFaultOverlay(
      JSON.stringify({
        faults: [
          { match: { method: "tools/call" }, fault: { kind: "sse-drop", afterEvents: 2 } },
          { target: { method: "tools/call" }, type: "sse_drop", params: { after_events: 0 } },
        ],
      }),
      "sse.json",
    );
    assert.deepEqual(overlay.entries.map((entry) => entry.faults[0]), [
      { kind: "sse-drop", afterEvents: 2 },
      { kind: "sse-drop", afterEvents: 0 },
    ]);
  });
});

/** Parses `faults` (one entry each) and returns the error thrown. */
function failure(text: string, file = "bad.json"): FaultOverlayError {
  try {
    parseFaultOverlay(text, file);
  } catch (error) {
    assert.ok(error instanceof FaultOverlayError, `expected a FaultOverlayError, got ${error}`);
    assert.ok(error instanceof CassetteError);
    assert.equal(error.exitCode, ExitCode.BadInput);
    assert.ok(!error.message.includes("\n"), "the message is one line");
    return error;
  }
  assert.fail(`parsing succeeded: ${text}`);
}

function entryFailure(entry: unknown, file = "bad.json"): FaultOverlayError {
  const ok = { match: { method: "ping" }, fault: { kind: "timeout" } };
  return failure(JSON.stringify({ faults: [ok, entry] }), file);
}

describe("parseFaultOverlay rejects bad input", () => {
  it("a file that does not parse: names file, line and column", () => {
    const error = failure(
      `{\n  "faults": [\n    {"match": {"method": "ping"} "fault": {}}\n  ]\n}`,
      "broken.jsonc",
    );
    assert.match(error.message, /^broken\.jsonc:3:34: not valid JSON\/JSONC \(CommaExpected\)$/);
  });

  it("an empty file", () => {
    assert.match(failure("  \n", "empty.json").message, /^empty\.json: the file is empty/);
  });

  it("a top level that is not an object, or has no faults list", () => {
    assert.match(failure(`42`).message, /^bad\.json: the top level must be an object/);
    assert.match(failure(`{"fault": []}`).message, /^bad\.json: unknown field "fault"/);
    assert.match(
      failure(`{"faults": {}}`).message,
      /^bad\.json: "faults" must be a list, got \{\}/,
    );
    assert.match(
      failure(`{"faults": [], "seed": "7"}`).message,
      /^bad\.json: seed must be an integer, got "7"/,
    );
  });

  it("an unknown kind, in either spelling", () => {
    const ours = entryFailure({
      name: "boom",
      match: { method: "ping" },
      fault: { kind: "explode" },
    });
    assert.match(
      ours.message,
      /^bad\.json: fault #2 "boom": unknown fault kind "explode" \(known: delay, /,
    );
    const python = entryFailure({ target: { method: "ping" }, type: "explode" });
    assert.match(python.message, /^bad\.json: fault #2: unknown fault kind "explode"/);
  });

  it("a bad field type", () => {
    const cases: [unknown, RegExp][] = [
      [
        { match: { method: "ping" }, fault: { kind: "delay", ms: "100" } },
        /fault #2: fault\.ms must be an integer >= 0, got "100"/,
      ],
      [
        { target: { method: "ping" }, type: "delay", params: { ms: -1 } },
        /fault #2: params\.ms must be an integer >= 0, got -1/,
      ],
      [
        { match: { method: "ping" }, fault: { kind: "error", code: "x", message: "m" } },
        /fault\.code must be an integer/,
      ],
      [
        { match: { method: "ping" }, fault: { kind: "error", code: 1, message: 5 } },
        /fault\.message must be a string, got 5/,
      ],
      [
        { match: { method: "ping" }, fault: { kind: "malformed", strategy: "garble" } },
        /fault\.strategy must be one of truncate, not_json, wrong_id, got "garble"/,
      ],
      [
        { match: { method: "ping" }, fault: { kind: "http-status", status: 42 } },
        /fault\.status must be an integer from 100 to 599, got 42/,
      ],
      [{
        match: { method: "ping" },
        fault: { kind: "http-status", status: 500, headers: { a: true } },
      }, /fault\.headers\.a must be a string, got true/],
      [
        { match: { method: "ping" }, fault: { kind: "sse-drop" } },
        /fault\.afterEvents must be an integer >= 0, got nothing/,
      ],
      [
        { match: { method: "ping" }, fault: { kind: "delay", ms: 5, seconds: 1 } },
        /unknown field "fault\.seconds"/,
      ],
      [
        { match: { method: 7 }, fault: { kind: "timeout" } },
        /match\.method must be a non-empty string, got 7/,
      ],
      [
        { match: { method: "ping", nth: 0 }, fault: { kind: "timeout" } },
        /match\.nth must be a positive integer, a list of them, or "every", got 0/,
      ],
      [
        { match: { method: "ping", nth: "2" }, fault: { kind: "timeout" } },
        /match\.nth must be a positive integer/,
      ],
      [
        { match: { method: "ping", nth: [] }, fault: { kind: "timeout" } },
        /match\.nth must be a positive integer/,
      ],
      [
        { match: { probability: 1.5 }, fault: { kind: "timeout" } },
        /match\.probability must be a number from 0 to 1, got 1\.5/,
      ],
      [
        { match: { method: "ping", tools: "x" }, fault: { kind: "timeout" } },
        /unknown field "match\.tools"/,
      ],
      [
        { match: { method: "resources/read", tool: "x" }, fault: { kind: "timeout" } },
        /match\.tool applies to tools\/call, not method "resources\/read"/,
      ],
      [{ match: { tool: "x", uri: "y" }, fault: { kind: "timeout" } }, /gives both tool and uri/],
      [{ match: { method: "ping" } }, /says no fault to inject/],
      [
        { match: { method: "ping" }, fault: { kind: "timeout" }, type: "timeout" },
        /give "fault" or "type"\/"params", not both/,
      ],
      [
        { match: { method: "ping" }, target: { method: "ping" }, fault: { kind: "timeout" } },
        /give "match" or "target", not both/,
      ],
      [
        { name: 3, match: { method: "ping" }, fault: { kind: "timeout" } },
        /name must be a non-empty string, got 3/,
      ],
      ["ping", /fault #2: must be an object, got "ping"/],
    ];
    for (const [entry, expected] of cases) {
      const error = entryFailure(entry, "faults.json");
      assert.match(error.message, /^faults\.json: fault #2/, JSON.stringify(entry));
      assert.match(error.message, expected, JSON.stringify(entry));
    }
  });

  it("an entry that targets nothing", () => {
    const error = entryFailure({ name: "orphan", match: { nth: 2 }, fault: { kind: "timeout" } });
    assert.equal(
      error.message,
      'bad.json: fault #2 "orphan": targets nothing: give match.method, tool, prompt, uri or probability',
    );
    assert.equal(error.file, "bad.json");
    assert.equal(error.entry, 'fault #2 "orphan"');
    assert.match(
      entryFailure({ type: "timeout" }).message,
      /fault #2: .*match must be an object, got nothing/,
    );
  });
});

describe("loadFaultOverlay", () => {
  it("reads a file, and names it when it is missing or broken", async () => {
    const dir = await mkdtemp(join(tmpdir(), "faults-"));
    try {
      const good = join(dir, "faults.jsonc");
      await writeFile(
        good,
        `{"faults": [{"match": {"method": "ping"}, "fault": {"kind": "timeout"}}]} // done`,
      );
      const overlay = await loadFaultOverlay(good);
      assert.equal(overlay.source, good);
      assert.deepEqual(overlay.entries[0].faults, [{ kind: "timeout" }]);

      const bad = join(dir, "bad.json");
      await writeFile(
        bad,
        `{"faults": [{"match": {"method": "ping"}, "fault": {"kind": "nope"}}]}`,
      );
      await assert.rejects(loadFaultOverlay(bad), (error: Error) => {
        assert.ok(error instanceof FaultOverlayError);
        assert.equal(
          error.message,
          `${bad}: fault #1: unknown fault kind "nope" (known: delay, timeout, error, malformed, disconnect, http-status, sse-drop)`,
        );
        return true;
      });

      const missing = join(dir, "missing.json");
      await assert.rejects(loadFaultOverlay(missing), (error: Error) => {
        assert.ok(error instanceof FaultOverlayError);
        assert.equal(error.message, `${missing}: cannot read the fault overlay: no such file`);
        return true;
      });
    } finally {
      await rm(dir, { recursive: true });
    }
  });
});
