/**
 * The client side of a recorded sample session: the official TypeScript SDK
 * (v1) client talks to `<command...>` over stdio (a tool's recorder wrapping
 * scripts/foreign/server.py) and prints every result it received, keyed by
 * step, as one JSON document: the `*.expected.json` beside each sample.
 *
 * Usage: deno run -A scripts/foreign/session.ts -- <command...>
 */
import { Client, StdioClientTransport } from "../../tests/sdk.ts";
import process from "node:process";

const command = process.argv.slice(process.argv.indexOf("--") + 1);
const client = new Client({ name: "foreign-sample-client", version: "1.0.0" });
await client.connect(
  new StdioClientTransport({ command: command[0], args: command.slice(1), stderr: "inherit" }),
);
const results: Record<string, unknown> = { server: client.getServerVersion() };

async function step(name: string, run: () => Promise<unknown>) {
  try {
    results[name] = await run();
  } catch (error) {
    const e = error as { code?: number; message?: string };
    results[name] = { thrown: { code: e.code ?? null, message: String(e.message ?? error) } };
  }
}

await step("tools", () => client.listTools());
await step("echo", () => client.callTool({ name: "echo", arguments: { message: "hello" } }));
await step("add", () => client.callTool({ name: "add", arguments: { a: 2, b: 40 } }));
await step("unknown-tool", () => client.callTool({ name: "no-such-tool", arguments: {} }));
await step("resources", () => client.listResources());
await step("read", () => client.readResource({ uri: "sample://notes/readme" }));
await step("prompts", () => client.listPrompts());
await step("prompt", () => client.getPrompt({ name: "greet", arguments: { who: "Ada" } }));
await step("ping", () => client.ping());
await client.close();
process.stdout.write(JSON.stringify(results, null, 2) + "\n");
process.exit(0);
