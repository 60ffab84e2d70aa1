/**
 * Surface diff: which tools, prompts, resources and templates were added,
 * removed or changed between two recordings, each change classified as
 * breaking or not.
 *
 * @example
 * ```ts
 * const report = diffCassettes(await loadCassette("old.cassette.jsonl"), await loadCassette("new.cassette.jsonl"));
 * if (report.changed) console.log(report.items.map((item) => `${item.status} ${item.kind} ${item.key}`));
 * ```
 *
 * @module
 */
import type { Cassette } from "../cassette/reader.ts";
import { stableStringify } from "../json/values.ts";
import type { Json, JsonObject } from "../jsonrpc/messages.ts";
import { extractSurface } from "../surface/mod.ts";
import { latestOf, readSurface } from "../surface/stream.ts";
import type { SurfaceItem, SurfaceKind } from "../surface/mod.ts";
import { diffSchema } from "./schema.ts";
import type { Change } from "./schema.ts";
import { isObject } from "../util/helpers.ts";

export type { Change, SchemaRole } from "./schema.ts";
export { diffSchema } from "./schema.ts";

/** How one item moved. */
export interface ItemDiff {
  kind: SurfaceKind;
  key: string;
  status: "added" | "removed" | "changed";
  breaking: boolean;
  changes: Change[];
}

/** The whole comparison. */
export interface SurfaceDiff {
  old: string;
  new: string;
  changed: boolean;
  breaking: boolean;
  items: ItemDiff[];
  /** Kinds one side recorded a listing for and the other did not (not compared). */
  unlisted: { kind: SurfaceKind; missingIn: "old" | "new" }[];
}

function textChange(
  path: string,
  before: Json | undefined,
  after: Json | undefined,
  breaking = false,
): Change[] {
  if (stableStringify(before ?? null) === stableStringify(after ?? null)) return [];
  const what = before === undefined
    ? `${path} added`
    : after === undefined
    ? `${path} removed`
    : `${path} changed`;
  const change: Change = { path, what, breaking };
  if (before !== undefined) change.before = before;
  if (after !== undefined) change.after = after;
  return [change];
}

function promptArguments(value: Json | undefined): Map<string, JsonObject> {
  const map = new Map<string, JsonObject>();
  if (Array.isArray(value)) {
    for (const argument of value) {
      if (isObject(argument) && typeof argument.name === "string") {
        map.set(argument.name, argument);
      }
    }
  }
  return map;
}

function diffPromptArguments(before: Json | undefined, after: Json | undefined): Change[] {
  const a = promptArguments(before);
  const b = promptArguments(after);
  const changes: Change[] = [];
  for (const name of [...new Set([...a.keys(), ...b.keys()])].sort()) {
    const path = `arguments.${name}`;
    const old = a.get(name);
    const now = b.get(name);
    if (!old) {
      changes.push({
        path,
        what: now!.required === true ? "new required argument" : "new optional argument",
        breaking: now!.required === true,
        after: now,
      });
    } else if (!now) changes.push({ path, what: "argument removed", breaking: true, before: old });
    else {
      if ((old.required === true) !== (now.required === true)) {
        changes.push({
          path,
          what: now.required === true ? "argument became required" : "argument became optional",
          breaking: now.required === true,
        });
      }
      changes.push(...textChange(`${path}.description`, old.description, now.description));
      changes.push(...textChange(`${path}.title`, old.title, now.title));
    }
  }
  return changes;
}

/** The field-level changes between two versions of one item. */
export function diffItem(kind: SurfaceKind, before: JsonObject, after: JsonObject): Change[] {
  const changes: Change[] = [];
  changes.push(...textChange("title", before.title, after.title));
  changes.push(...textChange("description", before.description, after.description));
  if (kind === "tool") {
    changes.push(...diffSchema(before.inputSchema, after.inputSchema, "inputSchema", "input"));
    changes.push(...diffSchema(before.outputSchema, after.outputSchema, "outputSchema", "output"));
    changes.push(...textChange("annotations", before.annotations, after.annotations));
  } else if (kind === "prompt") {
    changes.push(...diffPromptArguments(before.arguments, after.arguments));
  } else {
    if (kind === "resource" || kind === "template") {
      changes.push(...textChange("name", before.name, after.name));
    }
    changes.push(...textChange("mimeType", before.mimeType, after.mimeType, true));
  }
  return changes;
}

const KIND_ORDER: SurfaceKind[] = ["tool", "prompt", "resource", "template"];

