/**
 * Claims: the `<cassette>.claim` file a run that writes a cassette creates
 * first (exclusive create), so parallel test processes never write one file
 * at once. Readers never claim.
 *
 * A claim names a *recording* (`group`): every process writing on behalf of
 * the same recording (a client that launches the recorder twice, the SDK v2
 * probe then the real session) waits for its sibling instead of being
 * refused. A different recording is waited for or refused, as the caller
 * decides. A claim whose owner died (same host) or that is older than
 * `staleAfterMs` is taken over.
 *
 * @module
 */
import { CassetteError, ClaimError } from "../errors/errors.ts";
import { runtime } from "../runtime/mod.ts";
import { sleep } from "../util/helpers.ts";
import { createExclusive } from "../files/safe_write.ts";

/** What a claim file holds. */
export interface ClaimOwner {
  pid: number;
  host: string;
  /** ISO-8601 time the claim was taken. */
  time: string;
  /** The recording the writer works for; absent for a plain CLI run. */
  group?: string;
  /** The server command line being recorded, when known. */
  command?: string[];
}

/** A claim file that is not a claim: one clear error, exit 2. */
export class ClaimFileError extends CassetteError {
  constructor(readonly file: string, problem: string) {
    super(
      `The claim file ${file} is not a claim (${problem}); delete it if no recording is running`,
    );
  }
}

/** The claim file of a cassette. */
export function claimPath(cassette: string): string {
  return `${cassette}.claim`;
}

/** Default age after which any claim counts as abandoned: 30 minutes. */
export const DEFAULT_STALE_AFTER_MS = 30 * 60_000;

function parseOwner(file: string, text: string): ClaimOwner {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ClaimFileError(file, "not JSON");
  }
  const owner = value as Partial<ClaimOwner>;
  if (
    owner === null || typeof owner !== "object" || typeof owner.pid !== "number" ||
    typeof owner.host !== "string" ||
    typeof owner.time !== "string" || Number.isNaN(Date.parse(owner.time))
  ) {
    throw new ClaimFileError(file, "expected JSON with pid, host and time");
  }
  return owner as ClaimOwner;
}

/**
 * Reads a cassette's claim; undefined when there is none. A claim being
 * written this instant reads as empty: that is retried briefly before the
 * file is called garbage.
 */
export async function readClaim(cassette: string): Promise<ClaimOwner | undefined> {
  const file = claimPath(cassette);
  for (let attempt = 0;; attempt++) {
    let text: string;
    try {
      text = await runtime.readTextFile(file);
    } catch (error) {
      if (
        (error as { code?: string }).code === "ENOENT" ||
        error instanceof Error && /not found|No such file/i.test(error.message)
      ) {
        return undefined;
      }
      throw new ClaimFileError(file, (error as Error).message);
    }
    if (text.trim() !== "" || attempt >= 20) return parseOwner(file, text);
    await sleep(25);
  }
}

/** Why a claim may be taken over, or undefined when its owner is alive and recent. */
export function staleReason(
  owner: ClaimOwner,
  staleAfterMs = DEFAULT_STALE_AFTER_MS,
): string | undefined {
  if (owner.host === runtime.hostname() && !runtime.isProcessAlive(owner.pid)) {
    return `its owner (pid ${owner.pid}) is gone`;
  }
  const age = Date.now() - Date.parse(owner.time);
  if (age > staleAfterMs) return `it is ${Math.round(age / 1000)} s old`;
  return undefined;
}

/** Whether two claims work for the same recording. */
export function sameRecording(a: ClaimOwner, b: ClaimOwner): boolean {
  if (a.group !== undefined || b.group !== undefined) return a.group === b.group;
  return a.command !== undefined && JSON.stringify(a.command) === JSON.stringify(b.command);
}

/** Describes an owner for messages. */
export function describeOwner(owner: ClaimOwner): string {
  return `pid ${owner.pid} on ${owner.host} since ${owner.time}`;
}

/** A claim this process holds. */
export class Claim {
  #released = false;
  constructor(readonly cassette: string, readonly owner: ClaimOwner) {}

  /** The claim file. */
  get path(): string {
    return claimPath(this.cassette);
  }

