/**
 * What the redactor offers (./redactor.ts builds it): the redaction of
 * messages, raw lines, headers and URLs, and the findings of a scan.
 *
 * @module
 */
import type { Direction, RedactionInfo } from "../cassette/format.ts";
import type { Json } from "../jsonrpc/messages.ts";
import type { RedactOptions } from "./options.ts";

/** One thing a rule would redact. */
export interface Finding {
  /** The rule's id, e.g. `detector:email`, `keys:default`, `pack:acme/customer-id`. */
  rule: string;
  /** JSON pointer to the value within what was scanned (`""` for the whole string). */
  path: string;
  /** A masked hint of the secret: never the secret itself. */
  excerpt: string;
}

/** Redacts values on their way to disk; see {@linkcode createRedactor}. */
export interface Redactor {
  /**
   * The options `createRedactor` built it from: enough for another
   * thread to build the same redactor (absent when built otherwise).
   */
  readonly recipe?: RedactOptions;
  /** A redacted copy of a JSON-RPC message (or batch); the same object when nothing changed. */
  message(msg: Json, dir: Direction): Json;
  /**
   * {@linkcode message}, and each keyed placeholder it made with the value it
   * stands for (a replay puts a live request's values back into the answer).
   */
  messageWithValues(msg: Json, dir: Direction): { message: Json; values: Map<string, string> };
  /**
   * True when {@linkcode message} would leave the message this line of JSON
   * holds unchanged, judged from the text alone; false when that cannot be
   * told so cheaply (the line must then go through `message`).
   */
  keepsLine(line: string, dir: Direction): boolean;
  /** A redacted raw (non-JSON) line. */
  text(text: string, dir: Direction): string;
  /** Headers without credential-bearing ones, whose names are listed in `credentials`. */
  headers(h: Record<string, string>): { headers: Record<string, string>; credentials: string[] };
  /** A path and query with secret query parameters redacted. */
  url(pathAndQuery: string): string;
  /** Which rules and packs this redactor applies, for the cassette header. */
  info(): RedactionInfo;
  /** What the rules would redact in a message (JSON) or a raw line (string), with masked excerpts. */
  findings(value: Json | string, dir: Direction): Finding[];
}
