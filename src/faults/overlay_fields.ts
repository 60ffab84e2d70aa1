/**
 * The small readers every part of the fault overlay parser shares, and the
 * error they throw: each names the file, the entry and the field.
 *
 * @module
 */
import { CassetteError } from "../errors/errors.ts";

/** A fault overlay that cannot be used: names the file, the entry and the problem on one line. */
export class FaultOverlayError extends CassetteError {
  constructor(readonly file: string, readonly entry: string | undefined, readonly problem: string) {
    super(entry === undefined ? `${file}: ${problem}` : `${file}: ${entry}: ${problem}`);
  }
}

/** A parsed JSON object whose fields are not checked yet. */
export type JsonRecord = Record<string, unknown>;

/** Reports problems against one place in the file. */
export class Where {
  constructor(readonly file: string, readonly entry?: string) {}
  fail(problem: string): never {
    throw new FaultOverlayError(this.file, this.entry, problem);
  }
}

/** True for a JSON object (not null, not an array). */
export function isRecord(value: unknown): value is JsonRecord {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** A value as it appears in a message, cut short when long. */
export function show(value: unknown): string {
  if (value === undefined) return "nothing";
  const text = JSON.stringify(value);
  return text.length > 40 ? `${text.slice(0, 37)}...` : text;
}

/** Fails on the first key of `record` that is not `allowed`, naming the known ones. */
export function checkKeys(
  where: Where,
  record: JsonRecord,
  allowed: ReadonlySet<string>,
  prefix: string,
): void {
  for (const key of Object.keys(record)) {
    if (!allowed.has(key)) {
      where.fail(
        `unknown field "${prefix}${key}" (known: ${
          [...allowed].map((k) => prefix + k).join(", ")
        })`,
      );
    }
  }
}

/** A string field that may be absent but not empty. */
export function optionalString(
  where: Where,
  record: JsonRecord,
  key: string,
  path: string,
): string | undefined {
  const value = record[key];
  if (value === undefined) return undefined;
  if (typeof value !== "string" || value === "") {
    where.fail(`${path}${key} must be a non-empty string, got ${show(value)}`);
  }
  return value;
}

/** An integer in `[min, max]`, or the failure naming the range. */
export function requireInteger(
  where: Where,
  value: unknown,
  path: string,
  min: number,
  max = Number.MAX_SAFE_INTEGER,
): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? `>= ${min}` : `from ${min} to ${max}`;
    where.fail(`${path} must be an integer ${range}, got ${show(value)}`);
  }
  return value;
}
