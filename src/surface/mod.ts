/**
 * The server surface a cassette recorded: the tools, prompts, resources and
 * resource templates the server listed, plus who the server said it was.
 * Taken from the recorded list results (all pages, all sessions).
 *
 * @example
 * ```ts
 * const cassette = await loadCassette("weather.cassette.jsonl");
 * const surface = extractSurface(cassette.entries);
 * console.log(surface.items.filter((item) => item.kind === "tool").map((item) => item.key));
 * ```
 *
 * @module
 */
import type { LocatedEntry } from "../cassette/reader.ts";
import type { Json, JsonObject } from "../jsonrpc/messages.ts";
import { offersModernEra } from "../jsonrpc/messages.ts";
import { listMessages, pairMessages, pointerToken, resultOf } from "./messages.ts";
import type { Exchange, LocatedMessage } from "./messages.ts";
import { isObject } from "../util/helpers.ts";

export * from "./messages.ts";

/** The kinds of things a server offers. */
export type SurfaceKind = "tool" | "prompt" | "resource" | "template";

/** One listed tool, prompt, resource or template, where it was listed. */
export interface SurfaceItem {
  kind: SurfaceKind;
  /** What identifies it: the name (tools, prompts), the URI or the URI template. */
  key: string;
  value: JsonObject;
  line: number;
  /** JSON pointer of the item inside its line. */
  pointer: string;
  session: string;
  /** Which list response (index into {@linkcode Surface.lists}) it came from. */
  list: number;
}

/** A recorded list call: one page of tools, prompts, resources or templates. */
export interface SurfaceList {
  kind: SurfaceKind;
  exchange: Exchange;
}

/** What the server said about itself in `initialize` (or `server/discover`). */
export interface ServerIdentity {
  name?: string;
  version?: string;
  protocolVersion?: string;
  instructions?: string;
  line: number;
  pointer: string;
}

/** The recorded server surface. */
export interface Surface {
  /** Every listed item, in order, duplicates included. */
  items: SurfaceItem[];
  lists: SurfaceList[];
  server?: ServerIdentity;
  /** Which kinds the cassette recorded a list for (an absent kind is unknown, not empty). */
  listed: Set<SurfaceKind>;
}

/** List methods and the result field that holds their items. */
export const LIST_METHODS: Record<string, { kind: SurfaceKind; field: string; keyField: string }> =
  {
    "tools/list": { kind: "tool", field: "tools", keyField: "name" },
    "prompts/list": { kind: "prompt", field: "prompts", keyField: "name" },
    "resources/list": { kind: "resource", field: "resources", keyField: "uri" },
    "resources/templates/list": {
      kind: "template",
      field: "resourceTemplates",
      keyField: "uriTemplate",
    },
  };

/** The server's identity from its initialize (or discover) answer, when it has one. */
export function identityFrom(exchange: Exchange): ServerIdentity | undefined {
  const result = resultOf(exchange.response);
  if (!result || !exchange.response) return undefined;
  const info = isObject(result.serverInfo) ? result.serverInfo : undefined;
  const text = (value: Json | undefined) => typeof value === "string" ? value : undefined;
  return {
    name: text(info?.name),
    version: text(info?.version),
    protocolVersion: text(result.protocolVersion) ??
      (Array.isArray(result.supportedVersions) ? text(result.supportedVersions[0]) : undefined),
    instructions: text(result.instructions),
    line: exchange.response.line,
    pointer: `${exchange.response.pointer}/result`,
  };
}

/**
 * True for the exchange that opened the session: `initialize`, or a
 * `server/discover` answered offering 2026-07-28. A probe answered with an
 * error or with earlier versions only is not one: the client fell back to
 * `initialize`.
 */
export function isHandshake(method: string, result: JsonObject | undefined): boolean {
  return method === "initialize" || (method === "server/discover" && offersModernEra(result));
}

/** Extracts the surface from entries (or from already listed messages). */
export function extractSurface(
  entries: readonly LocatedEntry[],
  messages?: LocatedMessage[],
): Surface {
  const { exchanges } = pairMessages(messages ?? listMessages(entries));
  const surface: Surface = { items: [], lists: [], listed: new Set() };
  for (const exchange of exchanges) {
    const method = exchange.request.method ?? "";
    if (exchange.request.dir !== "c2s") continue;
    if (isHandshake(method, resultOf(exchange.response)) && !surface.server) {
      surface.server = identityFrom(exchange);
      continue;
    }
    const spec = LIST_METHODS[method];
    const result = resultOf(exchange.response);
    if (!spec || !result || !exchange.response || !Array.isArray(result[spec.field])) continue;
    const listIndex = surface.lists.length;
    surface.lists.push({ kind: spec.kind, exchange });
    surface.listed.add(spec.kind);
    (result[spec.field] as Json[]).forEach((value, i) => {
      if (!isObject(value)) return;
      const key = value[spec.keyField];
      surface.items.push({
        kind: spec.kind,
        key: typeof key === "string" ? key : JSON.stringify(key ?? null),
        value,
        line: exchange.response!.line,
        pointer: `${exchange.response!.pointer}/result/${pointerToken(spec.field)}/${i}`,
        session: exchange.response!.session,
        list: listIndex,
      });
    });
  }
  return surface;
}

/**
 * The surface with one item per kind and key: the last listing wins, since a
 * server that changed its list mid-session (`list_changed`) ended up there.
 */
export function latestItems(surface: Surface): Map<string, SurfaceItem> {
  const map = new Map<string, SurfaceItem>();
  for (const item of surface.items) map.set(`${item.kind}\u0000${item.key}`, item);
  return map;
}
