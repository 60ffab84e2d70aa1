/**
 * The redactor: applies rules to JSON-RPC messages, raw lines, HTTP headers
 * and URLs, and reports what it would change.
 *
 * Guarantees:
 * - protocol fields are never changed: the envelope's `jsonrpc`, `id` and
 *   `method`, and anything under a protocol key (./keys.ts), whatever the rules;
 * - idempotence: rules skip placeholders, and each string is scrubbed to a
 *   fixed point, so redacting twice equals redacting once;
 * - determinism: the same input, rules and key give the same output, which
 *   lets replay re-apply the client-direction rules to live requests.
 *
 * @module
 */
import type { Direction, RedactionInfo } from "../cassette/format.ts";
import type { Json, JsonObject } from "../jsonrpc/messages.ts";
import { looksLikeBase64 } from "./detectors.ts";
import {
  CREDENTIAL_KEY_PATTERN,
  isCredentialHeader,
  isProtocolHeader,
  isProtocolKey,
} from "./keys.ts";
import type { RulePack } from "./pack.ts";
import { DEFAULT_KEY_RULE, EMBEDDED_JSON_KEY_RULE, RAW_KEY_RULE } from "./rules.ts";
import type { KeyRule, PointerRule, Rule, TextRule } from "./rules.ts";
import { applyStrategy, isPlaceholder } from "./strategy.ts";
import { childPath, rewrite } from "./rewrite.ts";
import type { PlaceholderDigest } from "./digest.ts";
import {
  applies,
  ASSERTION,
  BINARY_KEYS,
  decodeQuery,
  encodeQuery,
  ENVELOPE_KEYS,
  found,
  mapQuery,
  MAX_PASSES,
  nonOverlapping,
  pointerMatches,
  pointerOf,
  pointerStep,
  RuleGate,
  splitLocked,
} from "./engine_parts.ts";
import type { PathNode, Visit } from "./rewrite.ts";

export type { Finding, Redactor } from "./redactor_types.ts";
import type { Finding, Redactor } from "./redactor_types.ts";

import type { Hit } from "./engine_parts.ts";

/** The rule engine behind {@linkcode Redactor}. */
export class RuleEngine implements Redactor {
  readonly #text: TextRule[];
  readonly #keys: KeyRule[];
  readonly #pointers: PointerRule[];
  readonly #all: Rule[];
  readonly #textRuleLists = new Map<string, TextRule[]>();
  readonly #lineTests = new Map<Direction, RegExp | null>();
  readonly #gates = new WeakMap<TextRule[], RuleGate>();
  readonly #keyRuleLists = new WeakMap<TextRule[], TextRule[]>();

  constructor(
    rules: Rule[],
    readonly hashKey: string,
    readonly packs: RulePack[] = [],
    readonly digest?: PlaceholderDigest,
  ) {
    this.#all = rules;
    this.#text = rules.filter((rule): rule is TextRule => rule.kind === "text");
    this.#keys = rules.filter((rule): rule is KeyRule => rule.kind === "key");
    this.#pointers = rules.filter((rule): rule is PointerRule => rule.kind === "pointer");
  }

  message(msg: Json, dir: Direction): Json {
    return this.#message(msg, dir, () => {});
  }

