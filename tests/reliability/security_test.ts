/**
 * Nobody let in: the HTTP replay binds loopback unless told otherwise and
 * says so loudly when it is; Host and Origin are checked (DNS rebinding);
 * bodies and headers are bounded; no credential reaches a cassette, a log
 * line or an error; a symlinked cassette path is refused unless forced.
 */
import { before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { request } from "node:http";
import { lstatSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { CLI, run, tempDir } from "../helpers.ts";
import { startBackground, URL_LINE } from "../http/http_helpers.ts";
import { call, FIXTURE, initialize, LineProcess } from "./_helpers.ts";

const dir = tempDir("mcp-cassette-security-");
const cassette = path.join(dir, "base.cassette.jsonl");

/** A short stdio recording of the fixture: what the HTTP replay serves. */
async function recordBase(): Promise<void> {
  const live = new LineProcess([...CLI, "record", "-o", cassette, "--", ...FIXTURE, "serve"]);
  live.send(initialize());
  await live.answer(1);
  live.send({ jsonrpc: "2.0", method: "notifications/initialized" });
  live.send(call(2, "echo", { a: 1 }));
  await live.answer(2);
  assert.equal((await live.finish()).code, 0, live.stderr);
}

/** One raw HTTP POST with exactly these headers; resolves with the status and body. */
function post(
  url: string,
  headers: Record<string, string>,
  body: string | Buffer,
): Promise<{ status: number; body: string }> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request({
      host: target.hostname,
      port: target.port,
      path: target.pathname,
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "content-length": String(Buffer.byteLength(body)),
        ...headers,
      },
    }, (res) => {
      let text = "";
      res.setEncoding("utf8").on("data", (chunk) => (text += chunk)).on(
        "end",
        () => resolve({ status: res.statusCode!, body: text }),
      );
    });
    req.on("error", reject);
    req.end(body);
  });
}

const INIT = JSON.stringify(initialize());

describe("HTTP replay (replay --listen): binding, DNS rebinding, limits", () => {
  let url: string;
  let stop: () => Promise<number | null>;
  let output: () => string;

  before(async () => {
    await recordBase();
    // No host given: loopback.
    const replay = await startBackground([...CLI, "replay", cassette, "--listen", "0"], URL_LINE);
    url = replay.found;
    stop = replay.stop;
    output = replay.output;
  });

  it("binds 127.0.0.1 when no host is given, and answers a well-formed request", async () => {
    assert.match(url, /^http:\/\/127\.0\.0\.1:\d+\//);
    assert.equal((await post(url, {}, INIT)).status, 200);
  });

  it("refuses a foreign Origin with 403 and a foreign Host (DNS rebinding) too", async () => {
    const origin = await post(url, { origin: "http://evil.example" }, INIT);
    assert.equal(origin.status, 403);
    const host = await post(url, { host: "evil.example" }, INIT);
    assert.ok(host.status === 403 || host.status === 421, `Host evil.example got ${host.status}`);
    const port = new URL(url).port;
    assert.equal((await post(url, { host: `evil.example:${port}` }, INIT)).status === 200, false);
  });

  it("refuses a 10 MB body with 413 and an oversized header with 431, and keeps serving", async () => {
    const big = Buffer.alloc(10 * 1024 * 1024, 0x61);
    assert.equal((await post(url, {}, big)).status, 413);
    assert.equal((await post(url, { "x-big": "b".repeat(32 * 1024) }, INIT)).status, 431);
    assert.equal((await post(url, {}, INIT)).status, 200, "still serving");
  });

  it("keeps credentials out of its log and its errors", async () => {
    const secret = "Bearer sk-live-REPLAYSECRET0123456789";
    const answer = await post(url, { authorization: secret, origin: "http://evil.example" }, INIT);
    assert.ok(!answer.body.includes("REPLAYSECRET"));
    const missing = await post(
      url,
      { authorization: secret },
      JSON.stringify(call(9, "no-such", { token: "REPLAYSECRET" })),
    );
    assert.ok(!missing.body.includes("sk-live"), missing.body);
    await stop();
    assert.ok(!output().includes("sk-live-REPLAYSECRET"), output());
  });

  it("warns loudly when bound beyond loopback", async () => {
    const wide = await startBackground(
      [...CLI, "replay", cassette, "--listen", "0.0.0.0:0"],
      /WARNING[^\n]*\n/,
    );
    try {
      assert.match(
        wide.output(),
        /WARNING: listening on 0\.0\.0\.0, reachable from other machines/,
      );
    } finally {
      await wide.stop();
    }
  });
});

describe("record: credentials and cassette paths", () => {
  it("no secret from the command line or a credential key reaches the cassette or stderr", async () => {
    const out = path.join(dir, "secrets.cassette.jsonl");
    const live = new LineProcess([
      ...CLI,
      "record",
      "-o",
      out,
      "--",
      ...FIXTURE,
      "serve",
      "--api-key=sk-live-CMDLINESECRET0123456789",
    ]);
    live.send(initialize());
    await live.answer(1);
    live.send(call(2, "echo", { apiKey: "ARGSECRET-0123456789", password: "hunter2-PASSWORD" }));
    const answer = await live.answer(2);
    assert.match(JSON.stringify(answer), /ARGSECRET/, "the client itself gets the bytes unchanged");
    await live.finish();
    const text = readFileSync(out, "utf8");
    for (const secret of ["CMDLINESECRET", "ARGSECRET", "hunter2"]) {
      assert.ok(!text.includes(secret), `${secret} reached the cassette`);
      assert.ok(!live.stderr.includes(secret), `${secret} reached stderr`);
    }
  });

  it("refuses a cassette path that is a symlink (exit 2, target unchanged); --force replaces the link, never writing through it", async () => {
    const target = path.join(dir, "elsewhere.txt");
    const link = path.join(dir, "link.cassette.jsonl");
    writeFileSync(target, "precious\n");
    symlinkSync(target, link);
    const refused = await run([...CLI, "record", "-o", link, "--", ...FIXTURE, "serve"], {
      input: INIT + "\n",
    });
    assert.equal(refused.code, 2, refused.stderr);
    assert.match(refused.stderr, /symbolic link/);
    assert.equal(readFileSync(target, "utf8"), "precious\n");
    assert.ok(lstatSync(link).isSymbolicLink());

    const forced = await run([...CLI, "record", "--force", "-o", link, "--", ...FIXTURE, "serve"], {
      input: INIT + "\n",
    });
    assert.equal(forced.code, 0, forced.stderr);
    assert.equal(readFileSync(target, "utf8"), "precious\n", "nothing written through the link");
    assert.ok(!lstatSync(link).isSymbolicLink(), "the link was replaced by the cassette");
    assert.match(readFileSync(link, "utf8"), /"format":"mcp-cassette"/);
  });
});
