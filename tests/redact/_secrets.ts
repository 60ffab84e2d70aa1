/**
 * The secrets the default detectors used to miss (issue 18), built so that
 * no real credential sits in the source, and a stdio MCP server
 * (`deno run tests/redact/_secrets.ts`) whose `leak` tool returns them all:
 * in text, in structured content, and as object keys.
 */
import process from "node:process";

/** Each planted secret, by the detector meant to catch it. */
export const PLANTED: Record<string, string> = {
  "stripe-key": `sk_live_${"4eC39Hq".repeat(4)}`,
  "stripe-restricted": `rk_live_${"51H8aBc".repeat(4)}`,
  "npm-token": `npm_${"q7Rt2".repeat(7)}x`,
  "slack-webhook": `https://hooks.slack.com/services/T01ABCDEF/B02GHIJKL/${"Zx9".repeat(8)}`,
  "basic-auth": btoa("deploy:Sup3rS3cret"),
  "url-password": "pa55w0rd!",
  "github-key": `ghp_${"Ab3Cd9".repeat(6)}`,
  "hex-token": "9f".repeat(20),
  "env-secret": "Hunt3r2-prod-Secret",
  "azure-key": `${"Eby8vdM02xNOcqFl".repeat(5)}Aa==`,
};

/** The tool result carrying them. */
export function leakResult(): Record<string, unknown> {
  const text = [
    `stripe ${PLANTED["stripe-key"]} and ${PLANTED["stripe-restricted"]}`,
    `npm token ${PLANTED["npm-token"]}`,
    `webhook ${PLANTED["slack-webhook"]}`,
    `Authorization: Basic ${PLANTED["basic-auth"]}`,
    `token ${PLANTED["hex-token"]}`,
    `export DB_PASSWORD=${PLANTED["env-secret"]}`,
  ].join("\n");
  return {
    content: [{ type: "text", text }],
    structuredContent: {
      database: `postgres://admin:${PLANTED["url-password"]}@db/x`,
      storage: `DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=${
        PLANTED["azure-key"]
      };EndpointSuffix=core.windows.net`,
      tokens: { [PLANTED["github-key"]]: "owner" },
    },
  };
}

function answer(message: { id?: unknown; method?: string }): unknown {
  if (message.method === "initialize") {
    return {
      protocolVersion: "2025-11-25",
      capabilities: { tools: {} },
      serverInfo: { name: "secrets", version: "1" },
    };
  }
  return message.method === "tools/call" ? leakResult() : {};
}

if ((import.meta as { main?: boolean }).main || process.argv.includes("--serve")) {
  let pending = "";
  process.stdin.setEncoding("utf8");
  process.stdin.on("data", (chunk: string) => {
    pending += chunk;
    let newline = pending.indexOf("\n");
    while (newline !== -1) {
      const message = JSON.parse(pending.slice(0, newline));
      pending = pending.slice(newline + 1);
      newline = pending.indexOf("\n");
      if (message.id === undefined) continue;
      process.stdout.write(
        JSON.stringify({ jsonrpc: "2.0", id: message.id, result: answer(message) }) + "\n",
      );
    }
  });
  process.stdin.on("end", () => process.exit(0));
}
