/**
 * Threads, as Web Workers: a module started on a thread of its own, and the
 * thread's side of the conversation. Deno has `Worker` as a global; where it
 * is missing (Node) {@linkcode startThread} gives undefined and callers do
 * the work on the main thread.
 *
 * @module
 */

/** The slice of the Web Worker API used here (declared: the build's lib has no DOM). */
interface WebWorker {
  postMessage(message: unknown): void;
  onmessage: ((event: { data: unknown }) => void) | null;
  onerror: ((event: { message?: string; preventDefault(): void }) => void) | null;
  terminate(): void;
}

/** A started thread. */
export interface Thread {
  post(message: unknown): void;
  /** Stops the thread at its next chance (a blocking call it is in finishes first). */
  stop(): void;
}

/**
 * Starts `module` on a thread of its own. `onMessage` gets what it posts,
 * `onError` the message of an error it did not catch (the thread is then
 * stopped). Undefined where the runtime has no Web Workers.
 */
export function startThread(
  module: URL,
  onMessage: (message: unknown) => void,
  onError: (message: string) => void,
): Thread | undefined {
  const Worker =
    (globalThis as { Worker?: new (url: URL, options: { type: "module" }) => WebWorker }).Worker;
  if (Worker === undefined) return undefined;
  const worker = new Worker(module, { type: "module" });
  worker.onmessage = (event) => onMessage(event.data);
  worker.onerror = (event) => {
    event.preventDefault();
    worker.terminate();
    onError(event.message ?? "the thread failed");
  };
  return { post: (message) => worker.postMessage(message), stop: () => worker.terminate() };
}

/**
 * In a thread started by {@linkcode startThread}: hands each message from the
 * starting thread to `handler`, and returns the function that posts back.
 */
export function threadInbox(handler: (message: unknown) => void): (message: unknown) => void {
  const scope = globalThis as unknown as {
    onmessage: ((event: { data: unknown }) => void) | null;
    postMessage(message: unknown): void;
  };
  scope.onmessage = (event) => handler(event.data);
  return (message) => scope.postMessage(message);
}
