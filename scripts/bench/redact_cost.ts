/**
 * The cost of redacting one message (what the recorder pays per frame).
 * Usage: deno run -A --no-check scripts/bench/redact_cost.ts
 */
import { createRedactor } from "../../src/redact/mod.ts";
const r = await createRedactor({});
const msgs = [
  {
    jsonrpc: "2.0",
    id: 5,
    method: "tools/call",
    params: { name: "echo", arguments: { message: "m123" } },
  },
  { jsonrpc: "2.0", id: 5, result: { content: [{ type: "text", text: "Echo: m123" }] } },
  {
    jsonrpc: "2.0",
    id: 5,
    result: {
      content: [{
        type: "text",
        text:
          "The weather in Lisbon is 21 degrees, humidity 82%, wind 12 km/h from the north-west. "
            .repeat(10),
      }],
    },
  },
];
for (const m of msgs) {
  const N = 5000;
  const t = performance.now();
  for (let i = 0; i < N; i++) r.message(m as never, "s2c");
  console.log(
    `${JSON.stringify(m).length} bytes: ${((performance.now() - t) * 1000 / N).toFixed(1)} µs`,
  );
}
