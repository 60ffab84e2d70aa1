/** Shared builders for the fault tests. */
import type { FaultSubject } from "../../src/faults/mod.ts";
import { faultSubjectFromRequest } from "../../src/faults/mod.ts";

let nextId = 1;

/** A request subject as the engine would pass it. */
export function request(method: string, params?: Record<string, string>): FaultSubject {
  return faultSubjectFromRequest({
    jsonrpc: "2.0",
    id: nextId++,
    method,
    ...(params ? { params } : {}),
  });
}

/** A `tools/call` of this tool. */
export function callTool(name: string): FaultSubject {
  return request("tools/call", { name });
}
