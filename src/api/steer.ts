/**
 * `startCassette`'s `control` for its stdio launches: the client under test
 * starts the replay as a process of its own, so the test steers it over
 * that launch's side channel (src/modes/steer.ts: the control endpoint of
 * `replay --listen --control` on a loopback port, with a token; both on a
 * `control` line of the run log). What concerns launches to come (a
 * cassette, a fault overlay) is written to the run log as a `steer` line,
 * which each launch reads as it starts.
 *
 * @module
 */
import { loadCassette } from "../cassette/reader.ts";
import { CassetteError } from "../errors/errors.ts";
import { parseFaultOverlay } from "../faults/mod.ts";
import type { CassetteControl, FaultOverlayValue } from "../replay/control.ts";
import { overlayText, ReplayControl } from "../replay/control.ts";
import { ReplayEngine } from "../replay/engine.ts";
import type { MatchMode } from "../replay/options.ts";
import { parseIgnorePaths } from "../match/ignore_paths.ts";
import { sessionRoute } from "../replay/http/control.ts";
import type { HttpServeOptions } from "../replay/http/options.ts";
import { appendJournal, emptyJournal } from "../replay/journal.ts";
import type { Journal } from "../replay/journal.ts";
import { readRunReport, RunReporter } from "../modes/run_report.ts";
import type { LaunchControlAddress, LaunchSteering, RunReportLine } from "../modes/run_report.ts";
import { sleep } from "../util/helpers.ts";
import { secretHider } from "../secrets/env.ts";
import { runtime } from "../runtime/mod.ts";
import path from "node:path";

export type { CassetteControl, FaultOverlayValue };

/**
 * The engine of `startCassette`'s in-process HTTP replay, its control, and
 * the routing of new sessions a cassette switch needs (no control endpoint
 * is served: the test holds the control).
 */
export async function steeredInProcess(
  cassette: string,
  options: { match?: MatchMode; matchIgnore?: string[] },
): Promise<{
  engine: ReplayEngine;
  control: ReplayControl;
  route: NonNullable<HttpServeOptions["route"]>;
}> {
  const ignorePaths = parseIgnorePaths(options.matchIgnore ?? [], "matchIgnore");
  // Options of its own for each cassette: a control's overlay is set on each engine's.
  const load = async (file: string) => {
    const loaded = await loadCassette(path.resolve(runtime.cwd(), file));
    // Requests carrying a secret's current value match its placeholder, as the CLI's replay does.
    const rewriteRequest = secretHider(loaded.header.redaction?.secretEnv);
    return new ReplayEngine(loaded, {
      match: options.match,
      fingerprint: { ignorePaths },
      ...(rewriteRequest ? { rewriteRequest } : {}),
    });
  };
  const engine = await load(cassette);
  const control = new ReplayControl(engine, load);
  return { engine, control, route: sessionRoute(control) };
}

/** The controls of every replay a client launches from one `startCassette`. */
export class LaunchControl implements CassetteControl {
  readonly #runLog: string;
  readonly #reporter: RunReporter;
  #steer: LaunchSteering = { faults: null };
  /** Launches that ended before the last reset: their journals are not asked for again. */
  #resetBefore = 0;

  constructor(runLog: string) {
    this.#runLog = runLog;
    this.#reporter = new RunReporter(runLog);
  }

