/**
 * A generic client of the official TypeScript SDK (v1): runs any session
 * spec in the shape of session.json and prints the same JSON document as the
 * Python and Go clients. The interop suite replays the reference servers of
 * the other SDKs to it.
 *
 * Usage: deno run -A --no-check tests/interop/ts_client.ts --session FILE
 *          (--url URL | -- <server command...>)
 */
import { Client } from "../sdk.ts";
import { StdioClientTransport } from "../sdk.ts";
import { StreamableHTTPClientTransport } from "../sdk.ts";
import { readFileSync } from "node:fs";
import process from "node:process";
import { parseArgs } from "node:util";
import type { SessionStep } from "./check.ts";

const separator = process.argv.indexOf("--");
const own = separator === -1 ? process.argv.slice(2) : process.argv.slice(2, separator);
const command = separator === -1 ? [] : process.argv.slice(separator + 1);
const { values } = parseArgs({
  args: own,
  options: { session: { type: "string" }, url: { type: "string" } },
});
if (!values.session || (!values.url && command.length === 0)) {
  process.stderr.write("usage: ts_client.ts --session FILE (--url URL | -- <server command...>)\n");
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
    new URL("../../node_modules/@modelcontextprotocol/sdk/package.json", import.meta.url),
    "utf8",
  ),
) as { version: string }).version;
const client = new Client({ name: "interop-ts-client", version: "1.0.0" }, { capabilities: {} });
const transport = values.url
  ? new StreamableHTTPClientTransport(new URL(values.url))
  : new StdioClientTransport({ command: command[0], args: command.slice(1), stderr: "ignore" });
// The SDK tells the negotiated revision only to transports that ask for it
// (HTTP); listen in on that hook so stdio reports it too.
let negotiated: string | null = null;
const hooked = transport as { setProtocolVersion?: (version: string) => void };
const original = hooked.setProtocolVersion?.bind(transport);
hooked.setProtocolVersion = (version: string) => {
  negotiated = version;
  original?.(version);
};
await client.connect(transport);
const results: Record<string, unknown> = {};
for (const step of steps) results[step.name] = await runStep(client, step);
const output = {
  sdk: `typescript @modelcontextprotocol/sdk ${sdkVersion}`,
  transport: values.url ? "http" : "stdio",
  era: "legacy",
  initialize: {
    serverInfo: client.getServerVersion(),
    protocolVersion: negotiated,
  },
  steps: results,
};
await client.close();
process.stdout.write(JSON.stringify(output, null, 2) + "\n");
process.exit(0);
