/**
 * A structural check of the JSON Schemas a server declares for its tools.
 * It does not validate instances: it asks whether the schema itself is well
 * formed enough for a client to use, and names the exact place when not.
 *
 * @module
 */
import type { Json, JsonObject } from "../jsonrpc/messages.ts";
import { pathStep } from "../json/values.ts";
import { isObject } from "../util/helpers.ts";

/** How bad a finding is: errors fail `check`, warnings do not. */
export type Severity = "error" | "warning";

/** One problem with a schema. */
export interface SchemaFinding {
  severity: Severity;
  /** Where in the schema, e.g. `inputSchema.properties.query.type`. */
  path: string;
  message: string;
}

const TYPES = new Set(["string", "number", "integer", "boolean", "object", "array", "null"]);
const SUBSCHEMA_LISTS = ["allOf", "anyOf", "oneOf", "prefixItems"];
const SUBSCHEMA_SINGLE = [
  "not",
  "if",
  "then",
  "else",
  "additionalProperties",
  "contains",
  "propertyNames",
  "unevaluatedProperties",
  "unevaluatedItems",
];
const SUBSCHEMA_MAPS = [
  "properties",
  "patternProperties",
  "$defs",
  "definitions",
  "dependentSchemas",
];
const NON_NEGATIVE_INTEGERS = [
  "minLength",
  "maxLength",
  "minItems",
  "maxItems",
  "minProperties",
  "maxProperties",
  "minContains",
  "maxContains",
];
const NUMBERS = ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"];

function describe(value: Json | undefined): string {
  if (value === undefined) return "absent";
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return `a ${typeof value}`;
}

/** Checks one (sub)schema; `findings` collects what is wrong. */
function checkSchema(schema: Json, path: string, findings: SchemaFinding[], depth: number): void {
  if (typeof schema === "boolean") return;
  if (!isObject(schema)) {
    findings.push({
      severity: "error",
      path,
      message: `a schema must be an object or a boolean, not ${describe(schema)}`,
    });
    return;
  }
  if (depth > 64) {
    findings.push({
      severity: "warning",
      path,
      message: "schema nests deeper than 64 levels; not checked further",
    });
    return;
  }
  checkType(schema, path, findings);
  checkProperties(schema, path, findings, depth);
  checkRequired(schema, path, findings);
  checkSubschemas(schema, path, findings, depth);
  checkKeywordValues(schema, path, findings);
  if ("pattern" in schema) checkPattern(schema.pattern, path + ".pattern", findings);
  if ("description" in schema && typeof schema.description !== "string") {
    findings.push({
      severity: "warning",
      path: path + ".description",
      message: `"description" should be a string, not ${describe(schema.description)}`,
    });
  }
}

/** Recurses into every keyword that holds schemas (`properties` has its own check). */
function checkSubschemas(
  schema: JsonObject,
  path: string,
  findings: SchemaFinding[],
  depth: number,
): void {
  if ("items" in schema) {
    const items = schema.items;
    if (Array.isArray(items)) {
      items.forEach((item, i) => checkSchema(item, `${path}.items[${i}]`, findings, depth + 1));
    } else checkSchema(items, `${path}.items`, findings, depth + 1);
  }
  for (const key of SUBSCHEMA_SINGLE) {
    if (key in schema) checkSchema(schema[key], path + pathStep(key), findings, depth + 1);
  }
  for (const key of SUBSCHEMA_LISTS) {
    if (!(key in schema)) continue;
    const list = schema[key];
    if (!Array.isArray(list) || list.length === 0) {
      findings.push({
        severity: "error",
        path: path + pathStep(key),
        message: `"${key}" must be a non-empty array of schemas`,
      });
    } else {list.forEach((item, i) =>
        checkSchema(item, `${path}${pathStep(key)}[${i}]`, findings, depth + 1)
      );}
  }
  for (const key of SUBSCHEMA_MAPS.filter((k) => k !== "properties" && k in schema)) {
    const map = schema[key];
    if (!isObject(map)) {
      findings.push({
        severity: "error",
        path: path + pathStep(key),
        message: `"${key}" must be an object of schemas, not ${describe(map)}`,
      });
    } else {for (const [name, sub] of Object.entries(map)) {
        checkSchema(sub, path + pathStep(key) + pathStep(name), findings, depth + 1);
      }}
  }
}

/** The keywords whose value has a fixed shape: `enum`, counts and numeric bounds. */
function checkKeywordValues(schema: JsonObject, path: string, findings: SchemaFinding[]): void {
  if ("enum" in schema && (!Array.isArray(schema.enum) || schema.enum.length === 0)) {
    findings.push({
      severity: "error",
      path: path + ".enum",
      message: `"enum" must be a non-empty array, not ${describe(schema.enum)}`,
    });
  }
  for (const key of NON_NEGATIVE_INTEGERS) {
    if (!(key in schema)) continue;
    const value = schema[key];
    if (typeof value !== "number" || !Number.isInteger(value) || value < 0) {
      findings.push({
        severity: "error",
        path: path + pathStep(key),
        message: `"${key}" must be a non-negative integer, not ${JSON.stringify(value)}`,
      });
    }
  }
  for (const key of NUMBERS) {
    if (key in schema && typeof schema[key] !== "number") {
      findings.push({
        severity: "error",
        path: path + pathStep(key),
        message: `"${key}" must be a number, not ${describe(schema[key])}`,
      });
    }
  }
  if (
    typeof schema.minimum === "number" && typeof schema.maximum === "number" &&
    schema.minimum > schema.maximum
  ) {
    findings.push({
      severity: "error",
      path,
      message: `"minimum" ${schema.minimum} is above "maximum" ${schema.maximum}`,
    });
  }
}