  /** Removes the claim file if it is still ours. Safe to call twice. */
  async release(): Promise<void> {
    if (this.#released) return;
    this.#released = true;
    const current = await readClaim(this.cassette).catch(() => undefined);
    if (current && current.pid === this.owner.pid && current.time === this.owner.time) {
      await runtime.remove(this.path);
    }
  }
}

/** What to do when another recording holds the claim. */
export type OnHeld = "wait" | "fail";

/** Options of {@linkcode acquireClaim}. */
export interface AcquireOptions {
  group?: string;
  command?: string[];
  /** Another recording's claim: wait for it (mode `once`) or fail fast (`all`, `new_episodes`). */
  onHeld: OnHeld;
  /** Break a live claim of another recording, with a warning. */
  force?: boolean;
  /** Longest wait for another recording (default 120 s). */
  waitTimeoutMs?: number;
  /** Longest wait for a sibling launch of the same recording (default 15 s). */
  siblingWaitMs?: number;
  staleAfterMs?: number;
  log?: (line: string) => void;
  /** Aborts a wait (a signal arrived). */
  signal?: AbortSignal;
}

/** The outcome of {@linkcode acquireClaim}. */
export interface Acquired {
  claim: Claim;
  /** The other recording waited for, if any (mode `once` then replays what it wrote). */
  waitedFor?: ClaimOwner;
}

async function tryCreate(cassette: string, owner: ClaimOwner): Promise<boolean> {
  try {
    return await createExclusive(
      claimPath(cassette),
      JSON.stringify(owner) + "\n",
      "the claim file",
    );
  } catch (error) {
    if (error instanceof CassetteError) throw error;
    throw new CassetteError(
      `Cannot create the claim file ${claimPath(cassette)}: ${(error as Error).message}`,
    );
  }
}

/**
 * Moves a stale claim out of the way. Rename is atomic, so of two
 * processes taking over the same stale claim only one moves it; the
 * content check makes sure a fresh claim that replaced it meanwhile is
 * put back rather than stolen.
 */
async function takeOver(cassette: string, stale: ClaimOwner): Promise<void> {
  const aside = `${claimPath(cassette)}.stale-${runtime.pid()}-${
    Math.random().toString(36).slice(2, 8)
  }`;
  try {
    await runtime.rename(claimPath(cassette), aside);
  } catch {
    return; // Someone else moved it first.
  }
  try {
    const moved = parseOwner(aside, await runtime.readTextFile(aside));
    if (moved.pid !== stale.pid || moved.time !== stale.time) {
      await createExclusive(claimPath(cassette), JSON.stringify(moved) + "\n", "the claim file");
    }
  } catch {
    // Garbage moved aside is garbage gone.
  } finally {
    await runtime.remove(aside);
  }
}

/**
 * Takes the claim of `cassette`, waiting for a sibling launch of the same
 * recording, and for another recording as `onHeld` says.
 */
export async function acquireClaim(cassette: string, options: AcquireOptions): Promise<Acquired> {
  const started = Date.now();
  let waitedFor: ClaimOwner | undefined;
  let announced = false;
  while (true) {
    const owner: ClaimOwner = {
      pid: runtime.pid(),
      host: runtime.hostname(),
      time: new Date().toISOString(),
      ...(options.group !== undefined ? { group: options.group } : {}),
      ...(options.command ? { command: options.command } : {}),
    };
    if (await tryCreate(cassette, owner)) return { claim: new Claim(cassette, owner), waitedFor };
    const held = await readClaim(cassette);
    if (!held) continue; // Released between our attempt and the read.
    const stale = staleReason(held, options.staleAfterMs);
    if (stale) {
      options.log?.(`taking over the claim on ${cassette}: ${stale}`);
      await takeOver(cassette, held);
      continue;
    }
    const sibling = sameRecording(held, owner);
    if (!sibling && options.force) {
      options.log?.(
        `warning: breaking the live claim of ${describeOwner(held)} on ${cassette} (--force)`,
      );
      await takeOver(cassette, held);
      continue;
    }
    if (!sibling && options.onHeld === "fail") {
      throw new ClaimError(
        `The cassette ${cassette} is being written by ${describeOwner(held)} (claim file ${
          claimPath(cassette)
        })`,
      );
    }
    const limit = sibling ? options.siblingWaitMs ?? 15_000 : options.waitTimeoutMs ?? 120_000;
    if (Date.now() - started > limit) {
      throw new ClaimError(
        `Gave up after ${Math.round(limit / 1000)} s waiting for ${
          describeOwner(held)
        } to finish writing ${cassette}`,
      );
    }
    if (options.signal?.aborted) {
      throw new ClaimError(`Interrupted while waiting for the claim on ${cassette}`);
    }
    if (!sibling) waitedFor = held;
    if (!announced) {
      options.log?.(`waiting for ${describeOwner(held)} to finish writing ${cassette}`);
      announced = true;
    }
    await sleep(50);
  }
}

/** Runs `work` holding the cassette's claim (failing fast if another writer holds it). */
export async function withClaim<T>(
  cassette: string,
  work: () => Promise<T>,
  options: { force?: boolean; log?: (line: string) => void } = {},
): Promise<T> {
  const { claim } = await acquireClaim(cassette, {
    onHeld: "fail",
    force: options.force,
    log: options.log,
  });
  try {
    return await work();
  } finally {
    await claim.release();
  }
}

/** Whether a live writer holds the cassette's claim (a fresh recording is written in place: do not read it yet). */
export async function beingWritten(cassette: string): Promise<boolean> {
  const owner = await readClaim(cassette).catch(() => undefined);
  return owner !== undefined && staleReason(owner) === undefined;
}
