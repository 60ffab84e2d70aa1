/**
 * Playbook parsing: each step kind and what it sends, TOML and JSONC alike,
 * the answers, and one-line errors for what is wrong.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { parsePlaybook, PlaybookError } from "../../src/script/playbook.ts";
import { answerServerRequests } from "../../src/script/answers.ts";
import { CassetteError, ExitCode } from "../../src/errors/errors.ts";

test("the smallest playbook is one tool call", async () => {
  const playbook = await parsePlaybook(
    '{"steps": [{"call": "echo", "arguments": {"message": "hi"}}]}',
    "p.json",
  );
  assert.deepEqual(playbook.steps, [{
    kind: "request",
    label: "call echo",
    method: "tools/call",
    params: { name: "echo", arguments: { message: "hi" } },
    expectError: false,
  }]);
  assert.deepEqual(playbook.client, { name: "mcp-cassette-playbook", version: "1.0.0" });
  assert.deepEqual(playbook.capabilities, {});
});

test("every step kind sends what the docs say", async () => {
  const playbook = await parsePlaybook(
    `{
      // comments and trailing commas are fine
      "steps": [
        {"read": "file:///a"},
        {"prompt": "greet", "arguments": {"name": "Ada"}},
        {"complete": {"prompt": "greet"}, "argument": {"name": "name", "value": "A"}},
        {"complete": {"resource": "file:///{path}"}, "argument": {"name": "path", "value": "x"}, "context": {"arguments": {}}},
        {"list": "templates"},
        {"ping": true},
        {"subscribe": "file:///a"},
        {"unsubscribe": "file:///a"},
        {"logLevel": "debug"},
        {"request": "custom/thing", "params": {"x": 1}, "timeoutMs": 500, "label": "mine"},
        {"notify": "notifications/roots/list_changed"},
        {"wait": 20},
        {"call": "boom", "expectError": true},
      ],
    }`,
    "p.jsonc",
  );
  const sent = playbook.steps.map((step) =>
    step.kind === "wait"
      ? ["wait", step.ms]
      : [step.method, step.kind === "request" ? step.params ?? null : step.params ?? null]
  );
  assert.deepEqual(sent, [
    ["resources/read", { uri: "file:///a" }],
    ["prompts/get", { name: "greet", arguments: { name: "Ada" } }],
    ["completion/complete", {
      ref: { type: "ref/prompt", name: "greet" },
      argument: { name: "name", value: "A" },
    }],
    [
      "completion/complete",
      {
        ref: { type: "ref/resource", uri: "file:///{path}" },
        argument: { name: "path", value: "x" },
        context: { arguments: {} },
      },
    ],
    ["resources/templates/list", null],
    ["ping", null],
    ["resources/subscribe", { uri: "file:///a" }],
    ["resources/unsubscribe", { uri: "file:///a" }],
    ["logging/setLevel", { level: "debug" }],
    ["custom/thing", { x: 1 }],
    ["notifications/roots/list_changed", null],
    ["wait", 20],
    ["tools/call", { name: "boom" }],
  ]);
  const custom = playbook.steps[9];
  assert.equal(custom.kind === "request" && custom.timeoutMs, 500);
  assert.equal(custom.label, "mine");
  const list = playbook.steps[4];
  assert.equal(list.kind === "request" && list.pages, "resourceTemplates");
  const boom = playbook.steps[12];
  assert.equal(boom.kind === "request" && boom.expectError, true);
});

test("a TOML playbook reads as its JSONC twin", async () => {
  const toml = await parsePlaybook(
    [
      'protocolVersion = "2025-06-18"',
      "[client]",
      'name = "ci"',
      'version = "2.0.0"',
      "[answers]",
      'roots = [{ uri = "file:///w", name = "w" }]',
      "[[answers.elicitation]]",
      'action = "decline"',
      "[[steps]]",
      'call = "echo"',
      'arguments = { message = "hi" }',
      "[[steps]]",
      'list = "tools"',
    ].join("\n"),
    "p.toml",
  );
  // The same document as JSON (in a .json file) parses to the same playbook.
  const twin = await parsePlaybook(
    JSON.stringify({
      protocolVersion: "2025-06-18",
      client: { name: "ci", version: "2.0.0" },
      answers: { roots: [{ uri: "file:///w", name: "w" }], elicitation: [{ action: "decline" }] },
      steps: [{ call: "echo", arguments: { message: "hi" } }, { list: "tools" }],
    }),
    "p.json",
  );
  assert.deepEqual({ ...toml, file: "" }, { ...twin, file: "" });
  assert.deepEqual(toml.capabilities, { elicitation: {}, roots: { listChanged: true } });
});

test("answers: sampling text shorthand, lists used in turn with the last repeating, errors", async () => {
  const playbook = await parsePlaybook(
    JSON.stringify({
      answers: {
        sampling: ["first", {
          model: "m",
          role: "assistant",
          content: { type: "text", text: "second" },
        }],
        elicitation: { error: { code: -1, message: "no" } },
      },
      steps: [{ ping: true }],
    }),
    "p.json",
  );
  assert.deepEqual(playbook.capabilities, { sampling: {}, elicitation: {} });
  const answer = answerServerRequests(playbook.answers);
  const ask = (method: string) => answer({ jsonrpc: "2.0", id: 1, method });
  assert.deepEqual(await ask("sampling/createMessage"), {
    result: {
      model: "mcp-cassette-playbook",
      role: "assistant",
      content: { type: "text", text: "first" },
    },
  });
  const second = {
    result: { model: "m", role: "assistant", content: { type: "text", text: "second" } },
  };
  assert.deepEqual(await ask("sampling/createMessage"), second);
  assert.deepEqual(await ask("sampling/createMessage"), second);
  assert.deepEqual(await ask("elicitation/create"), { error: { code: -1, message: "no" } });
  assert.deepEqual(await ask("ping"), { result: {} });
  const roots = await ask("roots/list");
  assert.ok(
    "error" in roots && /the playbook has no answer for roots\/list/.test(roots.error.message),
  );
});

test("mistakes are one line naming the file and the place, exit 2", async () => {
  const cases: [string, string, string][] = [
    ["{", "p.jsonc", "p.jsonc:1:2: not valid JSON/JSONC (CloseBraceExpected)"],
    ["   ", "p.jsonc", 'p.jsonc: the playbook is empty (expected {"steps": [...]})'],
    [
      '{"steps": [{"call": "a"}, {"cal": "a"}]}',
      "p.jsonc",
      'p.jsonc:1:27: steps[1]: unknown step kind "cal" (known: call, read, prompt, complete, list, ping, subscribe, unsubscribe, logLevel, request, notify, wait)',
    ],
    [
      '{"steps": [{"call": "a", "read": "b"}]}',
      "p.jsonc",
      "p.jsonc:1:12: steps[0]: one step kind per step, not call and read",
    ],
    [
      '{"steps": [{"call": "a", "argumnts": {}}]}',
      "p.jsonc",
      'p.jsonc:1:12: steps[0]: unknown field "argumnts" for a call step (known: arguments, label, timeoutMs, expectError)',
    ],
    [
      '{"steps": [{"list": "everything"}]}',
      "p.jsonc",
      'p.jsonc:1:12: steps[0]: "list" must be one of tools, resources, templates, resourceTemplates, prompts',
    ],
    [
      '{"steps": [{"notify": "x", "expectError": true}]}',
      "p.jsonc",
      'p.jsonc:1:12: steps[0]: "expectError" and "timeoutMs" belong to steps that wait for an answer',
    ],
    [
      '{"step": []}',
      "p.jsonc",
      'p.jsonc:1:10: unknown field "step" (known: client, capabilities, protocolVersion, answers, steps)',
    ],
    [
      '{"steps": [{"ping": 1}], "answers": {"sampler": "x"}}',
      "p.jsonc",
      'p.jsonc: unknown field "answers.sampler" (known: sampling, elicitation, roots)',
    ],
    [
      '{\n  // two steps\n  "steps": [\n    {"call": "a"},\n    {"cal": "a"},\n  ],\n}',
      "p.jsonc",
      'p.jsonc:5:5: steps[1]: unknown step kind "cal" (known: call, read, prompt, complete, list, ping, subscribe, unsubscribe, logLevel, request, notify, wait)',
    ],
    [
      "[[steps]\ncall = 1",
      "p.toml",
      "p.toml:1:9: not valid TOML: Invalid TOML document: expected end of table array declaration",
    ],
    ["steps = 3", "p.toml", 'p.toml: "steps" must be a list of at least one step'],
    [
      "[[steps]]\nwhen = 1979-05-27\nping = true",
      "p.toml",
      'p.toml: steps[0]: unknown field "when" for a ping step (known: label, timeoutMs, expectError)',
    ],
    [
      '[[steps]]\ncall = "a"\narguments = { at = 1979-05-27 }',
      "p.toml",
      'p.toml: steps[0]: "arguments".at holds a value JSON cannot carry',
    ],
  ];
  for (const [text, file, message] of cases) {
    await assert.rejects(parsePlaybook(text, file), (error: unknown) => {
      assert.ok(error instanceof PlaybookError && error instanceof CassetteError);
      assert.equal(error.message, message);
      assert.equal(error.exitCode, ExitCode.BadInput);
      return true;
    });
  }
});