function checkType(schema: JsonObject, path: string, findings: SchemaFinding[]) {
  if (!("type" in schema)) return;
  const type = schema.type;
  const list = Array.isArray(type) ? type : [type];
  if (list.length === 0) {
    findings.push({
      severity: "error",
      path: path + ".type",
      message: `"type" must not be an empty array`,
    });
  }
  for (const item of list) {
    if (typeof item !== "string" || !TYPES.has(item)) {
      findings.push({
        severity: "error",
        path: path + ".type",
        message: `unknown type ${JSON.stringify(item)} (expected one of ${[...TYPES].join(", ")})`,
      });
    }
  }
  if (
    Array.isArray(type) && new Set(type.map((item) => JSON.stringify(item))).size !== type.length
  ) {
    findings.push({
      severity: "warning",
      path: path + ".type",
      message: `"type" lists a type twice`,
    });
  }
}

function checkProperties(
  schema: JsonObject,
  path: string,
  findings: SchemaFinding[],
  depth: number,
) {
  if (!("properties" in schema)) return;
  const properties = schema.properties;
  if (!isObject(properties)) {
    findings.push({
      severity: "error",
      path: path + ".properties",
      message: `"properties" must be an object of schemas, not ${describe(properties)}`,
    });
    return;
  }
  for (const [name, sub] of Object.entries(properties)) {
    checkSchema(sub, path + ".properties" + pathStep(name), findings, depth + 1);
  }
}

function checkRequired(schema: JsonObject, path: string, findings: SchemaFinding[]) {
  if (!("required" in schema)) return;
  const required = schema.required;
  if (!Array.isArray(required)) {
    findings.push({
      severity: "error",
      path: path + ".required",
      message: `"required" must be an array of strings, not ${describe(required)}`,
    });
    return;
  }
  const declared = isObject(schema.properties) ? schema.properties : undefined;
  const open = schema.additionalProperties !== false && !isObject(schema.patternProperties);
  const seen = new Set<string>();
  required.forEach((name, i) => {
    const where = `${path}.required[${i}]`;
    if (typeof name !== "string") {
      findings.push({
        severity: "error",
        path: where,
        message: `"required" entries must be strings, not ${describe(name)}`,
      });
      return;
    }
    if (seen.has(name)) {
      findings.push({ severity: "warning", path: where, message: `"${name}" is listed twice` });
    }
    seen.add(name);
    if (!declared || !(name in declared)) {
      // Legal JSON Schema, but a client building a form cannot know the field.
      findings.push({
        severity: open ? "warning" : "error",
        path: where,
        message: `"${name}" is required but not declared in "properties"`,
      });
    }
  });
}

function checkPattern(pattern: Json | undefined, path: string, findings: SchemaFinding[]) {
  if (typeof pattern !== "string") {
    findings.push({
      severity: "error",
      path,
      message: `"pattern" must be a string, not ${describe(pattern)}`,
    });
    return;
  }
  try {
    new RegExp(pattern, "u");
  } catch {
    findings.push({
      severity: "warning",
      path,
      message: `"pattern" ${JSON.stringify(pattern)} is not a valid regular expression here`,
    });
  }
}

/**
 * Checks a tool's `inputSchema` or `outputSchema`: it must be an object
 * schema with `type: "object"`, and everything below must be well formed.
 *
 * @example
 * ```ts
 * checkToolSchema({ type: "object", required: ["q"] }, "inputSchema");
 * // [{ severity: "warning", path: "inputSchema.required[0]", message: '"q" is required but not declared in "properties"' }]
 * ```
 */
export function checkToolSchema(schema: Json | undefined, path: string): SchemaFinding[] {
  const findings: SchemaFinding[] = [];
  if (!isObject(schema)) {
    findings.push({
      severity: "error",
      path,
      message: `must be a JSON Schema object, not ${describe(schema)}`,
    });
    return findings;
  }
  if (schema.type !== "object") {
    findings.push({
      severity: "error",
      path: path + ".type",
      message: `must be "object" (MCP tool schemas describe ${
        path === "outputSchema" ? "a structured result" : "an arguments"
      } object), not ${JSON.stringify(schema.type ?? null)}`,
    });
  }
  checkSchema(schema, path, findings, 0);
  // The "must be object" finding above already covers a bad top-level type.
  return findings.filter((finding, i) =>
    !(finding.path === path + ".type" && i > 0 && findings[0].path === path + ".type")
  );
}
