/**
 * The control side channel of a stdio replay the library launched
 * (`replay CASSETTE --run-log FILE --control`): a stdio launch has no
 * address of its own, so it serves the control endpoint of
 * `replay --listen --control` (src/replay/http/control.ts, the same
 * handler) on a loopback port of its own, behind the Host/Origin guard and a
 * bearer token it makes afresh, and writes both on a `control` line of the
 * run log, which only the library reads (a private temp folder). As it
 * starts it also reads the run log's last `steer` line: what the library's
 * control asked of launches to come (a cassette, a fault overlay).
 *
 * @module
 */
import { randomId } from "../http/random_id.ts";
import type { ReplayEngine } from "../replay/engine.ts";
import { readRunReport } from "./run_report.ts";
import type { RunReporter } from "./run_report.ts";
import type { LaunchControlAddress, LaunchSteering, RunAction } from "./run_report.ts";

/** A launch's steering: what the library asked of it as it started, and its side channel. */
export interface SteeredLaunch {
  /** The cassette the library's control chose for launches from now on, if it did. */
  cassette?: string;
  /** Hands the side channel the replay's engine; resolves once the launch may serve. */
  serve(engine: ReplayEngine): Promise<void>;
  /** Stops listening. */
  close(): Promise<void>;
}

/**
 * Starts a launch's steering: its `start` line (marked steerable), then what
 * the library asked (the run log's last `steer` line), then the side channel,
 * whose address goes on a `control` line once it listens, while the replay
 * already serves (listening is not on the launch's path). The library writes
 * a steer line and then steers the launches it finds, waiting for their
 * address: so a launch either reads what it asked or is asked it.
 */
export async function steerLaunch(
  runLog: string,
  reporter: RunReporter,
  action: RunAction,
  log: (line: string) => void,
): Promise<SteeredLaunch> {
  reporter.start(action, true);
  const steer = await launchSteering(runLog);
  const channel = openSteeringChannel(log);
  channel.address.then((address) => {
    try {
      reporter.control(action, address);
    } catch (error) {
      log(`the control side channel's address was not written: ${(error as Error).message}`);
    }
  }, (error: Error) => log(`no control side channel: ${error.message}`));
  return {
    ...(steer?.cassette ? { cassette: steer.cassette } : {}),
    serve: (engine) => channel.serve(engine, steer?.faults),
    close: () => channel.close(),
  };
}

/** A launch's side channel. */
interface SteeringChannel {
  /** Where it listens, once it does. */
  readonly address: Promise<LaunchControlAddress>;
  /**
   * Serves the controls of `engine` from now on (requests before wait for
   * it), with `faults` (an overlay's text the library asked for) in force.
   */
  serve(engine: ReplayEngine, faults?: string | null): Promise<void>;
  /** Refuses requests still waiting for an engine, and stops listening. */
  close(): Promise<void>;
}

/** The control modules, loaded at the first control request (a launch never steered skips them). */
async function controlOf(engine: ReplayEngine) {
  // A sum of literals, as src/commands/replay.ts explains: Deno does not load these up front.
  const { ReplayControl } = await import(
    "../" + "replay/control.ts"
  ) as typeof import("../replay/control.ts");
  const { controlHandler } = await import(
    "../" + "replay/http/control.ts"
  ) as typeof import("../replay/http/control.ts");
  const control = new ReplayControl(engine);
  return { control, handle: controlHandler(control) };
}

/** Starts listening on a free loopback port; the engine comes later ({@linkcode SteeringChannel.serve}). */
function openSteeringChannel(log?: (line: string) => void): SteeringChannel {
  let ready!: (engine: ReplayEngine | undefined) => void;
  const served = new Promise<ReplayEngine | undefined>((resolve) => (ready = resolve));
  let steered: ReturnType<typeof controlOf> | undefined;
  // Two UUIDs' worth of randomness: the token is only ever read from the run log.
  const token = (randomId() + randomId()).replaceAll("-", "");
  const handle = async (request: Request) => {
    const path = new URL(request.url).pathname;
    const engine = await served;
    if (!engine || !path.startsWith("/__cassette/")) {
      const error = engine ? `${path} is not a control request` : "the replay did not start";
      return Response.json({ error }, { status: engine ? 404 : 503 });
    }
    steered ??= controlOf(engine);
    return await (await steered).handle(request);
  };
  // The HTTP modules load, too, while the replay serves.
  const local = (import("../" + "http/serve.ts") as Promise<typeof import("../http/serve.ts")>)
    .then(({ serveLocal }) => serveLocal({ listen: "127.0.0.1:0", token, log }, handle));
  return {
    address: local.then((listening) => ({
      url: `http://127.0.0.1:${listening.bound.port}`,
      token,
    })),
    serve: async (engine, faults) => {
      if (faults) {
        steered = controlOf(engine);
        (await steered).control.setFaults(faults, "the steered fault overlay");
      }
      ready(engine);
    },
    close: async () => {
      ready(undefined);
      await (await local.catch(() => undefined))?.close();
    },
  };
}

/** What the library's control asked of launches starting now: the run log's last `steer` line. */
export async function launchSteering(runLog: string): Promise<LaunchSteering | undefined> {
  const lines = await readRunReport(runLog);
  return lines.filter((line) => line.event === "steer").at(-1)?.steer;
}
