/**
 * The control endpoint of `replay --listen --control`, beside the MCP
 * endpoint and behind its Host/Origin guard (the server routes
 * `/__cassette/…` here only after the guard passed):
 *
 * - `GET /__cassette/journal`: the journal, `{"requests": […], "dropped", "limit"}`;
 * - `POST /__cassette/reset`: every session, the use counts and the journal afresh;
 * - `POST /__cassette/faults` (a `--faults` overlay as the body), `DELETE /__cassette/faults`;
 * - `POST /__cassette/cassette` (`{"path": "…"}`): new sessions are served from that cassette.
 *
 * Bad input is a 400 with `{"error": "…"}` naming it; the replay serves on as before.
 *
 * @module
 */
import { CassetteError } from "../../errors/errors.ts";
import type { ReplayControl } from "../control.ts";
import type { ReplayEngine } from "../engine.ts";
import type { HttpHandle, HttpServeOptions } from "./options.ts";

/**
 * The HTTP options that serve `control`: its endpoint, and the routing a
 * cassette switch needs (new sessions go to the engine `control` switched to).
 */
export function controlOptions(
  control: ReplayControl,
): Pick<HttpServeOptions, "control" | "route"> {
  return { control: controlHandler(control), route: sessionRoute(control) };
}

/** The routing alone: a replay steered in process, with no endpoint served. */
export function sessionRoute(control: ReplayControl): NonNullable<HttpServeOptions["route"]> {
  const router = new SessionRouter();
  control.onSwitch((engine) => router.switchTo(engine));
  return (first, serve) => router.start(first, serve);
}

/**
 * Answers one request under `/__cassette/` with `control`: the endpoint of
 * `replay --listen --control`, and of a stdio launch's side channel
 * (src/modes/steer.ts). The caller has checked Host, Origin and the token.
 */
export function controlHandler(control: ReplayControl): (request: Request) => Promise<Response> {
  return (request) => answer(request, control);
}

/**
 * Sends each request to the server of the cassette its session began on:
 * a session id minted after a switch is remembered with its server; any
 * other request (a new session, or one of the first cassette's) goes to
 * the current server, or, carrying an id the later servers did not mint,
 * to the first.
 */
class SessionRouter {
  #first: HttpHandle | undefined;
  #current: HttpHandle | undefined;
  #serve: ((engine: ReplayEngine) => HttpHandle) | undefined;
  #minted = new Map<string, HttpHandle>();

  start(first: HttpHandle, serve: (engine: ReplayEngine) => HttpHandle): HttpHandle {
    this.#first = this.#current = first;
    this.#serve = serve;
    return (request, deadline, raw) => {
      const current = this.#current!;
      if (current === this.#first) return current(request, deadline, raw);
      const id = request.headers.get("mcp-session-id");
      const server = id ? this.#minted.get(id) ?? this.#first! : current;
      const response = server(request, deadline, raw);
      if (id || server !== current) return response;
      return response.then((reply) => {
        const minted = reply.headers.get("mcp-session-id");
        if (minted) this.#minted.set(minted, server);
        return reply;
      });
    };
  }

  /** New sessions from now on go to `engine`'s server. */
  switchTo(engine: ReplayEngine): void {
    this.#current = this.#serve!(engine);
  }
}

async function answer(request: Request, control: ReplayControl): Promise<Response> {
  const what = new URL(request.url).pathname.slice("/__cassette/".length);
  const route = `${request.method} ${what}`;
  try {
    switch (route) {
      case "GET journal":
        return json(200, await control.journal());
      case "POST reset":
        control.reset();
        return json(200, { reset: true });
      case "POST faults":
        control.setFaults(await request.text(), "the posted fault overlay");
        return json(200, { faults: "in force from the next request" });
      case "DELETE faults":
        control.clearFaults();
        return json(200, { faults: "cleared" });
      case "POST cassette": {
        const path = await cassettePath(request);
        await control.useCassette(path);
        return json(200, { cassette: path, for: "new sessions" });
      }
    }
  } catch (error) {
    if (!(error instanceof CassetteError)) throw error;
    return json(400, { error: error.message.split("\n")[0] });
  }
  const known = ["GET journal", "POST reset", "POST faults", "DELETE faults", "POST cassette"];
  return json(404, {
    error: `${route.replace(" ", " /__cassette/")} is not a control request (there are: ${
      known.map((name) => name.replace(" ", " /__cassette/")).join(", ")
    })`,
  });
}

async function cassettePath(request: Request): Promise<string> {
  const text = await request.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new CassetteError(
      `POST /__cassette/cassette takes {"path": "…"}, not ${text.slice(0, 80)}`,
    );
  }
  const path = (body as { path?: unknown } | null)?.path;
  if (typeof path !== "string" || path === "") {
    throw new CassetteError(
      `POST /__cassette/cassette takes {"path": "…"}, not ${text.slice(0, 80)}`,
    );
  }
  return path;
}

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body) + "\n", {
    status,
    headers: { "content-type": "application/json" },
  });
}
