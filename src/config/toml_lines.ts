/**
 * Where each setting of a TOML file is written. smol-toml gives values but no
 * positions, and an error that names only the key leaves the user searching,
 * so the text is scanned for section headers and the keys under them.
 *
 * Enough TOML for a config file: `[section]` headers, `key = value` lines
 * (bare or quoted keys, dotted keys by their first part) and top-level
 * `section.key = value`. Lines inside multi-line strings are skipped.
 *
 * @module
 */

/** Line numbers (1-based) of sections and keys, from {@linkcode locateKeys}. */
export interface KeyLines {
  /** The line of `[section]` (or of the first `section.key` at the top level). */
  section(name: string): number | undefined;
  /** The line of `key` in `[section]`. */
  key(section: string, key: string): number | undefined;
}

const HEADER = /^\s*\[\s*([^\[\]]+?)\s*\]\s*(?:#.*)?$/;
const KEY =
  /^\s*("(?:[^"\\]|\\.)*"|'[^']*'|[A-Za-z0-9_-]+)\s*(\.\s*("(?:[^"\\]|\\.)*"|'[^']*'|[A-Za-z0-9_-]+)\s*)*=/;
const KEY_PART = /"(?:[^"\\]|\\.)*"|'[^']*'|[A-Za-z0-9_-]+/g;

function unquote(part: string): string {
  if (part.startsWith('"')) return JSON.parse(part) as string;
  if (part.startsWith("'")) return part.slice(1, -1);
  return part;
}

/** The parts of a dotted key or header: `a."b.c"` is `["a", "b.c"]`. */
function keyParts(text: string): string[] {
  return (text.match(KEY_PART) ?? []).map(unquote);
}

/** Counts the multi-line string delimiters on a line, to know when one is open. */
function togglesMultiline(line: string): boolean {
  const count = (line.match(/"""|'''/g) ?? []).length;
  return count % 2 === 1;
}

/**
 * Scans `text` for section headers and keys.
 *
 * @example
 * ```ts
 * const lines = locateKeys("[replay]\nstrict = true\n");
 * lines.key("replay", "strict"); // 2
 * ```
 */
export function locateKeys(text: string): KeyLines {
  const found = new Map<string, number>();
  const remember = (id: string, line: number) => {
    if (!found.has(id)) found.set(id, line);
  };
  // undefined: the top level; null: inside a nested table, whose keys are not placed.
  let section: string | null | undefined;
  let inMultiline = false;
  text.split(/\r?\n/).forEach((line, index) => {
    const number = index + 1;
    if (inMultiline) {
      if (togglesMultiline(line)) inMultiline = false;
      return;
    }
    const header = line.match(HEADER);
    if (header && !line.trimStart().startsWith("[[")) {
      const parts = keyParts(header[1]);
      remember(`[${parts[0]}]`, number);
      // `[replay.more]` is the key `more` of [replay]; the keys under it are not [replay]'s.
      if (parts.length > 1) remember(`${parts[0]}\u0000${parts[1]}`, number);
      section = parts.length === 1 ? parts[0] : null;
      return;
    }
    const key = line.match(KEY);
    if (key && section !== null) {
      const parts = keyParts(key[0].slice(0, key[0].lastIndexOf("=")));
      if (section !== undefined) remember(`${section}\u0000${parts[0]}`, number);
      else if (parts.length > 1) {
        remember(`[${parts[0]}]`, number);
        remember(`${parts[0]}\u0000${parts[1]}`, number);
      } else remember(`\u0000${parts[0]}`, number);
    }
    if (togglesMultiline(line)) inMultiline = true;
  });
  return {
    section: (name) => found.get(`[${name}]`) ?? found.get(`\u0000${name}`),
    key: (name, key) => found.get(`${name}\u0000${key}`),
  };
}