  messageWithValues(msg: Json, dir: Direction): { message: Json; values: Map<string, string> } {
    const values = new Map<string, string>();
    const message = this.#message(msg, dir, (_rule, _path, secret, placeholder) => {
      if (this.digest && placeholder.startsWith("[REDACTED:")) values.set(placeholder, secret);
    });
    return { message, values };
  }

  keepsLine(line: string, dir: Direction): boolean {
    let test = this.#lineTests.get(dir);
    if (test === undefined) this.#lineTests.set(dir, test = this.#lineTest(dir));
    return test !== null && !test.test(line);
  }

  /**
   * One pattern that finds, in a line of JSON, whatever might let the rules
   * for `dir` change the message it holds; null when those rules cannot be
   * judged from text. It finds a backslash (without one, every key and string
   * appears in the line verbatim), a word every credential key contains
   * (./keys.ts), and the hint of any text rule, except at the start of a
   * `jsonrpc` value: that is protocol state, never redacted, and the IPv4
   * hint would find "2.0" in every message. The embedded-JSON key rule needs
   * a quote inside a string, which the line would escape.
   */
  #lineTest(dir: Direction): RegExp | null {
    if (this.#pointers.some((rule) => applies(rule, dir))) return null;
    if (this.#keys.some((rule) => rule !== DEFAULT_KEY_RULE && applies(rule, dir))) return null;
    const hints: string[] = [];
    for (const rule of this.#textRules(dir)) {
      const hint = rule.hint;
      if (!hint || hint.flags.replace(/[gy]/g, "") !== "" || ASSERTION.test(hint.source)) {
        return null;
      }
      hints.push(`(?:${hint.source})`);
    }
    const text = hints.length === 0 ? "" : `|(?<!"jsonrpc":")(?:${hints.join("|")})`;
    return new RegExp(`\\\\|${CREDENTIAL_KEY_PATTERN}${text}`);
  }

  text(text: string, dir: Direction): string {
    return this.#scrub(text, this.#textRules(dir, RAW_KEY_RULE), () => "", () => {});
  }

  headers(h: Record<string, string>): { headers: Record<string, string>; credentials: string[] } {
    return this.#headers(h, () => {});
  }

  url(pathAndQuery: string): string {
    return this.#url(pathAndQuery, () => {});
  }

  info(): RedactionInfo {
    const rules = [...new Set(this.#all.map((rule) => rule.id))];
    const info: RedactionInfo = { rules };
    if (this.packs.length > 0) {
      info.packs = this.packs.map((pack) => ({ name: pack.name, sha256: pack.sha256 }));
    }
    if (this.digest) info.digest = this.digest.info();
    return info;
  }

  findings(value: Json | string, dir: Direction): Finding[] {
    return found((hit) => {
      if (typeof value !== "string") this.#message(value, dir, hit);
      else this.#scrub(value, this.#textRules(dir, RAW_KEY_RULE), () => "", hit);
    });
  }

  /** Findings in headers (paths are `/<header name>`). */
  headerFindings(h: Record<string, string>): Finding[] {
    return found((hit) => this.#headers(h, hit));
  }

  /** Findings in a path and query (paths are `?<parameter>`). */
  urlFindings(pathAndQuery: string): Finding[] {
    return found((hit) => this.#url(pathAndQuery, hit));
  }

  /**
   * The text rules for `dir`; a key rule for embedded pairs goes before the
   * detectors, so it labels `token=…` first. Built once per combination: the
   * list's identity keys its hint test (see {@linkcode RuleGate}).
   */
  #textRules(dir: Direction | "any", keyRule?: TextRule): TextRule[] {
    const cacheKey = `${dir} ${keyRule === RAW_KEY_RULE ? "raw" : keyRule ? "json" : ""}`;
    let rules = this.#textRuleLists.get(cacheKey);
    if (!rules) this.#textRuleLists.set(cacheKey, rules = this.#buildTextRules(dir, keyRule));
    return rules;
  }

  #buildTextRules(dir: Direction | "any", keyRule?: TextRule): TextRule[] {
    const rules = this.#text.filter((rule) => applies(rule, dir));
    if (!keyRule) return rules;
    const firstDetector = rules.findIndex((rule) => rule.id.startsWith("detector:"));
    const at = firstDetector < 0 ? rules.length : firstDetector;
    return [...rules.slice(0, at), keyRule, ...rules.slice(at)];
  }

  #message(msg: Json, dir: Direction, hit: Hit): Json {
    const rules = this.#textRules(dir, EMBEDDED_JSON_KEY_RULE);
    const walk = (root: Json) => this.#walk(root, undefined, dir, rules, hit, undefined);
    // A batch is a list of messages, each with its own envelope at its root.
    return rewrite(
      Array.isArray(msg) ? { members: msg, member: (_, item) => walk(item) } : walk(msg),
    );
  }

  /** How to redact one value at `path`: text rules on strings, the member rules below. */
  #walk(
    value: Json,
    path: PathNode | undefined,
    dir: Direction,
    rules: TextRule[],
    hit: Hit,
    parentKey: string | undefined,
  ): Visit {
    if (typeof value === "string") {
      if (parentKey !== undefined && BINARY_KEYS.has(parentKey) && looksLikeBase64(value)) {
        return { value };
      }
      return { value: this.#scrub(value, rules, () => pointerOf(path), hit) };
    }
    if (Array.isArray(value)) {
      return {
        members: value,
        member: (index, item) =>
          this.#walk(item, childPath(path, index), dir, rules, hit, parentKey),
      };
    }
    if (value === null || typeof value !== "object") return { value };
    return {
      members: this.#renameKeys(value, path, rules, hit),
      member: (key, child) => this.#child(key, child, path, dir, rules, hit),
    };
  }

  /**
   * The object with every key the text rules find a secret in renamed (a
   * token used as a key is as much on disk as one used as a value); the
   * same object when no key changes. Envelope and protocol keys stay.
   */
  #renameKeys(value: JsonObject, path: PathNode | undefined, all: TextRule[], hit: Hit) {
    // Only the shape-guarded detectors: a user's regex would rename `result`.
    let rules = this.#keyRuleLists.get(all);
    if (!rules) {
      this.#keyRuleLists.set(all, rules = all.filter((rule) => rule.id.startsWith("detector:")));
    }
    if (rules.length === 0) return value;
    let renamed: [string, string][] | undefined;
    for (const key in value) {
      if ((path === undefined && ENVELOPE_KEYS.has(key)) || isProtocolKey(key)) continue;
      // Found at the object that holds the key: a pointer through the key would print the secret.
      const scrubbed = this.#scrub(key, rules, () => pointerOf(path), hit);
      if (scrubbed !== key) (renamed ??= []).push([key, scrubbed]);
    }
    if (!renamed) return value;
    const names = new Map(renamed);
    const out: JsonObject = {};
    for (const key in value) {
      let name = names.get(key) ?? key;
      // Two secrets may become one placeholder: keep both values.
      for (let n = 2; name in out; n++) name = `${names.get(key) ?? key}#${n}`;
      out[name] = value[key];
    }
    return out;
  }

  #child(
    key: string,
    child: Json,
    path: PathNode | undefined,
    dir: Direction,
    rules: TextRule[],
    hit: Hit,
  ): Visit {
    if ((path === undefined && ENVELOPE_KEYS.has(key)) || isProtocolKey(key)) {
      return { value: child };
    }
    const here = childPath(path, key);
    const pointer = this.#pointers.find((rule) => applies(rule, dir) && pointerMatches(rule, here));
    if (pointer) return this.#whole(child, pointer, here, hit);
    const keyRule = this.#keys.find((rule) => applies(rule, dir) && rule.matches(key));
    if (keyRule && (typeof child === "string" || Array.isArray(child))) {
      // Only strings (and lists of strings) are credentials: an object under `password` is most
      // often a JSON Schema property (`{"type": "string"}`), which must survive intact.
      if (typeof child === "string") {
        return { value: this.#replaceWhole(child, keyRule, here, hit) };
      }
      return {
        members: child,
        member: (index, item) => {
          const at = childPath(here, index);
          return typeof item === "string"
            ? { value: this.#replaceWhole(item, keyRule, at, hit) }
            : this.#walk(item, at, dir, rules, hit, key);
        },
      };
    }
    return this.#walk(child, here, dir, rules, hit, key);
  }

  /** A pointer rule's target: scalars become one placeholder; containers have every scalar leaf replaced. */
  #whole(value: Json, rule: Rule, path: PathNode, hit: Hit): Visit {
    if (value === null) return { value };
    if (typeof value === "string") return { value: this.#replaceWhole(value, rule, path, hit) };
    if (typeof value === "number" || typeof value === "boolean") {
      return { value: this.#replaceWhole(String(value), rule, path, hit) };
    }
    if (Array.isArray(value)) {
      return {
        members: value,
        member: (index, item) => this.#whole(item, rule, childPath(path, index), hit),
      };
    }
    return {
      members: value,
      member: (key, child) =>
        isProtocolKey(key) ? { value: child } : this.#whole(child, rule, childPath(path, key), hit),
    };
  }

  #replaceWhole(value: string, rule: Rule, path: PathNode, hit: Hit): string {
    if (isPlaceholder(value)) return value;
    const placeholder = this.#placeholder(rule, value);
    hit(rule, pointerOf(path), value, placeholder);
    return placeholder;
  }

  #placeholder(rule: Rule, secret: string): string {
    return applyStrategy(rule.strategy, rule.label, secret, this.hashKey, this.digest);
  }

  /** Runs text rules over `text` until nothing more changes, never touching placeholders. */
  #scrub(text: string, rules: TextRule[], pointer: () => string, hit: Hit): string {
    // Most strings hold nothing any rule finds: say so before splitting out placeholders.
    let gate = this.#gates.get(rules);
    if (!gate) this.#gates.set(rules, gate = new RuleGate(rules));
    if (!gate.mayFind(text)) return text;
    let current = text;
    for (let pass = 0; pass < MAX_PASSES; pass++) {
      const next = this.#scrubOnce(current, rules, pointer, hit);
      if (next === current) return current;
      current = next;
    }
    return current;
  }

  /** `pointer` names where `text` sits, for findings; it is worked out only on a hit. */
  #scrubOnce(text: string, rules: TextRule[], pointer: () => string, hit: Hit): string {
    let parts = splitLocked(text);
    for (const rule of rules) {
      const next: typeof parts = [];
      for (const part of parts) {
        if (part.locked) {
          next.push(part);
          continue;
        }
        let at = 0;
        for (const span of nonOverlapping(rule.find(part.text))) {
          const secret = part.text.slice(span.start, span.end);
          if (span.start < at || isPlaceholder(secret)) continue;
          if (span.start > at) next.push({ text: part.text.slice(at, span.start), locked: false });
          const placeholder = this.#placeholder(rule, secret);
          hit(rule, pointer(), secret, placeholder);
          next.push({ text: placeholder, locked: true });
          at = span.end;
        }
        if (at === 0) next.push(part);
        else if (at < part.text.length) next.push({ text: part.text.slice(at), locked: false });
      }
      parts = next;
    }
    return parts.map((part) => part.text).join("");
  }

  #headers(
    h: Record<string, string>,
    hit: Hit,
  ): { headers: Record<string, string>; credentials: string[] } {
    const headers: Record<string, string> = {};
    const credentials: string[] = [];
    const rules = this.#textRules("any");
    for (const [name, value] of Object.entries(h)) {
      if (isProtocolHeader(name)) {
        headers[name] = value;
      } else if (isCredentialHeader(name) || this.#keys.some((rule) => rule.matches(name))) {
        const rule = this.#keys.find((candidate) => candidate.matches(name)) ?? DEFAULT_KEY_RULE;
        hit(rule, "/" + pointerStep(name), value, "");
        credentials.push(name);
      } else {
        headers[name] = this.#scrub(value, rules, () => "/" + pointerStep(name), hit);
      }
    }
    return { headers, credentials };
  }

  #url(pathAndQuery: string, hit: Hit): string {
    return mapQuery(pathAndQuery, (pair) => this.#queryPair(pair, hit));
  }

  #queryPair(pair: string, hit: Hit): string {
    const equals = pair.indexOf("=");
    if (equals < 0) return pair;
    const rawName = pair.slice(0, equals);
    const name = decodeQuery(rawName);
    const value = decodeQuery(pair.slice(equals + 1));
    if (isProtocolKey(name) || isPlaceholder(value)) return pair;
    const path = "?" + name;
    const keyRule = this.#keys.find((rule) => rule.matches(name));
    if (keyRule) {
      if (value === "") return pair;
      const placeholder = this.#placeholder(keyRule, value);
      hit(keyRule, path, value, placeholder);
      return `${rawName}=${encodeQuery(placeholder)}`;
    }
    const scrubbed = this.#scrub(value, this.#textRules("any"), () => path, hit);
    return scrubbed === value ? pair : `${rawName}=${encodeQuery(scrubbed)}`;
  }
}
