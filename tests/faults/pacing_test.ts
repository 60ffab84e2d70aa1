import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { UsageError } from "../../src/errors/errors.ts";
import { pacedDelay, parsePacing } from "../../src/faults/mod.ts";

describe("parsePacing", () => {
  it("defaults to instant with a 5000 ms cap", () => {
    assert.deepEqual(parsePacing({}), { mode: "instant", scale: 1, capMs: 5000 });
    assert.deepEqual(parsePacing({ pace: "instant" }), { mode: "instant", scale: 1, capMs: 5000 });
  });

  it("reads recorded pacing with a scale and a cap", () => {
    assert.deepEqual(parsePacing({ pace: "recorded" }), {
      mode: "recorded",
      scale: 1,
      capMs: 5000,
    });
    assert.deepEqual(parsePacing({ pace: "recorded", paceScale: "0.5", paceCapMs: "0" }), {
      mode: "recorded",
      scale: 0.5,
      capMs: 0,
    });
    assert.deepEqual(
      parsePacing({ paceScale: "2" }),
      { mode: "recorded", scale: 2, capMs: 5000 },
      "a scale implies recorded",
    );
    assert.deepEqual(parsePacing({ paceCapMs: "100" }), { mode: "recorded", scale: 1, capMs: 100 });
  });

  it("rejects bad values with a UsageError naming the flag", () => {
    const cases: [Parameters<typeof parsePacing>[0], RegExp][] = [
      [{ pace: "fast" }, /^--pace must be "recorded" or "instant", got "fast"$/],
      [
        { pace: "recorded", paceScale: "0" },
        /^--pace-scale must be a number greater than 0, got "0"$/,
      ],
      [{ pace: "recorded", paceScale: "-1" }, /--pace-scale must be a number/],
      [{ pace: "recorded", paceScale: "abc" }, /--pace-scale must be a number/],
      [{ pace: "recorded", paceScale: "" }, /--pace-scale must be a number/],
      [
        { pace: "recorded", paceCapMs: "1.5" },
        /^--pace-cap-ms must be a whole number of milliseconds \(0 = no cap\), got "1\.5"$/,
      ],
      [{ pace: "recorded", paceCapMs: "-5" }, /--pace-cap-ms must be a whole number/],
      [{ pace: "instant", paceScale: "2" }, /^--pace-scale has no effect with --pace instant/],
      [{ pace: "instant", paceCapMs: "10" }, /^--pace-cap-ms has no effect with --pace instant/],
    ];
    for (const [values, expected] of cases) {
      assert.throws(
        () => parsePacing(values),
        (error: Error) => error instanceof UsageError && expected.test(error.message),
        JSON.stringify(values),
      );
    }
  });
});

describe("pacedDelay", () => {
  it("is 0 when instant, whatever the gap", () => {
    assert.equal(pacedDelay(1234, { mode: "instant", scale: 1, capMs: 5000 }), 0);
  });

  it("scales the recorded gap and caps it; a 0 cap means none", () => {
    assert.equal(pacedDelay(300, { mode: "recorded", scale: 1, capMs: 5000 }), 300);
    assert.equal(pacedDelay(300, { mode: "recorded", scale: 0.5, capMs: 5000 }), 150);
    assert.equal(pacedDelay(8000, { mode: "recorded", scale: 1, capMs: 5000 }), 5000);
    assert.equal(
      pacedDelay(4000, { mode: "recorded", scale: 2, capMs: 5000 }),
      5000,
      "the cap applies after scaling",
    );
    assert.equal(pacedDelay(8000, { mode: "recorded", scale: 2, capMs: 0 }), 16000);
  });

  it("treats negative or broken gaps as no wait", () => {
    assert.equal(pacedDelay(-5, { mode: "recorded", scale: 1, capMs: 0 }), 0);
    assert.equal(pacedDelay(Number.NaN, { mode: "recorded", scale: 1, capMs: 0 }), 0);
  });
});
