/**
 * Field-level comparison of two JSON schemas, classified by who it breaks.
 * For an input schema the caller is the client sending arguments: a new
 * required parameter or a narrower type breaks it, a new optional one does
 * not. For an output schema the caller reads the result: a removed or
 * no-longer-required field breaks it, a new field does not.
 *
 * @module
 */
import { stableStringify } from "../json/values.ts";
import type { Json, JsonObject } from "../jsonrpc/messages.ts";
import { isObject } from "../util/helpers.ts";

/** Which side of a call the schema describes. */
export type SchemaRole = "input" | "output";

/** One difference, down to the field. */
export interface Change {
  /** Dotted path from the item, e.g. `inputSchema.properties.units`. */
  path: string;
  /** What happened, in a few words. */
  what: string;
  breaking: boolean;
  before?: Json;
  after?: Json;
}

function typesOf(schema: JsonObject): Set<string> | undefined {
  const type = schema.type;
  if (typeof type === "string") return new Set(type === "integer" ? ["integer"] : [type]);
  if (Array.isArray(type)) return new Set(type.filter((t): t is string => typeof t === "string"));
  return undefined;
}

/** True when every value of type set `a` is allowed by type set `b`. */
function typesWithin(a: Set<string>, b: Set<string>): boolean {
  return [...a].every((type) => b.has(type) || (type === "integer" && b.has("number")));
}

function requiredOf(schema: JsonObject): Set<string> {
  return new Set(
    Array.isArray(schema.required)
      ? schema.required.filter((r): r is string => typeof r === "string")
      : [],
  );
}

const LOWER_BOUNDS = ["minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties"];
const UPPER_BOUNDS = ["maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties"];
const PROSE = new Set([
  "description",
  "title",
  "examples",
  "$comment",
  "default",
  "$schema",
  "$id",
]);
const HANDLED = new Set([
  "type",
  "properties",
  "required",
  "enum",
  "items",
  "additionalProperties",
  ...LOWER_BOUNDS,
  ...UPPER_BOUNDS,
]);

/**
 * Compares two schemas. For inputs, narrowing breaks (a value the client
 * used to send may now be refused); for outputs, widening does (the reader
 * gets kinds of values it never handled).
 */
export function diffSchema(
  before: Json | undefined,
  after: Json | undefined,
  path: string,
  role: SchemaRole,
): Change[] {
  const changes: Change[] = [];
  if (stableStringify(before ?? null) === stableStringify(after ?? null)) return changes;
  if (!isObject(before) || !isObject(after)) {
    changes.push({
      path,
      what: before === undefined
        ? "schema added"
        : after === undefined
        ? "schema removed"
        : "schema replaced",
      breaking: true,
      before,
      after,
    });
    return changes;
  }
  const pair: SchemaPair = { before, after, path, input: role === "input", role, changes };
  diffType(pair);
  diffProperties(pair);
  diffEnum(pair);
  diffBounds(pair);
  diffItemsAndExtras(pair);
  diffOtherKeywords(pair);
  return changes;
}

/** Two object schemas at one path, and where their differences go. */
interface SchemaPair {
  before: JsonObject;
  after: JsonObject;
  path: string;
  role: SchemaRole;
  /** True for an input schema, where narrowing breaks. */
  input: boolean;
  changes: Change[];
}

function diffType({ before, after, path, input, changes }: SchemaPair): void {
  if (stableStringify(before.type ?? null) === stableStringify(after.type ?? null)) return;
  const oldTypes = typesOf(before);
  const newTypes = typesOf(after);
  let breaking = true;
  if (oldTypes && newTypes) {
    breaking = input ? !typesWithin(oldTypes, newTypes) : !typesWithin(newTypes, oldTypes);
  } else if (!newTypes && input) breaking = false; // the constraint went away
  changes.push({
    path: `${path}.type`,
    what: breaking ? "type changed" : "type widened",
    breaking,
    before: before.type,
    after: after.type,
  });
}

