/**
 * Redaction of whole cassette lines: each entry type knows which of its
 * fields can carry secrets. Used by `mcp-cassette redact` and available to
 * the recorder.
 *
 * @module
 */
import type { CassetteHeader, Entry, RedactionInfo } from "../cassette/format.ts";
import { tryParseJson } from "../json/values.ts";
import { isCredentialKey } from "./keys.ts";
import { DEFAULT_KEY_RULE } from "./rules.ts";
import type { Finding, Redactor } from "./redactor.ts";

/** A redacted copy of an entry; the same object when nothing changed. */
export function redactEntry(redactor: Redactor, entry: Entry): Entry {
  switch (entry.type) {
    case "message": {
      const msg = redactor.message(entry.msg, entry.dir);
      return msg === entry.msg ? entry : { ...entry, msg };
    }
    case "raw": {
      const text = redactor.text(entry.text, entry.dir);
      return text === entry.text ? entry : { ...entry, text };
    }
    case "http-request": {
      const { headers, credentials } = redactor.headers(entry.headers);
      const path = redactor.url(entry.path);
      if (credentials.length === 0 && path === entry.path && sameRecord(headers, entry.headers)) {
        return entry;
      }
      const names = [...new Set([...(entry.credentials ?? []), ...credentials])];
      return { ...entry, path, headers, ...(names.length > 0 ? { credentials: names } : {}) };
    }
    case "http-response": {
      const { headers } = redactor.headers(entry.headers);
      const text = entry.text === undefined ? undefined : redactor.text(entry.text, "s2c");
      if (text === entry.text && sameRecord(headers, entry.headers)) return entry;
      return { ...entry, headers, ...(text === undefined ? {} : { text }) };
    }
    case "sse-event": {
      const data = redactSseData(redactor, entry.data);
      return data === entry.data ? entry : { ...entry, data };
    }
    case "session": {
      const reason = entry.reason === undefined ? undefined : redactor.text(entry.reason, "s2c");
      return reason === entry.reason ? entry : { ...entry, reason };
    }
    case "http-end": {
      const error = entry.error === undefined ? undefined : redactor.text(entry.error, "s2c");
      return error === entry.error ? entry : { ...entry, error };
    }
  }
}

/** SSE data without a JSON-RPC message: an endpoint path, a JSON document, or text. */
function redactSseData(redactor: Redactor, data: string): string {
  if (data.startsWith("/")) return redactor.url(data);
  const parsed = data.trim().startsWith("{") ? tryParseJson(data) : undefined;
  if (parsed) {
    const redacted = redactor.message(parsed.value, "s2c");
    return redacted === parsed.value ? data : JSON.stringify(redacted);
  }
  return redactor.text(data, "s2c");
}

function sameRecord(a: Record<string, string>, b: Record<string, string>): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => a[key] === b[key]);
}

function prefixed(findings: Finding[], prefix: string): Finding[] {
  return findings.map((finding) => ({ ...finding, path: prefix + finding.path }));
}

/** What the redactor would change in an entry; paths are JSON pointers into the entry's line. */
export function entryFindings(redactor: Redactor, entry: Entry): Finding[] {
  switch (entry.type) {
    case "message":
      return prefixed(redactor.findings(entry.msg, entry.dir), "/msg");
    case "raw":
      return prefixed(redactor.findings(entry.text, entry.dir), "/text");
    case "http-request":
      return [
        ...headerFindings(redactor, entry.headers),
        ...urlFindings(redactor, entry.path, "/path"),
      ];
    case "http-response":
      return [
        ...headerFindings(redactor, entry.headers),
        ...(entry.text === undefined
          ? []
          : prefixed(redactor.findings(entry.text, "s2c"), "/text")),
      ];
    case "sse-event":
      return redactSseData(redactor, entry.data) === entry.data
        ? []
        : entry.data.startsWith("/")
        ? urlFindings(redactor, entry.data, "/data")
        : [{ rule: firstRule(redactor, entry.data), path: "/data", excerpt: "(in SSE data)" }];
    case "session":
      return entry.reason === undefined
        ? []
        : prefixed(redactor.findings(entry.reason, "s2c"), "/reason");
    case "http-end":
      return entry.error === undefined
        ? []
        : prefixed(redactor.findings(entry.error, "s2c"), "/error");
  }
}

function firstRule(redactor: Redactor, text: string): string {
  const parsed = tryParseJson(text);
  const found = parsed ? redactor.findings(parsed.value, "s2c") : redactor.findings(text, "s2c");
  return found[0]?.rule ?? "keys:default";
}