  /**
   * Every request of every replay launch so far, in launch order, each
   * named by its launch's number (as the result's journal): running
   * launches are asked, ended ones read from their report.
   */
  async journal(): Promise<Journal> {
    const lines = await readRunReport(this.#runLog);
    const journal = emptyJournal();
    let number = 0;
    for (const start of lines) {
      if (start.event !== "start") continue;
      number++;
      const end = lines.findIndex((line) => line.event === "end" && line.pid === start.pid);
      if (end >= 0) {
        if (end >= this.#resetBefore) {
          appendJournal(journal, lines[end].report?.journal, `${number}`);
        }
      } else if (start.steerable && runtime.isProcessAlive(start.pid)) {
        appendJournal(journal, await this.#ask(start, "GET", "journal") as Journal, `${number}`);
      }
    }
    return journal;
  }

  /** Every running launch starts afresh; launches ended before are left out of the journal. */
  async reset(): Promise<void> {
    this.#resetBefore = (await readRunReport(this.#runLog)).length;
    await this.#running("POST", "reset");
  }

  /**
   * The overlay in force from the next request of every running launch and
   * of every launch to come. One that does not parse throws a one-line
   * {@linkcode CassetteError}, and the faults in force stay.
   */
  async setFaults(overlay: string | FaultOverlayValue): Promise<void> {
    const text = overlayText(overlay);
    try {
      parseFaultOverlay(text, "the fault overlay");
    } catch (error) {
      if (error instanceof CassetteError) throw error;
      throw new CassetteError(`the fault overlay: ${(error as Error).message}`);
    }
    this.#write({ ...this.#steer, faults: text });
    await this.#running("POST", "faults", text);
  }

  /** Takes the overlay away, from running launches and from those to come. */
  async clearFaults(): Promise<void> {
    this.#write({ ...this.#steer, faults: null });
    await this.#running("DELETE", "faults");
  }

  /**
   * Launches from now on replay the cassette at `path` (a running launch is
   * one session, and stays on its own). One that cannot be read throws a
   * one-line {@linkcode CassetteError}, and launches keep the one they had.
   */
  async useCassette(file: string): Promise<void> {
    const cassette = path.resolve(runtime.cwd(), file);
    try {
      await loadCassette(cassette);
    } catch (error) {
      if (!(error instanceof CassetteError)) throw error;
      error.message = error.message.split("\n")[0];
      throw error;
    }
    this.#write({ ...this.#steer, cassette });
  }

  /** Written before the running launches are asked: a launch starting meanwhile reads it. */
  #write(steer: LaunchSteering): void {
    this.#steer = steer;
    this.#reporter.steer(steer);
  }

  async #running(method: string, what: string, body?: string): Promise<void> {
    const lines = await readRunReport(this.#runLog);
    const ended = new Set(lines.filter((line) => line.event === "end").map((line) => line.pid));
    for (const start of lines) {
      if (start.event !== "start" || !start.steerable || ended.has(start.pid)) continue;
      if (!runtime.isProcessAlive(start.pid)) continue;
      await this.#ask(start, method, what, body);
    }
  }

  /**
   * One control request to a running launch; an answer that is not 200
   * throws its one-line reason. A launch that ended meanwhile is no error.
   */
  async #ask(start: RunReportLine, method: string, what: string, body?: string) {
    const address = await this.#addressOf(start.pid);
    return address ? await ask(start.pid, address, method, what, body) : emptyJournal();
  }

  /**
   * Where a launch's side channel listens: on its `control` line, which it
   * writes once listening, while it already serves (waited for, up to 10 s).
   * Undefined once the launch has ended.
   */
  async #addressOf(pid: number): Promise<LaunchControlAddress | undefined> {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const lines = await readRunReport(this.#runLog);
      const control = lines.find((line) => line.event === "control" && line.pid === pid)?.control;
      if (control) return control;
      const ended = lines.some((line) => line.event === "end" && line.pid === pid);
      if (ended || !runtime.isProcessAlive(pid)) return undefined;
      if (Date.now() > deadline) {
        throw new CassetteError(`The replay launch ${pid} did not open its control side channel`);
      }
      await sleep(10);
    }
  }
}

async function ask(
  pid: number,
  address: LaunchControlAddress,
  method: string,
  what: string,
  body?: string,
) {
  const { url, token } = address;
  let response: Response;
  try {
    response = await fetch(`${url}/__cassette/${what}`, {
      method,
      body,
      headers: { authorization: `Bearer ${token}` },
    });
  } catch (error) {
    if (!runtime.isProcessAlive(pid)) return emptyJournal();
    throw new CassetteError(
      `The replay launch ${pid} did not answer ${method} /__cassette/${what}: ${
        (error as Error).message
      }`,
    );
  }
  const answer = await response.json().catch(() => ({})) as { error?: unknown };
  if (response.status !== 200) {
    const reason = typeof answer?.error === "string" ? answer.error : `status ${response.status}`;
    throw new CassetteError(`The replay launch ${pid}: ${reason.split("\n")[0]}`);
  }
  return answer;
}
