/**
 * The demo pair: a small travel-helper server and its regressed twin. Both
 * list exactly the same tools; the twin has drifted in behaviour — its
 * currency conversion uses another rate (a value change) and its weather
 * report renamed a field (a structure change).
 *
 * @module
 */
import type { JsonObject } from "../jsonrpc/messages.ts";
import { serveStdio, textResult } from "./server_kit.ts";
import type { ServerSpec, ToolSpec } from "./server_kit.ts";

/** Which twin to serve. */
export type DemoVariant = "healthy" | "regressed";

/** The demo variants. */
export const DEMO_VARIANTS: readonly DemoVariant[] = ["healthy", "regressed"];

const RATES: Record<DemoVariant, number> = { healthy: 1.085, regressed: 1.102 };

function weatherTool(variant: DemoVariant): ToolSpec {
  return {
    definition: {
      name: "get_weather",
      description: "Current weather for a city",
      inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
      annotations: { readOnlyHint: true },
    },
    call(args) {
      const city = typeof args.city === "string" ? args.city : "Paris";
      // The timestamp differs on every call: verify masks it.
      const report: JsonObject = variant === "healthy"
        ? { city, temperature_c: 21, conditions: "sunny", observed_at: new Date().toISOString() }
        : { city, temp_c: 21, conditions: "sunny", observed_at: new Date().toISOString() };
      return textResult(JSON.stringify(report));
    },
  };
}

function convertTool(variant: DemoVariant): ToolSpec {
  return {
    definition: {
      name: "convert_currency",
      description: "Converts an amount from EUR to USD",
      inputSchema: {
        type: "object",
        properties: { amount: { type: "number" } },
        required: ["amount"],
      },
      annotations: { readOnlyHint: true },
    },
    call(args) {
      const amount = typeof args.amount === "number" ? args.amount : 0;
      const usd = Math.round(amount * RATES[variant] * 100) / 100;
      return textResult(JSON.stringify({ from: "EUR", to: "USD", amount, result: usd }));
    },
  };
}

const echoTool: ToolSpec = {
  definition: {
    name: "echo",
    description: "Echoes a message back",
    inputSchema: {
      type: "object",
      properties: { message: { type: "string" } },
      required: ["message"],
    },
  },
  call: (args) => textResult(String(args.message ?? "")),
};

/** The server definition of a variant. */
export function demoServer(variant: DemoVariant): ServerSpec {
  // Same name and version for both: the twin looks identical from outside.
  return {
    name: "travel-helper",
    version: "1.4.0",
    tools: [weatherTool(variant), convertTool(variant), echoTool],
  };
}

/** Serves a variant on stdio (what `demo --serve` runs). */
export function serveDemo(variant: DemoVariant): Promise<void> {
  return serveStdio(demoServer(variant));
}
