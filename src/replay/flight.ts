/**
 * A live request being served, and what it changes about the recorded
 * notifications sent for it: the live progress token, the log level.
 *
 * @module
 */
import type { JsonObject, JsonRpcMessage } from "../jsonrpc/messages.ts";
import type { Step } from "./episodes.ts";
import { asRecorded, withProgressToken } from "./wire.ts";
import type { Ready } from "./wire.ts";
import { PROTOCOL_VERSION_META } from "../jsonrpc/messages.ts";

const LOG_LEVELS = [
  "debug",
  "info",
  "notice",
  "warning",
  "error",
  "critical",
  "alert",
  "emergency",
];
const MODERN_LOG_LEVEL_KEY = "io.modelcontextprotocol/logLevel";

/** State of one live request being served. */
export interface InFlight {
  cancelled: boolean;
  /** The live request's progress token, put on recorded progress notifications. */
  progressToken?: JsonObject[string];
  /** The modern era's per-request log level ("none" when the request carries none). */
  logLevel?: string;
}

function metaOf(message: JsonRpcMessage): JsonObject | undefined {
  const params = message.params as JsonObject | undefined;
  const meta = params && !Array.isArray(params) ? params._meta : undefined;
  return meta && typeof meta === "object" && !Array.isArray(meta) ? meta as JsonObject : undefined;
}

/** The in-flight state of a live request: its progress token and log level. */
export function flightOf(message: JsonRpcMessage): InFlight {
  const meta = metaOf(message);
  const flight: InFlight = { cancelled: false, progressToken: meta?.progressToken };
  if (meta && PROTOCOL_VERSION_META in meta) {
    const level = meta[MODERN_LOG_LEVEL_KEY];
    flight.logLevel = typeof level === "string" ? level : "none";
  }
  return flight;
}

/**
 * A recorded notification adapted to the live request (`sessionLevel`: what
 * the client set with logging/setLevel), or undefined when it is not to be
 * sent (a log message below the level asked for).
 */
export function livened(
  step: Step & { kind: "message" },
  flight: InFlight,
  sessionLevel: string | undefined,
): Ready | undefined {
  const message = step.msg;
  if (message.method === "notifications/progress" && flight.progressToken !== undefined) {
    return withProgressToken(step, flight.progressToken);
  }
  if (message.method === "notifications/message") {
    const level = (message.params as JsonObject | undefined)?.level;
    const threshold = flight.logLevel ?? sessionLevel;
    if (threshold === "none") return undefined;
    if (
      threshold && typeof level === "string" &&
      LOG_LEVELS.indexOf(level) < LOG_LEVELS.indexOf(threshold)
    ) {
      return undefined;
    }
  }
  return asRecorded(step);
}
