import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createHash } from "node:crypto";
import { CassetteError } from "../../src/errors/errors.ts";
import { createRedactor, createReplayRedactor } from "../../src/redact/mod.ts";
import type { Json } from "../../src/jsonrpc/messages.ts";

const dir = mkdtempSync(join(tmpdir(), "redact-pack-"));
after(() => rmSync(dir, { recursive: true, force: true }));

function pack(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

const ACME = String.raw`
name = "acme"

[[rules]]
label = "customer-id"
regex = 'ACME-\d{6}'
strategy = "hash"

[[rules]]
label = "card-tail"
regex = 'card (?<secret>\d{12,16})'
strategy = "mask"
direction = "s2c"

[[rules]]
label = "tenant"
key = "*tenant*"

[[rules]]
label = "ssn-arg"
pointer = "/params/arguments/ssn"
direction = "c2s"
`;

function text(value: Json): string {
  return JSON.stringify(value);
}

describe("rule packs", () => {
  it("loads a valid pack and applies its strategies and directions", async () => {
    const path = pack("acme.toml", ACME);
    const redactor = await createRedactor({ packs: [path], detectors: false });
    const c2s = redactor.message({
      jsonrpc: "2.0",
      id: 1,
      method: "x",
      params: { arguments: { ssn: "1", who: "ACME-123456", tenantName: "t" } },
    }, "c2s");
    assert.match(text(c2s), /"ssn":"\[REDACTED:ssn-arg\]"/);
    assert.match(text(c2s), /"who":"\[HASH:customer-id:[0-9a-f]{8}\]"/);
    assert.match(text(c2s), /"tenantName":"\[REDACTED:tenant\]"/);
    // Direction: the mask rule is s2c only; the pointer rule c2s only.
    assert.equal(redactor.text("card 4000123412341234", "c2s"), "card 4000123412341234");
    assert.equal(redactor.text("card 4000123412341234", "s2c"), "card [MASK:card-tail:****1234]");
    const s2c = redactor.message({ jsonrpc: "2.0", id: 1, result: { ssn: "1" } }, "s2c");
    assert.deepEqual(s2c, { jsonrpc: "2.0", id: 1, result: { ssn: "1" } });
    const sha = createHash("sha256").update(ACME).digest("hex");
    assert.deepEqual(redactor.info(), {
      rules: [
        "pack:acme/customer-id",
        "pack:acme/card-tail",
        "pack:acme/tenant",
        "pack:acme/ssn-arg",
        "keys:default",
      ],
      packs: [{ name: "acme", sha256: sha }],
    });
    // Idempotent, masks and hashes included.
    assert.equal(
      redactor.text(redactor.text("card 4000123412341234 ACME-000001", "s2c"), "s2c"),
      redactor.text("card 4000123412341234 ACME-000001", "s2c"),
    );
  });

  it("hashes deterministically: equal values equal, keys matter", async () => {
    const path = pack(
      "hash.toml",
      `[[rules]]\nlabel = "acct"\nregex = 'ACCT-\\d+'\nstrategy = "hash"\n`,
    );
    const one = await createRedactor({ packs: [path], hashKey: "k1" });
    const again = await createRedactor({ packs: [path], hashKey: "k1" });
    const other = await createRedactor({ packs: [path], hashKey: "k2" });
    const a = one.text("ACCT-1 ACCT-1 ACCT-2", "c2s");
    const [h1, h2, h3] = a.split(" ");
    assert.equal(h1, h2);
    assert.notEqual(h1, h3);
    assert.equal(again.text("ACCT-1", "c2s"), h1);
    assert.notEqual(other.text("ACCT-1", "c2s"), h1);
    assert.match(h1, /^\[HASH:acct:[0-9a-f]{8}\]$/);
    const byDefault = await createRedactor({ packs: [path] });
    assert.equal(
      byDefault.text("ACCT-1", "c2s"),
      (await createRedactor({ packs: [path] })).text("ACCT-1", "c2s"),
    );
  });

  it("replay needs the same pack file (by content) to re-apply it", async () => {
    const path = pack("acme2.toml", ACME);
    const recorder = await createRedactor({ packs: [path], hashKey: "k" });
    const request: Json = {
      jsonrpc: "2.0",
      id: 1,
      method: "x",
      params: { arguments: { who: "ACME-123456" } },
    };
    const recorded = recorder.message(request, "c2s");
    const replay = await createReplayRedactor(recorder.info(), { packs: [path], hashKey: "k" });
    assert.deepEqual(replay.message(request, "c2s"), recorded);
    await assert.rejects(
      createReplayRedactor(recorder.info()),
      /scrubbed with rule pack "acme".*--pack/,
    );
  });

  const BAD: [string, string, RegExp][] = [
    [
      "bad-regex.toml",
      `[[rules]]\nlabel = "broken"\nregex = "(unclosed"\n`,
      /bad-regex\.toml, rule "broken": invalid regex/,
    ],
    [
      "bad-strategy.toml",
      `[[rules]]\nlabel = "s"\nregex = "x"\nstrategy = "shred"\n`,
      /bad-strategy\.toml, rule "s": unknown strategy "shred"/,
    ],
    [
      "bad-dir.toml",
      `[[rules]]\nlabel = "d"\nregex = "x"\ndirection = "up"\n`,
      /bad-dir\.toml, rule "d": unknown direction "up"/,
    ],
    ["no-label.toml", `[[rules]]\nregex = "x"\n`, /no-label\.toml, rule #1: "label"/],
    [
      "two-kinds.toml",
      `[[rules]]\nlabel = "t"\nregex = "x"\nkey = "y"\n`,
      /two-kinds\.toml, rule "t": give exactly one/,
    ],
    [
      "empty-match.toml",
      `[[rules]]\nlabel = "e"\nregex = "x*"\n`,
      /empty-match\.toml, rule "e": .*empty string/,
    ],
    [
      "typo.toml",
      `[[rules]]\nlabel = "t"\nregx = "x"\n`,
      /typo\.toml, rule "t": unknown field "regx"/,
    ],
    ["not-toml.toml", `[[rules]\nlabel=`, /not-toml\.toml: not valid TOML/],
    [
      "dup.toml",
      `[[rules]]\nlabel = "a"\nregex = "x"\n[[rules]]\nlabel = "a"\nregex = "y"\n`,
      /dup\.toml: rule "a" is defined twice/,
    ],
  ];
  for (const [name, body, message] of BAD) {
    it(`rejects ${name} with an error naming file and rule`, async () => {
      const path = pack(name, body);
      await assert.rejects(createRedactor({ packs: [path] }), (error: unknown) => {
        assert.ok(error instanceof CassetteError);
        assert.equal(error.exitCode, 2);
        assert.match(error.message, message);
        return true;
      });
    });
  }

  it("a missing pack file is a CassetteError", async () => {
    await assert.rejects(
      createRedactor({ packs: [join(dir, "absent.toml")] }),
      /absent\.toml: cannot read it/,
    );
  });
});
