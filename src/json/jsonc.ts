/**
 * JSON with comments and trailing commas (the shape of MCP client configs
 * and playbooks), through `jsonc-parser`, which reports errors instead of
 * throwing: this wrapper turns the first one into a line and column.
 *
 * @module
 */
import { findNodeAtLocation, parse, parseTree, printParseErrorCode } from "jsonc-parser";
import type { ParseError } from "jsonc-parser";

/** Where an offset of `text` falls, 1-based. */
export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text[i] === "\n") {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

/** What {@linkcode parseJsonc} gives back. */
export type JsoncResult =
  | { ok: true; value: unknown }
  | { ok: false; line: number; column: number; problem: string };

/**
 * Parses JSONC; the first syntax error comes back with its place, for the
 * caller to name its own file in the message.
 *
 * @example
 * ```ts
 * const parsed = parseJsonc('{"a": 1, // why\n}');
 * if (parsed.ok) console.log(parsed.value);
 * ```
 */
export function parseJsonc(text: string): JsoncResult {
  const errors: ParseError[] = [];
  const value: unknown = parse(text, errors, { allowTrailingComma: true, disallowComments: false });
  if (errors.length === 0) return { ok: true, value };
  const { line, column } = lineAndColumn(text, errors[0].offset);
  return { ok: false, line, column, problem: printParseErrorCode(errors[0].error) };
}

/**
 * A function that tells where a value of `text` starts (`line:column`), by
 * its path of keys and indexes; undefined for a path that is not there.
 */
export function jsoncLocator(text: string): (path: (string | number)[]) => string | undefined {
  const tree = parseTree(text, [], { allowTrailingComma: true, disallowComments: false });
  return (path) => {
    const node = tree && findNodeAtLocation(tree, path);
    if (!node) return undefined;
    const { line, column } = lineAndColumn(text, node.offset);
    return `${line}:${column}`;
  };
}
