/**
 * A web page cannot drive the recorder or the replay. Each request here is
 * sent raw, with the headers a browser sends for the attack: a fetch from a
 * sandboxed iframe (`Origin: null`), a page served from a name that starts
 * with `127.` (`http://127.attacker.test`), and a `text/plain` POST, which a
 * page sends with no CORS preflight. The recorder stands in front of a real
 * upstream that counts what reaches it: nothing may. A bearer token, when
 * set, is asked for before anything else, and never sent on upstream.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { createServer, request } from "node:http";
import type { IncomingHttpHeaders } from "node:http";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { CLI, initializeRequest, tempDir } from "../helpers.ts";
import { listenLocal, startBackground, URL_LINE } from "./http_helpers.ts";
import type { Background, LocalUpstream } from "./http_helpers.ts";
import { exposureOf, isLoopback } from "../../src/http/guard.ts";

const INIT = JSON.stringify(initializeRequest(1, "page"));

/** What every cross-site fetch of a current Chromium carries besides its own. */
function browserHeaders(url: string, origin: string): Record<string, string> {
  return {
    host: new URL(url).host,
    origin,
    "user-agent": "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/131.0.0.0",
    accept: "*/*",
    "accept-language": "en-US,en;q=0.9",
    "sec-fetch-site": "cross-site",
    "sec-fetch-mode": "no-cors",
    "sec-fetch-dest": "empty",
  };
}

/** The simple POST a page's `fetch(url, {method: "POST", mode: "no-cors", body})` sends. */
function simplePost(url: string, origin: string): Record<string, string> {
  return { ...browserHeaders(url, origin), "content-type": "text/plain;charset=UTF-8" };
}

/** One raw HTTP request with exactly these headers. */
function send(
  url: string,
  method: string,
  headers: Record<string, string>,
  body = "",
): Promise<{ status: number; headers: IncomingHttpHeaders; body: string }> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request({
      host: target.hostname,
      port: target.port,
      path: target.pathname,
      method,
      headers: { ...headers, "content-length": String(Buffer.byteLength(body)) },
      setHost: false,
    }, (res) => {
      let text = "";
      res.setEncoding("utf8").on("data", (chunk) => (text += chunk)).on(
        "end",
        () => resolve({ status: res.statusCode!, headers: res.headers, body: text }),
      );
    });
    req.on("error", reject);
    req.end(body);
  });
}

/** An MCP-shaped upstream that keeps every request that reached it. */
async function countingUpstream(): Promise<LocalUpstream & { seen: IncomingHttpHeaders[] }> {
  const seen: IncomingHttpHeaders[] = [];
  const server = createServer((req, res) => {
    seen.push(req.headers);
    req.resume().on("end", () => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        result: {
          protocolVersion: "2025-03-26",
          capabilities: {},
          serverInfo: { name: "counted", version: "1" },
        },
      }));
    });
  });
  return { ...await listenLocal(server), seen };
}

/** The attacks every guarded server must refuse, with the status each gets. */
function attacks(url: string): [string, string, Record<string, string>, number][] {
  const json = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
  };
  return [
    ["a simple POST from a sandboxed iframe (Origin: null)", "POST", simplePost(url, "null"), 403],
    ["a JSON POST with Origin: null", "POST", { ...browserHeaders(url, "null"), ...json }, 403],
    [
      "the preflight of a sandboxed iframe",
      "OPTIONS",
      {
        ...browserHeaders(url, "null"),
        "access-control-request-method": "POST",
        "access-control-request-headers": "content-type",
      },
      403,
    ],
    [
      "a simple POST from http://127.attacker.test",
      "POST",
      simplePost(url, "http://127.attacker.test:8000"),
      403,
    ],
    [
      "a JSON POST from http://127.attacker.test",
      "POST",
      { ...browserHeaders(url, "http://127.attacker.test"), ...json },
      403,
    ],
    [
      "a simple POST from a local page (http://localhost:3000)",
      "POST",
      simplePost(url, "http://localhost:3000"),
      415,
    ],
    ["a text/plain POST with no Origin", "POST", {
      host: new URL(url).host,
      accept: "*/*",
      "content-type": "text/plain",
    }, 415],
  ];
}

for (const engine of ["bytes", "fetch"]) {
  describe(`record --url (${engine} engine): a web page reaches nothing upstream`, () => {
    let upstream: LocalUpstream & { seen: IncomingHttpHeaders[] };
    let recorder: Background;
    before(async () => {
      upstream = await countingUpstream();
      const cassette = path.join(tempDir(), "web.cassette.jsonl");
      recorder = await startBackground(
        [...CLI, "record", "-o", cassette, "--url", `${upstream.url}?token=upstream-secret`],
        URL_LINE,
        { env: { MCP_CASSETTE_HTTP_RECORDER: engine } },
      );
    });
    after(async () => {
      await recorder.stop();
      await upstream.close();
    });

    it("refuses null and foreign origins with 403 and a non-JSON POST with 415", async () => {
      for (const [name, method, headers, status] of attacks(recorder.found)) {
        const answer = await send(recorder.found, method, headers, INIT);
        assert.equal(answer.status, status, `${name}: ${answer.status} ${answer.body}`);
        assert.equal(upstream.seen.length, 0, `${name} reached the upstream`);
      }
    });

    it("still forwards a client's JSON POST", async () => {
      const url = recorder.found;
      const answer = await send(url, "POST", {
        host: new URL(url).host,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      }, INIT);
      assert.equal(answer.status, 200, answer.body);
      assert.equal(upstream.seen.length, 1);
    });
  });
}