function pointerStep(key: string): string {
  return key.replace(/~/g, "~0").replace(/\//g, "~1");
}

function headerFindings(redactor: Redactor, headers: Record<string, string>): Finding[] {
  const { headers: kept, credentials } = redactor.headers(headers);
  const found: Finding[] = credentials.map((name) => ({
    rule: "keys:default",
    path: `/headers/${pointerStep(name)}`,
    excerpt: "(header value)",
  }));
  for (const [name, value] of Object.entries(kept)) {
    if (value !== headers[name]) {
      found.push(...prefixed(redactor.findings(value, "c2s"), `/headers/${pointerStep(name)}`));
    }
  }
  return found;
}

function urlFindings(redactor: Redactor, pathAndQuery: string, pointer: string): Finding[] {
  const query = pathAndQuery.split("#")[0].split("?").slice(1).join("?");
  if (query === "") return [];
  const found: Finding[] = [];
  for (const pair of query.split("&")) {
    if (redactor.url(`?${pair}`) === `?${pair}`) continue;
    const [name, ...rest] = pair.split("=");
    const rule = isCredentialKey(name)
      ? "keys:default"
      : redactor.findings(rest.join("="), "c2s")[0]?.rule ?? "key";
    found.push({ rule, path: pointer, excerpt: `(query parameter ${name})` });
  }
  return found;
}

/** Merges what scrubbed a cassette before with what scrubs it now. */
export function mergeRedactionInfo(
  before: RedactionInfo | undefined,
  now: RedactionInfo,
): RedactionInfo {
  const rules = [...new Set([...(before?.rules ?? []), ...now.rules])];
  const packs = [...(before?.packs ?? [])];
  for (const pack of now.packs ?? []) {
    if (!packs.some((known) => known.sha256 === pack.sha256)) packs.push(pack);
  }
  const merged: RedactionInfo = packs.length > 0 ? { rules, packs } : { rules };
  const digest = now.digest ?? before?.digest;
  if (digest) merged.digest = digest;
  return merged;
}

/** The header with its server command line and URL redacted, and `redaction` set to `info`. */
export function redactHeader(
  redactor: Redactor,
  header: CassetteHeader,
  info: RedactionInfo,
): CassetteHeader {
  const server = { ...header.server };
  if (server.command) server.command = redactCommandLine(redactor, server.command);
  if (server.url) server.url = redactor.url(server.url);
  return { ...header, server, redaction: info };
}

/** Findings in the header's server command line and URL (paths are pointers into line 1). */
export function headerLineFindings(redactor: Redactor, header: CassetteHeader): Finding[] {
  const found: Finding[] = [];
  const command = header.server.command ?? [];
  const redacted = redactCommandLine(redactor, command);
  redacted.forEach((arg, i) => {
    if (arg !== command[i]) {
      const rule = redactor.findings(command[i], "c2s")[0]?.rule ?? "keys:default";
      found.push({ rule, path: `/server/command/${i}`, excerpt: "(command argument)" });
    }
  });
  if (header.server.url) found.push(...urlFindings(redactor, header.server.url, "/server/url"));
  return found;
}

const FLAG_WITH_VALUE = /^(-{1,2})([A-Za-z][\w.-]*)=(.*)$/s;

/**
 * Redacts a server command line for the cassette header: the value of a
 * credential-named flag (`--api-key X`, `--token=X`) and anything a
 * detector or the raw key rule finds (`API_KEY=…`, `?token=…`).
 *
 * @example
 * ```ts
 * redactCommandLine(redactor, ["server", "--api-key", "s3cr3t"]); // ["server", "--api-key", "[REDACTED:credential]"]
 * ```
 */
export function redactCommandLine(redactor: Redactor, argv: readonly string[]): string[] {
  const placeholder = `[REDACTED:${DEFAULT_KEY_RULE.label}]`;
  return argv.map((arg, i) => {
    const previous = i > 0 ? /^-{1,2}([A-Za-z][\w.-]*)$/.exec(argv[i - 1]) : null;
    if (previous && isCredentialKey(previous[1]) && !arg.startsWith("-")) return placeholder;
    const inline = FLAG_WITH_VALUE.exec(arg);
    if (inline && isCredentialKey(inline[2]) && inline[3] !== "") {
      return `${inline[1]}${inline[2]}=${placeholder}`;
    }
    return redactor.text(arg, "c2s");
  });
}
