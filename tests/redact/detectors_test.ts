import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { DETECTORS, ibanValid, luhnValid } from "../../src/redact/detectors.ts";
import { DETECTOR_NAMES } from "../../src/redact/mod.ts";

/** The secrets a detector finds in `text`. */
function found(name: string, text: string): string[] {
  const detector = DETECTORS.find((item) => item.name === name);
  assert.ok(detector, name);
  return detector.find(text).map((span) => text.slice(span.start, span.end));
}

const PEM =
  "-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA7\nq8s=\n-----END RSA PRIVATE KEY-----";
const JWT =
  "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U";

/** Per detector: strings it must find (exactly), and near misses it must not. */
const CASES: Record<string, { positives: [string, string][]; negatives: string[] }> = {
  "email": {
    positives: [["write to john.doe+x@mail.example.co.uk.", "john.doe+x@mail.example.co.uk"]],
    negatives: ["user@localhost", "@scope/package", "a@b", "2025-11-25T10:00:00Z"],
  },
  "phone": {
    positives: [["call +14155552671 now", "+14155552671"], ["+442071838750", "+442071838750"]],
    negatives: ["+123", "+0123456789", "2025-11-25T10:00:00+01:00", "14155552671", "a+14155552671"],
  },
  "ipv4": {
    positives: [["from 192.168.1.20:8080", "192.168.1.20"], ["8.8.8.8", "8.8.8.8"]],
    negatives: ["127.0.0.1", "0.0.0.0", "256.1.1.1", "version 1.2.3", "v1.2.3.4", "1.2.3.4.5"],
  },
  "ipv6": {
    positives: [["host 2001:db8::8a2e:370:7334 up", "2001:db8::8a2e:370:7334"], [
      "fe80:0:0:0:202:b3ff:fe1e:8329",
      "fe80:0:0:0:202:b3ff:fe1e:8329",
    ]],
    negatives: [
      "::1",
      "10:30:00",
      "std::vector",
      "Foo::bar",
      "00:1A:2B:3C:4D:5E",
      "2025-11-25T10:30:00Z",
    ],
  },
  "ssn": {
    positives: [["ssn 123-45-6789.", "123-45-6789"]],
    negatives: [
      "000-12-3456",
      "666-12-3456",
      "123-00-4567",
      "123-45-0000",
      "2025-11-25",
      "1123-45-6789",
    ],
  },
  "iban": {
    positives: [["DE89 3704 0044 0532 0130 00 AND MORE", "DE89 3704 0044 0532 0130 00"], [
      "AA00 GB82WEST12345698765432",
      "GB82WEST12345698765432",
    ], [
      "GB82WEST12345698765432",
      "GB82WEST12345698765432",
    ]],
    negatives: ["GB82WEST12345698765433", "DE89 3704 0044 0532 0130 01", "AB12CDEFGHIJKLMNOP"],
  },
  "payment-card": {
    positives: [
      ["card 4111 1111 1111 1111 ok", "4111 1111 1111 1111"],
      ["5555-5555-5555-4444", "5555-5555-5555-4444"],
      ["qty 0 4111 1111 1111 1111", "4111 1111 1111 1111"],
      [
        "378282246310005",
        "378282246310005",
      ],
    ],
    negatives: [
      "4111111111111112",
      "1732546200000",
      "12345678-1234-1234-1234-123456789012",
      "0000000000000000",
    ],
  },
  "aws-access-key-id": {
    positives: [["id=AKIAIOSFODNN7EXAMPLE", "AKIAIOSFODNN7EXAMPLE"]],
    negatives: ["AKIAIOSFODNN7EXAMPL", "XAKIAIOSFODNN7EXAMPLE", "akiaiosfodnn7example"],
  },
  "private-key": {
    positives: [[`key:\n${PEM}\nend`, PEM]],
    negatives: [
      "-----BEGIN PUBLIC KEY-----\nMIIB\n-----END PUBLIC KEY-----",
      "-----BEGIN CERTIFICATE-----",
    ],
  },
  "jwt": {
    positives: [[`token ${JWT} end`, JWT]],
    negatives: ["eyJhbGciOiJIUzI1NiJ9", "eyJhbGci.notjwt.x", "abc.def.ghi"],
  },
  "bearer": {
    positives: [["Authorization: Bearer abcdef1234567890xyz", "abcdef1234567890xyz"]],
    negatives: ["Bearer tokens are documented here", "bearer token", "Bearer abc1"],
  },
  "github-token": {
    positives: [[`ghp_${"a1".repeat(18)}`, `ghp_${"a1".repeat(18)}`], [
      `github_pat_${"B2_".repeat(10)}`,
      `github_pat_${"B2_".repeat(10)}`,
    ]],
    negatives: ["ghp_short", "ghx_" + "a".repeat(36)],
  },
  "openai-key": {
    positives: [[`sk-proj-${"x9".repeat(12)}`, `sk-proj-${"x9".repeat(12)}`], [
      `sk-${"A".repeat(40)}`,
      `sk-${"A".repeat(40)}`,
    ]],
    negatives: ["sk-short", "task-" + "a".repeat(30), `sk-ant-api03-${"z".repeat(30)}`],
  },
  "anthropic-key": {
    positives: [[`key sk-ant-api03-${"z".repeat(30)}`, `sk-ant-api03-${"z".repeat(30)}`]],
    negatives: ["sk-ant-short"],
  },
  "slack-token": {
    positives: [["xoxb-1234567890-abcdefghij", "xoxb-1234567890-abcdefghij"]],
    negatives: ["xoxz-1234567890-abcdefghij", "xoxb-short"],
  },
  "google-api-key": {
    positives: [[`AIza${"S".repeat(35)}`, `AIza${"S".repeat(35)}`]],
    negatives: [`AIza${"S".repeat(20)}`],
  },
  "stripe-key": {
    positives: [[`key sk_live_${"4eC3".repeat(6)} here`, `sk_live_${"4eC3".repeat(6)}`], [
      `rk_live_${"Ab9".repeat(9)}`,
      `rk_live_${"Ab9".repeat(9)}`,
    ]],
    negatives: ["sk_live_short", "task_live_" + "a".repeat(30), "sk_prod_" + "a".repeat(30)],
  },
  "npm-token": {
    positives: [[`NPM npm_${"aB3".repeat(12)}.`, `npm_${"aB3".repeat(12)}`]],
    negatives: ["npm_config_cache", `npm_${"a".repeat(37)}`, `xnpm_${"a".repeat(36)}`],
  },
  "slack-webhook": {
    positives: [[
      `post to https://hooks.slack.com/services/T0000/B0000/${"X".repeat(24)} now`,
      `https://hooks.slack.com/services/T0000/B0000/${"X".repeat(24)}`,
    ]],
    negatives: ["https://hooks.slack.com/", "https://slack.com/services/T0000/B0000"],
  },
  "basic-auth": {
    positives: [["Authorization: Basic YWxhZGRpbjpvcGVuc2VzYW1l", "YWxhZGRpbjpvcGVuc2VzYW1l"]],
    negatives: ["Basic usage: see the docs", "Basic Configuration", "basic YWxhZGRpbg=="],
  },
  "url-password": {
    positives: [["postgres://admin:pa55w0rd!@db/x", "pa55w0rd!"], [
      "see https://u:s3cr3t@example.com/a",
      "s3cr3t",
    ]],
    negatives: ["http://user@host/", "https://example.com/a:b@c", "mailto:x@y.z", "a:b@c"],
  },
  "hex-token": {
    positives: [[`Authorization: token ${"0a1b".repeat(10)}`, "0a1b".repeat(10)]],
    negatives: [`token ${"0a1b".repeat(9)}`, `progressToken ${"g".repeat(40)}`, "the token 12"],
  },
  "env-secret": {
    positives: [["export DB_PASSWORD=hunter2secret", "hunter2secret"], [
      'API_TOKEN="a b c"',
      "a b c",
    ]],
    negatives: ["export PATH=/usr/bin", "password=x", "PASSWORD=", "MAX_TOKENS_X=5 is fine?"],
  },
  "azure-key": {
    positives: [[
      `AccountName=x;AccountKey=${"Eby8vdM0".repeat(11)}==;EndpointSuffix=core.windows.net`,
      `${"Eby8vdM0".repeat(11)}==`,
    ]],
    negatives: ["AccountKey=short", "AccountName=x;"],
  },
};