/** Added, removed and re-required properties, then each property's own schema. */
function diffProperties(pair: SchemaPair): void {
  const { before, after, path, input, role, changes } = pair;
  const oldProps = isObject(before.properties) ? before.properties : {};
  const newProps = isObject(after.properties) ? after.properties : {};
  const oldRequired = requiredOf(before);
  const newRequired = requiredOf(after);
  for (const name of [...new Set([...Object.keys(oldProps), ...Object.keys(newProps)])].sort()) {
    const at = `${path}.properties.${name}`;
    if (!(name in oldProps)) {
      const required = newRequired.has(name);
      changes.push(
        input
          ? {
            path: at,
            what: required ? "new required parameter" : "new optional parameter",
            breaking: required,
            after: newProps[name],
          }
          : { path: at, what: "new field", breaking: false, after: newProps[name] },
      );
      continue;
    }
    if (!(name in newProps)) {
      changes.push({
        path: at,
        what: input ? "parameter removed" : "field removed",
        breaking: true,
        before: oldProps[name],
      });
      continue;
    }
    const requiredChange = diffRequired(oldRequired.has(name), newRequired.has(name), at, input);
    if (requiredChange) changes.push(requiredChange);
    changes.push(...diffSchema(oldProps[name], newProps[name], at, role));
  }
}

function diffRequired(
  wasRequired: boolean,
  isRequired: boolean,
  path: string,
  input: boolean,
): Change | undefined {
  if (wasRequired === isRequired) return undefined;
  return isRequired
    ? {
      path,
      what: input ? "parameter became required" : "field became required",
      breaking: input,
    }
    : {
      path,
      what: input ? "parameter became optional" : "field became optional",
      breaking: !input,
    };
}

function diffEnum({ before, after, path, input, changes }: SchemaPair): void {
  if (stableStringify(before.enum ?? null) === stableStringify(after.enum ?? null)) return;
  if (!Array.isArray(before.enum) || !Array.isArray(after.enum)) {
    const narrowed = after.enum !== undefined;
    changes.push({
      path: `${path}.enum`,
      what: narrowed ? "values restricted to an enum" : "enum restriction removed",
      breaking: input === narrowed,
      before: before.enum,
      after: after.enum,
    });
    return;
  }
  const oldValues = new Set(before.enum.map(stableStringify));
  const newValues = new Set(after.enum.map(stableStringify));
  const removed = before.enum.filter((value) => !newValues.has(stableStringify(value)));
  const added = after.enum.filter((value) => !oldValues.has(stableStringify(value)));
  if (removed.length > 0) {
    changes.push({
      path: `${path}.enum`,
      what: `enum values removed: ${removed.map((v) => JSON.stringify(v)).join(", ")}`,
      breaking: input,
      before: removed,
    });
  }
  if (added.length > 0) {
    changes.push({
      path: `${path}.enum`,
      what: `enum values added: ${added.map((v) => JSON.stringify(v)).join(", ")}`,
      breaking: !input,
      after: added,
    });
  }
}

/** Numeric and size bounds: raising a lower bound or lowering an upper bound narrows. */
function diffBounds({ before, after, path, input, changes }: SchemaPair): void {
  const sides = [
    [LOWER_BOUNDS, (a: number, b: number) => b > a],
    [UPPER_BOUNDS, (a: number, b: number) => b < a],
  ] as const;
  for (const [keys, narrowsWhen] of sides) {
    for (const key of keys) {
      const a = before[key];
      const b = after[key];
      if (a === b) continue;
      const narrowed = typeof a === "number" && typeof b === "number"
        ? narrowsWhen(a, b)
        : b !== undefined;
      changes.push({
        path: `${path}.${key}`,
        what: narrowed ? `${key} tightened` : `${key} relaxed`,
        breaking: input === narrowed,
        before: a,
        after: b,
      });
    }
  }
}

function diffItemsAndExtras({ before, after, path, input, role, changes }: SchemaPair): void {
  if (stableStringify(before.items ?? null) !== stableStringify(after.items ?? null)) {
    changes.push(...diffSchema(before.items, after.items, `${path}.items`, role));
  }
  if (
    stableStringify(before.additionalProperties ?? null) ===
      stableStringify(after.additionalProperties ?? null)
  ) return;
  const closed = after.additionalProperties === false;
  changes.push({
    path: `${path}.additionalProperties`,
    what: closed ? "extra properties now refused" : "additionalProperties changed",
    breaking: input ? closed : !closed,
    before: before.additionalProperties,
    after: after.additionalProperties,
  });
}

/** Prose keywords change harmlessly; any keyword not understood here counts as breaking. */
function diffOtherKeywords({ before, after, path, changes }: SchemaPair): void {
  for (const key of [...new Set([...Object.keys(before), ...Object.keys(after)])].sort()) {
    if (HANDLED.has(key)) continue;
    if (stableStringify(before[key] ?? null) === stableStringify(after[key] ?? null)) continue;
    const prose = PROSE.has(key);
    changes.push({
      path: `${path}.${key}`,
      what: prose ? `${key} changed` : `${key} changed (unclassified keyword, counted as breaking)`,
      breaking: !prose,
      before: before[key],
      after: after[key],
    });
  }
}
