/**
 * Where the secret key of keyed placeholders comes from (docs/redaction.md):
 * `MCP_CASSETTE_REDACT_KEY`, else the recorder's own key file,
 * `$XDG_CONFIG_HOME/mcp-cassette/redact.key` (`~/.config/…`), which the
 * first recording makes (random, mode 0600). The key never goes into a
 * cassette; a replay elsewhere (CI) needs the same key set.
 *
 * @module
 */
import { runtime } from "../runtime/mod.ts";
import { UsageError } from "../errors/errors.ts";
import { createExclusive } from "../files/safe_write.ts";
import { toHex } from "../redact/sha256.ts";
import { KEY_HINT, PlaceholderDigest, randomBytes } from "../redact/digest.ts";
import type { DigestInfo } from "../redact/digest.ts";
import type { RedactionInfo } from "../cassette/format.ts";

/** The variable that names the key. */
export const REDACT_KEY_VARIABLE = "MCP_CASSETTE_REDACT_KEY";

const KEY_LINE = /^[0-9a-f]{64}$/;

/** The recorder's own key file, or undefined when there is no home to keep it in. */
export function userKeyFile(): string | undefined {
  const config = runtime.env("XDG_CONFIG_HOME") ||
    (runtime.env("HOME") ? `${runtime.env("HOME")}/.config` : undefined);
  return config ? `${config}/mcp-cassette/redact.key` : undefined;
}

/**
 * The key: the variable's, else the key file's; with `create`, a recording
 * makes the file when there is none. Undefined when there is no key (and
 * none may be made). A key file that is not one line of 64 hex digits is
 * bad input naming it.
 */
export async function redactKey(create: boolean): Promise<string | undefined> {
  const given = runtime.env(REDACT_KEY_VARIABLE);
  if (given) return given;
  const file = userKeyFile();
  if (!file) return undefined;
  const known = await readKeyFile(file);
  if (known !== undefined || !create) return known;
  const made = toHex(randomBytes(32));
  try {
    await runtime.mkdir(file.slice(0, file.lastIndexOf("/")));
    if (await createExclusive(file, made + "\n", "the redaction key file", 0o600)) return made;
  } catch (error) {
    throw new UsageError(
      `Cannot make the redaction key file ${file} (${
        (error as Error).message
      }); set ${REDACT_KEY_VARIABLE}`,
    );
  }
  // Another recording made it first: its key is the one.
  return await readKeyFile(file);
}

async function readKeyFile(file: string): Promise<string | undefined> {
  let text: string;
  try {
    text = await runtime.readTextFile(file);
  } catch (error) {
    if ((error as { code?: string }).code === "ENOENT") return undefined;
    throw new UsageError(`Cannot read the redaction key file ${file}: ${(error as Error).message}`);
  }
  const key = text.trim();
  if (!KEY_LINE.test(key)) {
    throw new UsageError(
      `${file} is not a redaction key (one line of 64 hex digits); remove it to have a new one made, or set ${REDACT_KEY_VARIABLE}`,
    );
  }
  return key;
}

/** The redaction the cassette at `path` says it was made with, when it exists (read from its first line). */
export async function existingRedaction(path: string): Promise<RedactionInfo | undefined> {
  const info = await runtime.stat(path);
  if (!info?.isFile) return undefined;
  const reader = runtime.readFileText(path).getReader();
  let head = "";
  try {
    while (!head.includes("\n") && head.length < 1 << 20) {
      const { value, done } = await reader.read();
      if (done) break;
      head += value;
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
  try {
    const header = JSON.parse(head.split("\n")[0]) as { redaction?: RedactionInfo };
    return header?.redaction;
  } catch {
    return undefined;
  }
}

/** A keyed placeholder in a line the client sent. */
const KEYED_REQUEST = /\[REDACTED:[A-Za-z0-9_.-]+:[0-9a-f]{16}\]/;
const CLIENT_LINE = /"dir"\s*:\s*"c2s"/;

/**
 * The key a replay of `cassette` matches live requests with: the key set
 * here when it is the one the placeholders were made with. When it is
 * missing or another, the replay needs it only if a recorded client message
 * holds a keyed placeholder: then this is bad input naming the cassette and
 * what to set; otherwise undefined (a live secret is then a plain miss).
 */
export async function replayDigestKey(
  cassette: string,
  digest: DigestInfo,
): Promise<string | undefined> {
  const key = await redactKey(false);
  const id = key === undefined ? undefined : new PlaceholderDigest(key, digest.salt).keyId;
  if (id === digest.key) return key;
  if (!(await clientLinesHoldKeyed(cassette))) return undefined;
  throw new UsageError(
    id === undefined
      ? `${cassette}: its recorded requests hold keyed redactions and no key is set; ${KEY_HINT}`
      : `${cassette}: its redactions were keyed with another key (id ${digest.key}; the key set here has id ${id}); ${KEY_HINT}`,
  );
}

/** True when a client message in the cassette holds a keyed placeholder (read a line at a time). */
async function clientLinesHoldKeyed(cassette: string): Promise<boolean> {
  const reader = runtime.readFileText(cassette).getReader();
  let rest = "";
  try {
    for (;;) {
      const { value, done } = await reader.read();
      const lines = (rest + (done ? "\n" : value)).split("\n");
      rest = lines.pop()!;
      if (lines.some((line) => KEYED_REQUEST.test(line) && CLIENT_LINE.test(line))) return true;
      if (done) return false;
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
}