/** What diff compares of one cassette: its listed items and which kinds it listed. */
export interface ListedSurface {
  path: string;
  items: readonly SurfaceItem[];
  listed: ReadonlySet<SurfaceKind>;
}

/** Options of the comparison. */
export interface DiffOptions {
  toolsOnly?: boolean;
}

/** Compares the surfaces of two cassettes. */
export function diffCassettes(
  old: Cassette,
  now: Cassette,
  options: DiffOptions = {},
): SurfaceDiff {
  const surfaceOf = (cassette: Cassette): ListedSurface => {
    const { items, listed } = extractSurface(cassette.entries);
    return { path: cassette.path, items, listed };
  };
  return diffSurfaces(surfaceOf(old), surfaceOf(now), options);
}

/**
 * Compares the cassettes at two paths, streaming each: only the listed
 * items are kept, not the files. Equal to {@linkcode diffCassettes} of the
 * loaded files.
 */
export async function diffFiles(
  oldPath: string,
  newPath: string,
  options: DiffOptions = {},
): Promise<SurfaceDiff> {
  const read = async (path: string): Promise<ListedSurface> => {
    const { surface } = await readSurface(path);
    return { path, items: surface.items, listed: surface.listed };
  };
  return diffSurfaces(await read(oldPath), await read(newPath), options);
}

/** Compares two surfaces. */
export function diffSurfaces(
  oldSurface: ListedSurface,
  newSurface: ListedSurface,
  options: DiffOptions = {},
): SurfaceDiff {
  const kinds = options.toolsOnly ? (["tool"] as SurfaceKind[]) : KIND_ORDER;
  const before = latestOf(oldSurface.items);
  const after = latestOf(newSurface.items);
  const items: ItemDiff[] = [];
  const unlisted: SurfaceDiff["unlisted"] = [];
  for (const kind of kinds) {
    const inOld = oldSurface.listed.has(kind);
    const inNew = newSurface.listed.has(kind);
    if (inOld !== inNew) {
      // A listing one recording never made says nothing about the server.
      unlisted.push({ kind, missingIn: inOld ? "new" : "old" });
      continue;
    }
    const keys = new Set<string>();
    const collect = (map: Map<string, SurfaceItem>) => {
      for (const item of map.values()) if (item.kind === kind) keys.add(item.key);
    };
    collect(before);
    collect(after);
    for (const key of [...keys].sort()) {
      const a = before.get(`${kind}\u0000${key}`);
      const b = after.get(`${kind}\u0000${key}`);
      if (!a) items.push({ kind, key, status: "added", breaking: false, changes: [] });
      else if (!b) items.push({ kind, key, status: "removed", breaking: true, changes: [] });
      else {
        const changes = diffItem(kind, a.value, b.value);
        if (changes.length > 0) {
          items.push({
            kind,
            key,
            status: "changed",
            breaking: changes.some((c) => c.breaking),
            changes,
          });
        }
      }
    }
  }
  return {
    old: oldSurface.path,
    new: newSurface.path,
    changed: items.length > 0,
    breaking: items.some((item) => item.breaking),
    items,
    unlisted,
  };
}

function shortJson(value: Json | undefined): string {
  const text = JSON.stringify(value) ?? "";
  return text.length > 60 ? text.slice(0, 59) + "…" : text;
}

/** The text report. */
export function formatDiffText(diff: SurfaceDiff): string {
  const lines: string[] = [];
  for (const item of diff.items) {
    const sign = item.status === "added" ? "+" : item.status === "removed" ? "-" : "~";
    const tag = item.breaking ? "BREAKING" : "non-breaking";
    lines.push(`${sign} ${item.kind} ${item.key} (${item.status}, ${tag})`);
    for (const change of item.changes) {
      const values = change.before !== undefined || change.after !== undefined
        ? `: ${change.before !== undefined ? shortJson(change.before) : "∅"} → ${
          change.after !== undefined ? shortJson(change.after) : "∅"
        }`
        : "";
      lines.push(
        `    ${change.path}: ${change.what}${change.breaking ? " [breaking]" : ""}${values}`,
      );
    }
  }
  for (const { kind, missingIn } of diff.unlisted) {
    lines.push(`? ${kind}s: not compared, the ${missingIn} cassette never listed them`);
  }
  if (!diff.changed) lines.push(`${diff.old} → ${diff.new}: surface unchanged`);
  else {
    const breaking = diff.items.filter((item) => item.breaking).length;
    lines.push(`${diff.items.length} item(s) changed, ${breaking} breaking`);
  }
  return lines.join("\n") + "\n";
}