describe("detectors", () => {
  it("every detector has cases", () => {
    assert.deepEqual(Object.keys(CASES).sort(), [...DETECTOR_NAMES].sort());
  });

  for (const [name, { positives, negatives }] of Object.entries(CASES)) {
    it(`${name}: finds positives, ignores near misses`, () => {
      for (const [text, secret] of positives) assert.deepEqual(found(name, text), [secret], text);
      for (const text of negatives) assert.deepEqual(found(name, text), [], text);
    });
  }

  it("no detector fires on protocol-looking values", () => {
    const protocol = [
      "2025-11-25",
      "2025-06-18",
      "2025-11-25T10:30:00.123Z",
      "123e4567-e89b-12d3-a456-426614174000",
      "1.2.3",
      "0.1.0-beta.2",
      "notifications/progress",
      "tools/call",
      "file:///home/user/notes.txt",
      "image/png",
      "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
    ];
    for (const text of protocol) {
      for (const detector of DETECTORS) {
        assert.deepEqual(detector.find(text), [], `${detector.name} on ${text}`);
      }
    }
  });

  it("checksums: Luhn and IBAN mod 97", () => {
    assert.equal(luhnValid("4111111111111111"), true);
    assert.equal(luhnValid("4111111111111112"), false);
    assert.equal(ibanValid("GB82WEST12345698765432"), true);
    assert.equal(ibanValid("GB82WEST12345698765433"), false);
    assert.equal(ibanValid("FR1420041010050500013M02606"), true);
  });
});
