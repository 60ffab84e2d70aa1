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

/** The deadlines of requests whose handler says when their body is in. */
const bodyDeadlines = new WeakMap<Request, () => void>();

/**
 * Tells the deadline of `request` that its body has been read in full (or
 * given up on). A no-op for a request served with no such deadline.
 */
export function bodyRead(request: Request): void {
  bodyDeadlines.get(request)?.();
}

/**
 * {@linkcode withBodyDeadline} for a handler that calls {@linkcode bodyRead}
 * once it has the body: the request is handed on as it is, not wrapped in a
 * new one with a stream to watch (about a tenth of the recorder's CPU a
 * request). The deadline stops at `bodyRead` or at the handler's answer;
 * `onCut` must close the connection, which is what ends a read still waiting.
 */
export function withSignalledBodyDeadline(
  request: Request,
  ms: number,
  handler: (request: Request) => Response | Promise<Response>,
  onCut: () => void,
): Promise<Response> {
  if (request.body === null || !Number.isFinite(ms) || ms <= 0) {
    return Promise.resolve(handler(request));
  }
  let cut!: () => void;
  const late = new Promise<Response>((resolve) => {
    cut = () => resolve(requestTimeout());
  });
  const deadline: Deadline = {
    due: performance.now() + ms,
    fire: () => {
      bodyDeadlines.delete(request);
      cut();
      onCut();
    },
  };
  const finish = () => {
    waiting.delete(deadline);
    bodyDeadlines.delete(request);
  };
  watch(deadline);
  bodyDeadlines.set(request, finish);
  const answered = Promise.resolve().then(() => handler(request));
  answered.then(finish, finish);
  return Promise.race([answered, late]);
}

/** A body deadline being watched. */
interface Deadline {
  due: number;
  fire(): void;
}

/**
 * The deadlines being watched, checked by one sweep every SWEEP_MS rather
 * than a timer armed and cleared for every request (a timer cost about as
 * much as the rest of the deadline). A cut comes up to SWEEP_MS late.
 */
const waiting = new Set<Deadline>();
const SWEEP_MS = 50;
let sweeper: ReturnType<typeof setInterval> | undefined;

function watch(deadline: Deadline): void {
  waiting.add(deadline);
  sweeper ??= setInterval(sweep, SWEEP_MS);
}

/** Fires the deadlines that are due; stops once nothing is watched, so no timer outlives the requests. */
function sweep(): void {
  if (waiting.size === 0) {
    clearInterval(sweeper);
    sweeper = undefined;
    return;
  }
  const now = performance.now();
  for (const deadline of waiting) {
    if (now < deadline.due) continue;
    waiting.delete(deadline);
    deadline.fire();
  }
}
