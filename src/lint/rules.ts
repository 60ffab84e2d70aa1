/**
 * The catalogue of built-in rules (docs/lint.md renders the same table).
 *
 * @module
 */
import { BUILTIN_PATTERN_RULES } from "./builtin_pack.ts";
import type { RuleInfo } from "./types.ts";

const CODE_RULES: RuleInfo[] = [
  {
    id: "MCL001",
    name: "era-mismatch",
    severity: "error",
    summary: "Header era differs from the handshake the frames show",
    origin: "builtin",
  },
  {
    id: "MCL002",
    name: "transport-mismatch",
    severity: "error",
    summary: "Header transport differs from the entries (HTTP entries in a stdio cassette, …)",
    origin: "builtin",
  },
  {
    id: "MCL003",
    name: "protocol-version-mismatch",
    severity: "error",
    summary: "Header protocolVersion differs from the negotiated one",
    origin: "builtin",
  },
  {
    id: "MCL004",
    name: "server-info-mismatch",
    severity: "error",
    summary: "Header server name/version differs from serverInfo",
    origin: "builtin",
  },
  {
    id: "MCL005",
    name: "orphan-response",
    severity: "warning",
    summary: "A response whose id no earlier request in the session used",
    origin: "builtin",
  },
  {
    id: "MCL006",
    name: "duplicate-request-id",
    severity: "error",
    summary: "A request id reused within one session and direction",
    origin: "builtin",
  },
  {
    id: "MCL007",
    name: "unanswered-request",
    severity: "warning",
    summary: "A request that never got a response (and was not cancelled)",
    origin: "builtin",
  },
  {
    id: "MCL008",
    name: "torn-last-line",
    severity: "warning",
    summary: "The last line is cut short",
    origin: "builtin",
  },
  {
    id: "MCL009",
    name: "conflating-redaction",
    severity: "warning",
    summary: "A request holds a plain [REDACTED:…] placeholder, which replay cannot tell apart",
    origin: "builtin",
  },
  {
    id: "MCL010",
    name: "expired-cassette",
    severity: "error",
    summary: "With --max-age: the cassette was recorded longer ago than that",
    origin: "builtin",
  },
  {
    id: "MCL105",
    name: "invisible-unicode",
    severity: "error",
    summary: "Invisible, bidirectional-control, tag or control characters in server text",
    origin: "builtin",
  },
  {
    id: "MCL106",
    name: "confusable-name",
    severity: "warning",
    summary: "A tool/prompt/resource name with non-ASCII, mixed-script or look-alike letters",
    origin: "builtin",
  },
  {
    id: "MCL107",
    name: "secret-like-string",
    severity: "warning",
    summary: "A token shaped like a credential, or a high-entropy string",
    origin: "builtin",
  },
  {
    id: "MCL108",
    name: "duplicate-name",
    severity: "warning",
    summary: "Two tools (prompts, resources, templates) with the same name in one listing",
    origin: "builtin",
  },
  {
    id: "MCL111",
    name: "markup-in-name",
    severity: "error",
    summary:
      "Markup or control characters in a name that is never markup (a method, id, tool name, header name, session)",
    origin: "builtin",
  },
  {
    id: "MCL110",
    name: "rug-pull",
    severity: "error",
    summary: "A description or schema changed since the --baseline cassette",
    origin: "builtin",
  },
];

/** Every built-in rule, sorted by id. */
export const BUILTIN_RULES: readonly RuleInfo[] = [
  ...CODE_RULES,
  ...BUILTIN_PATTERN_RULES.map(({ id, name, severity, summary, origin }) => ({
    id,
    name,
    severity,
    summary,
    origin,
  })),
].sort((a, b) => a.id.localeCompare(b.id));

/**
 * Whether a rule id is enabled by `--select`/`--ignore` prefixes: selected
 * when `select` is empty or a prefix matches, and no `ignore` prefix matches.
 */
export function ruleEnabled(
  id: string,
  select: readonly string[],
  ignore: readonly string[],
): boolean {
  const upper = id.toUpperCase();
  const matches = (prefix: string) => prefix === "ALL" || upper.startsWith(prefix.toUpperCase());
  if (select.length > 0 && !select.some(matches)) return false;
  return !ignore.some(matches);
}
