/**
 * What the JSON Schemas in `schemas/` share: the dialect, and a JSON Schema
 * value type loose enough to write them as plain objects.
 *
 * @module
 */

/** The dialect every schema declares: JSON Schema draft 2020-12. */
export const DIALECT = "https://json-schema.org/draft/2020-12/schema";

/** A JSON Schema document or subschema. */
export type JsonSchema = { [keyword: string]: unknown };

/** A string property with a description. */
export function text(description: string): JsonSchema {
  return { type: "string", description };
}

/** An object that takes any JSON (arguments, params, capabilities). */
export function anyObject(description: string): JsonSchema {
  return { type: "object", description };
}
