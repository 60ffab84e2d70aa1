/**
 * The control side channel of a stdio replay the library launched
 * (`replay CASSETTE --run-log FILE --control`): a stdio launch has no
 * address of its own, so it serves the control endpoint of
 * `replay --listen --control` (src/replay/http/control.ts, the same
 * handler) on a loopback port of its own, behind the Host/Origin guard and a
 * bearer token it makes afresh, and writes both on its `start` line of the
 * run log, which only the library reads (a private temp folder). As it
 * starts it also reads the run log's last `steer` line: what the library's
 * control asked of launches to come (a cassette, a fault overlay).
 *
 * @module
 */
import { serveLocal } from "../http/serve.ts";
import { randomId } from "../http/random_id.ts";
import { ReplayControl } from "../replay/control.ts";
import type { ReplayEngine } from "../replay/engine.ts";
import { controlHandler } from "../replay/http/control.ts";
import { readRunReport } from "./run_report.ts";
import type { LaunchControlAddress, LaunchSteering } from "./run_report.ts";

/** A launch's side channel, listening. */
export interface SteeringChannel {
  readonly address: LaunchControlAddress;
  /**
   * Serves the controls of `engine` from now on (requests before wait for
   * it), with `faults` (an overlay's text the library asked for) in force.
   */
  serve(engine: ReplayEngine, faults?: string | null): void;
  /** The launch could not start its replay: requests waiting are refused. */
  failed(): void;
  close(): Promise<void>;
}

/** Starts listening on a free loopback port; the engine comes later ({@linkcode SteeringChannel.serve}). */
export async function openSteeringChannel(log?: (line: string) => void): Promise<SteeringChannel> {
  let ready!: (control: ReplayControl | undefined) => void;
  const control = new Promise<ReplayControl | undefined>((resolve) => (ready = resolve));
  // Two UUIDs' worth of randomness: the token is only ever read from the run log.
  const token = (randomId() + randomId()).replaceAll("-", "");
  const local = await serveLocal({ listen: "127.0.0.1:0", token, log }, async (request) => {
    const path = new URL(request.url).pathname;
    const steered = await control;
    if (!steered || !path.startsWith("/__cassette/")) {
      const error = steered ? `${path} is not a control request` : "the replay did not start";
      return Response.json({ error }, { status: steered ? 404 : 503 });
    }
    return await controlHandler(steered)(request);
  });
  return {
    address: { url: `http://127.0.0.1:${local.bound.port}`, token },
    serve: (engine, faults) => {
      const steered = new ReplayControl(engine);
      if (faults) steered.setFaults(faults, "the steered fault overlay");
      ready(steered);
    },
    failed: () => ready(undefined),
    close: () => local.close(),
  };
}

/** What the library's control asked of launches starting now: the run log's last `steer` line. */
export async function launchSteering(runLog: string): Promise<LaunchSteering | undefined> {
  const lines = await readRunReport(runLog);
  return lines.filter((line) => line.event === "steer").at(-1)?.steer;
}
