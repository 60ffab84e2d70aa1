/**
 * `verify --update`: the live frames of a verify run become the new
 * cassette, written aside and renamed over the old one when complete.
 *
 * @module
 */
import { CassetteWriter } from "../cassette/writer.ts";
import { makeHeader } from "../cassette/format.ts";
import type { CassetteHeader, Entry } from "../cassette/format.ts";
import type { ServerTarget } from "../client/target.ts";
import { isObject } from "../util/helpers.ts";
import { redactEntry } from "../redact/entry.ts";
import type { Redactor } from "../redact/redactor_types.ts";

/** `header` naming the rules of `redactor`, when there is one. */
function withRedaction(header: CassetteHeader, redactor: Redactor | undefined): CassetteHeader {
  return redactor ? { ...header, redaction: redactor.info() } : header;
}
import { hideInText } from "../secrets/env.ts";
import type { Secret } from "../secrets/env.ts";

/**
 * Builds a header for entries recorded from `target`, reading the handshake
 * out of them. With `secrets` (a cassette recorded with `--secret-env`) the
 * server's command line or URL holds their placeholders, never the values,
 * and the header lists their names, so a replay hides the live values again.
 */
export function headerFor(
  target: ServerTarget,
  entries: readonly Entry[],
  secrets: readonly Secret[] = [],
): CassetteHeader {
  const server: CassetteHeader["server"] = target.kind === "stdio"
    ? { command: target.command.map((arg) => hideInText(arg, secrets)) }
    : { url: hideInText(target.url, secrets) };
  let protocolVersion: string | undefined;
  for (const entry of entries) {
    if (entry.type !== "message" || entry.dir !== "s2c" || !isObject(entry.msg)) continue;
    const result = entry.msg.result;
    if (!isObject(result) || typeof result.protocolVersion !== "string") continue;
    protocolVersion = result.protocolVersion;
    if (isObject(result.serverInfo)) {
      if (typeof result.serverInfo.name === "string") server.name = result.serverInfo.name;
      if (typeof result.serverInfo.version === "string") server.version = result.serverInfo.version;
    }
    break;
  }
  return makeHeader({
    transport: target.kind === "stdio" ? "stdio" : "http",
    protocolVersion,
    server,
    ...(secrets.length > 0
      ? { redaction: { rules: [], secretEnv: secrets.map((secret) => secret.name) } }
      : {}),
  });
}

/** Writes `entries` as a fresh cassette at `path`. */
export async function writeCassette(
  path: string,
  header: CassetteHeader,
  entries: readonly Entry[],
): Promise<void> {
  const writer = await CassetteWriter.open(path, { aside: true, header });
  try {
    for (const entry of entries) writer.append(entry);
  } catch (error) {
    await writer.abandon();
    throw error;
  }
  await writer.close();
}

/**
 * The live frames of a verify run written as they come (`--update`), aside
 * until {@linkcode LiveCassette.close}: only the frames before the server's
 * first answer with a protocol version are held, since the header is read
 * from that answer (the same header {@linkcode headerFor} gives).
 */
export class LiveCassette {
  private known = false;

  private constructor(
    private readonly writer: CassetteWriter,
    private readonly target: ServerTarget,
    private readonly redactor: Redactor | undefined,
    private readonly secrets: readonly Secret[],
  ) {}

  /**
   * Opens the writer; nothing replaces `path` before `close`. With a
   * `redactor` (the recording's own), every entry goes through it and the
   * header says so, as when the cassette was recorded; with `secrets`, the
   * header's command line or URL holds their placeholders.
   */
  static async open(
    path: string,
    target: ServerTarget,
    redactor?: Redactor,
    secrets: readonly Secret[] = [],
  ): Promise<LiveCassette> {
    const writer = await CassetteWriter.open(path, {
      aside: true,
      fallbackHeader: withRedaction(headerFor(target, [], secrets), redactor),
    });
    return new LiveCassette(writer, target, redactor, secrets);
  }

  /** One live entry. */
  append(entry: Entry): void {
    this.writer.append(this.redactor ? redactEntry(this.redactor, entry) : entry);
    if (this.known) return;
    const header = headerFor(this.target, [entry], this.secrets);
    if (header.protocolVersion === undefined) return;
    this.known = true;
    this.writer.setHeader(withRedaction(header, this.redactor));
  }

  /** Renames the fresh cassette into place. */
  close(): Promise<void> {
    return this.writer.close();
  }

  /** Drops the fresh cassette; the old one stays. */
  abandon(): Promise<void> {
    return this.writer.abandon();
  }
}
