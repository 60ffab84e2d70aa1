/**
 * MCL111, markup-in-name: a name or id that is never markup (a tool name
 * listed or asked for, a method, a string id, a header name, a session, an
 * SSE event) holding markup or a control character is an error; the same
 * cassette with plain names has no finding.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { lintCassette } from "../../src/lint/mod.ts";
import type { Entry } from "../../src/cassette/format.ts";
import { cassette, session, textResult, tool } from "./build.ts";

const PAYLOAD = `"><img src=x onerror=alert(1)>`;

function crafted(bad: (name: string) => string): Entry[] {
  const more: Entry[] = [
    {
      type: "message",
      t: 20,
      dir: "c2s",
      msg: { jsonrpc: "2.0", id: bad("req"), method: bad("custom/method"), params: {} },
    },
    { type: "session", t: 21, session: bad("s2"), event: "start", sessionId: bad("sid") },
    {
      type: "http-request",
      t: 22,
      x: 1,
      method: "POST",
      path: "/mcp",
      headers: { [bad("x-header")]: "1" },
    },
    {
      type: "message",
      t: 23,
      dir: "c2s",
      msg: {
        jsonrpc: "2.0",
        id: 9,
        method: "tools/call",
        params: { name: bad("echo"), arguments: {} },
      },
    },
  ];
  return session([tool(bad("echo"))], [textResult("fine")], more);
}

test("MCL111: markup or control characters in names that are never markup", () => {
  const findings = lintCassette(cassette(crafted((name) => name + PAYLOAD)))
    .filter((finding) => finding.rule === "MCL111");
  assert.deepEqual(
    findings.map((finding) => finding.pointer).sort(),
    [
      '/headers/x-header"><img src=x onerror=alert(1)>',
      "/msg/id",
      "/msg/method",
      "/msg/params/name",
      "/msg/result/tools/0/name",
      "/session",
      "/sessionId",
    ].sort(),
  );
  assert.ok(findings.every((finding) => finding.severity === "error"));
  assert.match(findings[0].message, /names are never markup/);

  const escape = lintCassette(cassette(crafted((name) => name + "\x1b]0;title\x07")))
    .filter((finding) => finding.rule === "MCL111");
  assert.equal(escape.length, 7, JSON.stringify(escape));
  assert.match(escape[0].message, /control character \(U\+001B\)/);
});

test("MCL111: plain names, ids and headers have no finding", () => {
  const findings = lintCassette(cassette(crafted((name) => name)));
  assert.deepEqual(findings.filter((finding) => finding.rule === "MCL111"), []);
});
