/**
 * `verify --update-failed` (and `--update` with `--only`): the recorded
 * answers of the chosen exchanges are replaced, in the cassette itself, by
 * the new build's answers, and every other line stays byte for byte. A new
 * answer goes through the cassette's own redaction and `--secret-env`
 * placeholders (its header says which), as recording would have scrubbed it,
 * and keeps the recorded id. The file is written aside and renamed over the
 * old one, never through a link (src/files/safe_write.ts).
 *
 * @module
 */
import type { CassetteHeader, MessageEntry } from "../cassette/format.ts";
import { msgSpanOfLine } from "../cassette/frame_text.ts";
import { openCassetteBytes } from "../cassette/open.ts";
import { CassetteError, UsageError } from "../errors/errors.ts";
import { checkTarget, writeFileSafely } from "../files/safe_write.ts";
import { jsonEqual } from "../json/values.ts";
import type { Json, JsonRpcMessage } from "../jsonrpc/messages.ts";
import { createReplayRedactor, REDACT_KEY_ENV } from "../redact/mod.ts";
import type { Redactor } from "../redact/mod.ts";
import { runtime } from "../runtime/mod.ts";
import { readSecrets, withSecrets } from "../secrets/env.ts";
import { isObject } from "../util/helpers.ts";
import type { RequestStep, VerifyPlan } from "./plan.ts";
import type { ExchangeResult } from "./run.ts";

/** Builds the redactor a cassette's new answers go through, from its header (undefined: none). */
export type RewriteRedactor = (header: CassetteHeader) => Promise<Redactor | undefined>;

const LF = 0x0a;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * The redaction that scrubbed the cassette, rebuilt from its header, with its
 * `--secret-env` names (which must be set): what a rewritten answer goes
 * through when the caller gives no {@linkcode RewriteRedactor}.
 */
export async function headerRedactor(
  header: CassetteHeader,
  cassette: string,
): Promise<Redactor | undefined> {
  // Another tool's rules cannot be re-run here (as replay's requestRewriter says).
  const info = header.meta?.importedFrom === undefined ? header.redaction : undefined;
  if (!info) return undefined;
  const redactor = await createReplayRedactor(info, {
    hashKey: runtime.env(REDACT_KEY_ENV) || undefined,
    cassette,
  });
  const names = info.secretEnv ?? [];
  if (names.length === 0) return redactor;
  return withSecrets(redactor, readSecrets(names, `${cassette} was recorded with --secret-env`));
}

/** The live answers of a verify run, and how to write the chosen ones into the cassette. */
export class AnswerRewriter {
  private readonly answers = new Map<number, JsonRpcMessage>();

  private constructor(
    private readonly cassette: string,
    private readonly target: string,
    private readonly steps: Map<number, RequestStep>,
    private readonly redactor: Redactor | undefined,
  ) {}

  /**
   * Checks, before anything is sent, that the cassette can be rewritten (our
   * own format; `target` a regular file or absent, not a link) and builds its
   * redactor, so a missing secret or key stops the run with exit 2.
   */
  static async prepare(
    cassette: string,
    target: string,
    plan: VerifyPlan,
    redactor: () => Promise<Redactor | undefined>,
  ): Promise<AnswerRewriter> {
    if (plan.importedFrom !== undefined) {
      throw new UsageError(
        `${cassette} was converted from ${plan.importedFrom} on reading: only an mcp-cassette cassette can have answers rewritten`,
      );
    }
    await checkTarget(target, { what: "the cassette" });
    const steps = new Map<number, RequestStep>();
    for (const session of plan.sessions) {
      for (const step of session.steps) if (step.kind === "request") steps.set(step.index, step);
    }
    return new AnswerRewriter(cassette, target, steps, await redactor());
  }

  /** Keeps a graded exchange's live answer (the run's `onAnswer`). */
  keep(index: number, answer: JsonRpcMessage): void {
    this.answers.set(index, answer);
  }

  /**
   * Writes the live answers of `chosen` over their recorded answers; an
   * exchange the new build did not answer stays as recorded. Returns the
   * indices rewritten (nothing is written when there are none).
   */
  async write(chosen: readonly ExchangeResult[]): Promise<number[]> {
    const edits = chosen.flatMap((exchange) => {
      const step = this.steps.get(exchange.index);
      const answer = this.answers.get(exchange.index);
      return step?.recordedLine !== undefined && answer ? [{ step, answer }] : [];
    });
    if (edits.length === 0) return [];
    const lines = splitLines(await readBytes(this.cassette));
    for (const { step, answer } of edits) {
      const at = step.recordedLine! - 1;
      const text = at < lines.length ? decoder.decode(lines[at]) : "";
      lines[at] = encoder.encode(this.newLine(text, step, answer));
    }
    await writeFileSafely(this.target, joinLines(lines), { what: "the cassette" });
    return edits.map(({ step }) => step.index);
  }

  /** The recorded answer's line with the live answer (scrubbed, recorded id) as its message. */
  private newLine(text: string, step: RequestStep, answer: JsonRpcMessage): string {
    const entry = parseLine(text);
    const frame = entry?.frame;
    const recorded = typeof frame === "string" ? JSON.parse(frame) : entry?.msg;
    if (
      !entry || entry.type !== "message" || entry.dir !== "s2c" || !isObject(recorded) ||
      !jsonEqual(recorded.id, step.recordedId)
    ) {
      throw new CassetteError(
        `${this.cassette}:${step.recordedLine}: no longer the recorded answer of #${step.index} (the cassette changed while verify ran); nothing written`,
      );
    }
    const live = { ...answer, id: step.recordedId } as Json;
    const msg = this.redactor ? this.redactor.message(live, "s2c") : live;
    if (frame === undefined) {
      const span = msgSpanOfLine(text, entry as unknown as MessageEntry);
      if (span) return text.slice(0, span.start) + JSON.stringify(msg) + text.slice(span.end);
    }
    const { frame: _, ...rest } = entry;
    return JSON.stringify({ ...rest, msg });
  }
}

function parseLine(text: string): Record<string, unknown> | undefined {
  try {
    const value = JSON.parse(text);
    return isObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

async function readBytes(path: string): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  const reader = (await openCassetteBytes(path)).getReader();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    chunks.push(value);
  }
  const bytes = new Uint8Array(chunks.reduce((size, chunk) => size + chunk.length, 0));
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.length;
  }
  return bytes;
}

/** The file's lines as they are, split on LF only (a CR stays with its line). */
function splitLines(bytes: Uint8Array): Uint8Array[] {
  const lines: Uint8Array[] = [];
  let start = 0;
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i] !== LF) continue;
    lines.push(bytes.subarray(start, i));
    start = i + 1;
  }
  lines.push(bytes.subarray(start));
  return lines;
}

function joinLines(lines: readonly Uint8Array[]): Uint8Array {
  const size = lines.reduce((sum, line) => sum + line.length, 0) + lines.length - 1;
  const out = new Uint8Array(size);
  let at = 0;
  lines.forEach((line, i) => {
    if (i > 0) out[at++] = LF;
    out.set(line, at);
    at += line.length;
  });
  return out;
}