describe("replay --listen: a web page gets nothing", () => {
  let replay: Background;
  before(async () => {
    const cassette = path.join(tempDir(), "replayed.cassette.jsonl");
    writeFileSync(cassette, CASSETTE);
    replay = await startBackground([...CLI, "replay", cassette, "--listen", "0"], URL_LINE);
  });
  after(() => replay.stop());

  it("refuses null and foreign origins with 403 and a non-JSON POST with 415", async () => {
    for (const [name, method, headers, status] of attacks(replay.found)) {
      const answer = await send(replay.found, method, headers, INIT);
      assert.equal(answer.status, status, `${name}: ${answer.status} ${answer.body}`);
    }
  });
});

describe("a bearer token (MCP_CASSETTE_TOKEN, --token)", () => {
  it("replay: 401 with WWW-Authenticate before any other check, 200 with the token", async () => {
    const cassette = path.join(tempDir(), "token.cassette.jsonl");
    writeFileSync(cassette, CASSETTE);
    const replay = await startBackground(
      [...CLI, "replay", cassette, "--listen", "127.0.0.1:0"],
      URL_LINE,
      { env: { MCP_CASSETTE_TOKEN: "s3cret-token" } },
    );
    try {
      const url = replay.found;
      const client = {
        host: new URL(url).host,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      };
      for (
        const authorization of [
          undefined,
          "Bearer wrong",
          "Bearer s3cret-toke",
          "Basic s3cret-token",
        ]
      ) {
        const headers = authorization ? { ...client, authorization } : client;
        const answer = await send(url, "POST", headers, INIT);
        assert.equal(answer.status, 401, `${authorization}: ${answer.body}`);
        assert.equal(answer.headers["www-authenticate"], 'Bearer realm="mcp-cassette"');
      }
      // Before the Host check too: a rebinding page learns nothing more.
      const rebound = await send(url, "POST", { ...client, host: "attacker.test" }, INIT);
      assert.equal(rebound.status, 401);
      const ok = await send(url, "POST", { ...client, authorization: "Bearer s3cret-token" }, INIT);
      assert.equal(ok.status, 200, ok.body);
    } finally {
      await replay.stop();
    }
  });

  for (const engine of ["bytes", "fetch"]) {
    it(`record --url --token (${engine}): nothing goes up without it, and it never goes up`, async () => {
      const upstream = await countingUpstream();
      const cassette = path.join(tempDir(), "token.cassette.jsonl");
      const recorder = await startBackground(
        [...CLI, "record", "-o", cassette, "--url", upstream.url, "--token", "rec-token"],
        URL_LINE,
        { env: { MCP_CASSETTE_HTTP_RECORDER: engine } },
      );
      try {
        const url = recorder.found;
        const client = {
          host: new URL(url).host,
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
        };
        const refused = await send(url, "POST", { ...client, authorization: "Bearer nope" }, INIT);
        assert.equal(refused.status, 401);
        assert.equal(upstream.seen.length, 0);
        const ok = await send(url, "POST", { ...client, authorization: "Bearer rec-token" }, INIT);
        assert.equal(ok.status, 200, ok.body);
        assert.equal(upstream.seen.length, 1);
        assert.equal(upstream.seen[0].authorization, undefined, "the token went upstream");
      } finally {
        await recorder.stop();
        await upstream.close();
      }
    });
  }
});

describe("loopback is an address, never a name prefix", () => {
  it("reads 127.0.0.0/8, ::1 and localhost as loopback, and 127.attacker.test as a name", () => {
    for (const host of ["127.0.0.1", "127.1.2.3", "localhost", "::1", "[::1]", "127.1"]) {
      assert.equal(isLoopback(host), true, host);
    }
    for (
      const host of [
        "127.attacker.test",
        "127.0.0.1.attacker.test",
        "localhost.attacker.test",
        "128.0.0.1",
        "0.0.0.0",
        "::",
      ]
    ) {
      assert.equal(isLoopback(host), false, host);
    }
  });

  it("warns for a --listen name that does not resolve to loopback only, as for 0.0.0.0", async () => {
    const warning = await exposureOf({ hostname: "127.attacker.invalid", port: 0 });
    assert.match(warning ?? "", /WARNING: listening on 127\.attacker\.invalid, reachable/);
    assert.equal(await exposureOf({ hostname: "localhost", port: 0 }), undefined);
  });
});

/** A recorded initialize over Streamable HTTP, for the replay to answer. */
const CASSETTE = [
  {
    format: "mcp-cassette",
    version: 1,
    created: "2026-01-01T00:00:00.000Z",
    transport: "stdio",
    server: { command: ["x"] },
  },
  { type: "message", t: 0, dir: "c2s", msg: initializeRequest(1, "page") },
  {
    type: "message",
    t: 1,
    dir: "s2c",
    msg: {
      jsonrpc: "2.0",
      id: 1,
      result: {
        protocolVersion: "2025-03-26",
        capabilities: {},
        serverInfo: { name: "recorded", version: "1" },
      },
    },
  },
].map((line) => JSON.stringify(line)).join("\n") + "\n";
