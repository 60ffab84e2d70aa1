/**
 * A deadline on reading a request's body, shared by both HTTP servers. The
 * idle timeout cuts a connection that stops in its headers, but once a
 * handler runs the connection counts as busy: a chunked body trickling one
 * byte a second held one open for 84 s (replay) and over 65 s (recorder).
 * Here the body must have arrived in full within the deadline of the handler
 * being called; a handler still waiting for it then is answered 408 in its
 * place and the connection is closed.
 *
 * @module
 */
import type { BodyDeadline } from "./types.ts";

/** Default bound, in ms, on the time to read a request's body once its headers are in. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;

/** The body deadline `options` ask for. */
export function requestDeadlineMs(
  options: { requestTimeoutMs?: number; idleTimeoutMs?: number },
): number {
  return options.requestTimeoutMs ?? options.idleTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
}

/** The answer to a request whose body was not in within the deadline. */
export function requestTimeout(): Response {
  return new Response("Request Timeout: the request body did not arrive in time\n", {
    status: 408,
    headers: { connection: "close", "content-type": "text/plain" },
  });
}

/**
 * Calls `handler` with `request`, its body bound to arrive within `ms`.
 * When it does not, and the handler has not answered yet, the answer is
 * {@linkcode requestTimeout} and `onCut` runs (to count the cut and close
 * the connection); the handler's own answer, if it ever comes, is dropped.
 */
export function withBodyDeadline(
  request: Request,
  ms: number,
  handler: (request: Request) => Response | Promise<Response>,
  onCut: () => void,
): Promise<Response> {
  if (request.body === null || !Number.isFinite(ms) || ms <= 0) {
    return Promise.resolve(handler(request));
  }
  const reader = request.body.getReader();
  let settled = false;
  let cut!: () => void;
  const late = new Promise<Response>((resolve) => {
    cut = () => resolve(requestTimeout());
  });
  const finish = () => {
    settled = true;
    clearTimeout(timer);
  };
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await reader.read();
      if (next.done) {
        finish();
        controller.close();
      } else controller.enqueue(next.value);
    },
    cancel(reason) {
      finish();
      return reader.cancel(reason);
    },
  }, { highWaterMark: 0 });
  const timer = setTimeout(() => {
    if (settled) return;
    settled = true;
    reader.cancel(new Error("request body timed out")).catch(() => {});
    cut();
    onCut();
  }, ms);
  const bounded = new Request(request.url, {
    method: request.method,
    headers: request.headers,
    body,
    signal: request.signal,
    duplex: "half",
  } as RequestInit);
  const answered = Promise.resolve().then(() => handler(bounded));
  // Once the handler answers, its body is its own business (or the idle timeout's).
  answered.then(finish, finish);
  return Promise.race([answered, late]);
}

/**
 * A body deadline for a handler that reads the body itself, started now: no
 * stream around the body (see `ServeOptions.handlerReadsBody`) and no timer
 * of its own. `onCut` runs when the deadline passes before the body is in.
 */
export function handlerDeadline(ms: number, onCut: () => void): BodyDeadline | undefined {
  if (!Number.isFinite(ms) || ms <= 0) return undefined;
  return new HandlerDeadline(performance.now() + ms, onCut);
}

/** A read under way: cut at `due` unless it ends first. */
interface PendingRead {
  due: number;
  cut(): void;
}

/**
 * Every read under way, watched by one timer set for the earliest due. A
 * timer per request (set, then cleared a moment later) cost the replay 7%
 * of its time under load: Deno's setTimeout is Node's Timeout class.
 */
const pending = new Set<PendingRead>();
let timer: ReturnType<typeof setTimeout> | undefined;
let timerDue = Infinity;
/** Servers open that keep body deadlines: while there are, the timer may stay set with nothing to watch. */
let holders = 0;

/**
 * Marks a server as keeping body deadlines until the returned function is
 * called. Reads under load rarely overlap (each body is in at once), so the
 * watch empties after nearly every request: clearing the timer then and
 * setting it again for the next read cost the replay a tenth of its time.
 * While a server holds, an emptied watch leaves its timer set; the timer
 * finds nothing due and is not set again until the next read.
 */
export function holdDeadlines(): () => void {
  holders++;
  let held = true;
  return () => {
    if (!held) return;
    held = false;
    holders--;
    if (holders === 0 && pending.size === 0) disarm();
  };
}

function watch(read: PendingRead): void {
  pending.add(read);
  if (read.due < timerDue) arm(read.due);
}

/** Forgets a read that ended in time; false when it was already cut. */
function unwatch(read: PendingRead): boolean {
  if (!pending.delete(read)) return false;
  // Nothing left to watch and no server open: no timer keeps the process (or a test) waiting.
  if (pending.size === 0 && holders === 0) disarm();
  return true;
}

function disarm(): void {
  if (timer === undefined) return;
  clearTimeout(timer);
  timer = undefined;
  timerDue = Infinity;
}

function arm(due: number): void {
  if (timer !== undefined) clearTimeout(timer);
  timerDue = due;
  timer = setTimeout(sweep, Math.max(0, due - performance.now()));
}

function sweep(): void {
  timer = undefined;
  timerDue = Infinity;
  const now = performance.now();
  let next = Infinity;
  for (const read of pending) {
    if (read.due <= now) {
      pending.delete(read);
      read.cut();
    } else if (read.due < next) next = read.due;
  }
  if (next < Infinity) arm(next);
}

class HandlerDeadline implements BodyDeadline {
  constructor(private readonly due: number, private readonly onCut: () => void) {}

  within<T>(reading: Promise<T>): Promise<T | undefined> {
    return new Promise<T | undefined>((resolve, reject) => {
      const read: PendingRead = {
        due: this.due,
        cut: () => {
          // The read ends (rejected) when the connection is closed: nobody waits for it.
          reading.catch(() => {});
          this.onCut();
          resolve(undefined);
        },
      };
      watch(read);
      reading.then((value) => {
        if (unwatch(read)) resolve(value);
      }, (error) => {
        if (unwatch(read)) reject(error);
      });
    });
  }
}
