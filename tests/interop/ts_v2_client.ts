/**
 * A generic client of the official TypeScript SDK v2
 * (`@modelcontextprotocol/client`): runs any session spec in the shape of
 * session.json and prints the same JSON document as the other languages'
 * clients. The interop suite replays the modern-era (2026-07-28) golden
 * cassettes to it, and drives it to record them.
 *
 * `--mode pin` (the default) pins the 2026-07-28 revision: the connect-time
 * `server/discover` must offer it, with no fallback. `--mode auto` is the
 * SDK's probe (discover, then `initialize` on a legacy answer); `--mode legacy`
 * the plain 2025 handshake.
 *
 * Usage: deno run -A --no-check tests/interop/ts_v2_client.ts --session FILE
 *          [--mode pin|auto|legacy] (--url URL | -- <server command...>)
 */
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { readFileSync } from "node:fs";
import process from "node:process";
import { parseArgs } from "node:util";
import type { SessionStep } from "./check.ts";

const separator = process.argv.indexOf("--");
const own = separator === -1 ? process.argv.slice(2) : process.argv.slice(2, separator);
const command = separator === -1 ? [] : process.argv.slice(separator + 1);
const { values } = parseArgs({
  args: own,
  options: {
    session: { type: "string" },
    url: { type: "string" },
    mode: { type: "string", default: "pin" },
  },
});
const modes = {
  pin: { pin: "2026-07-28" },
  auto: "auto",
  legacy: "legacy",
} as const;
const mode = modes[values.mode as keyof typeof modes];
if (!values.session || (!values.url && command.length === 0) || !mode) {
  process.stderr.write(
    "usage: ts_v2_client.ts --session FILE [--mode pin|auto|legacy] (--url URL | -- <server command...>)\n",
  );
  process.exit(2);
}
const steps = (JSON.parse(readFileSync(values.session, "utf8")) as { steps: SessionStep[] }).steps;

/** Runs one step through the SDK's typed method. */
async function runStep(client: Client, step: SessionStep): Promise<unknown> {
  const params = (step.params ?? {}) as {
    name?: string;
    uri?: string;
    arguments?: Record<string, unknown>;
  };
  try {
    switch (step.method) {
      case "tools/list":
        return { result: await client.listTools() };
      case "resources/list":
        return { result: await client.listResources() };
      case "prompts/list":
        return { result: await client.listPrompts() };
      case "tools/call":
        return {
          result: await client.callTool({ name: params.name!, arguments: params.arguments ?? {} }),
        };
      case "resources/read":
        return { result: await client.readResource({ uri: params.uri! }) };
      case "prompts/get":
        return {
          result: await client.getPrompt({
            name: params.name!,
            ...(params.arguments ? { arguments: params.arguments as Record<string, string> } : {}),
          }),
        };
      default:
        return { error: { code: null, message: `client does not know ${step.method}` } };
    }
  } catch (error) {
    const e = error as { code?: number; message?: string };
    return { error: { code: e.code ?? null, message: String(e.message ?? error) } };
  }
}

const sdkVersion = (JSON.parse(
  readFileSync(
    new URL("../../node_modules/@modelcontextprotocol/client/package.json", import.meta.url),
    "utf8",
  ),
) as { version: string }).version;
const client = new Client(
  { name: "interop-ts-v2-client", version: "1.0.0" },
  { capabilities: {}, versionNegotiation: { mode } },
);
const transport = values.url
  ? new StreamableHTTPClientTransport(new URL(values.url))
  : new StdioClientTransport({ command: command[0], args: command.slice(1), stderr: "ignore" });
await client.connect(transport);
const results: Record<string, unknown> = {};
for (const step of steps) results[step.name] = await runStep(client, step);
const output = {
  sdk: `typescript @modelcontextprotocol/client ${sdkVersion}`,
  transport: values.url ? "http" : "stdio",
  era: client.getProtocolEra() ?? null,
  initialize: {
    serverInfo: client.getServerVersion(),
    protocolVersion: client.getNegotiatedProtocolVersion() ?? null,
  },
  steps: results,
};
await client.close();
process.stdout.write(JSON.stringify(output, null, 2) + "\n");
process.exit(0);
