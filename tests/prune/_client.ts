/**
 * The official SDK (v1) client asking server-everything for a chosen subset
 * of calls, so that one recording holds more than each run asks for. Prints
 * the results by step name as one JSON document.
 *
 * Usage: deno run -A tests/prune/_client.ts --steps tools,echo,sum,... (--url URL | -- <server command...>)
 */
import {
  Client,
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
  StdioClientTransport,
  StreamableHTTPClientTransport,
} from "../sdk.ts";
import { parseArgs } from "node:util";
import process from "node:process";

const separator = process.argv.indexOf("--");
const { values } = parseArgs({
  args: separator === -1 ? process.argv.slice(2) : process.argv.slice(2, separator),
  options: { steps: { type: "string", default: "tools" }, url: { type: "string" } },
});
const command = separator === -1 ? [] : process.argv.slice(separator + 1);

const client = new Client(
  { name: "prune-client", version: "1.0.0" },
  { capabilities: { sampling: {}, elicitation: { form: {} }, roots: { listChanged: true } } },
);
client.setRequestHandler(CreateMessageRequestSchema, () => ({
  model: "test-model",
  role: "assistant",
  content: { type: "text", text: "a recorded answer" },
}));
client.setRequestHandler(ElicitRequestSchema, () => ({
  action: "accept",
  content: { name: "Ada", check: true, email: "ada@example.com", integer: 7 },
}));
client.setRequestHandler(ListRootsRequestSchema, () => ({
  roots: [{ uri: "file:///tmp/project", name: "project" }],
}));

const progress: unknown[] = [];
const steps: Record<string, () => Promise<unknown>> = {
  tools: () => client.listTools(),
  echo: () => client.callTool({ name: "echo", arguments: { message: "hello" } }),
  sum: () => client.callTool({ name: "get-sum", arguments: { a: 2, b: 40 } }),
  "sum-other": () => client.callTool({ name: "get-sum", arguments: { a: 1, b: 1 } }),
  sampling: () =>
    client.callTool({
      name: "trigger-sampling-request",
      arguments: { prompt: "Say hi", maxTokens: 20 },
    }),
  elicitation: () => client.callTool({ name: "trigger-elicitation-request", arguments: {} }),
  roots: () => client.callTool({ name: "get-roots-list", arguments: {} }),
  progress: () =>
    client.callTool(
      { name: "trigger-long-running-operation", arguments: { duration: 0.2, steps: 2 } },
      undefined,
      { onprogress: (p: unknown) => progress.push(p) },
    ),
  prompt: () => client.getPrompt({ name: "simple-prompt" }),
};

await client.connect(
  values.url
    ? new StreamableHTTPClientTransport(new URL(values.url))
    : new StdioClientTransport({ command: command[0], args: command.slice(1), stderr: "ignore" }),
);
const results: Record<string, unknown> = {};
for (const name of values.steps!.split(",")) {
  try {
    results[name] = await steps[name]();
  } catch (error) {
    const e = error as { code?: number; message?: string };
    results[name] = { thrown: { code: e.code ?? null, message: String(e.message ?? error) } };
  }
}
await client.close();
process.stdout.write(JSON.stringify({ results, progress }) + "\n");
process.exit(0);
