/**
 * Keeps the byte-level recorder (./http_bytes.ts) from reordering what one
 * client sent: while a session's GET stream has gone up but its answer head
 * has not come back, the POSTs of that session wait.
 *
 * The client connections are served apart, so a POST the client sent just
 * after the GET could otherwise reach the upstream first (it may ride a
 * kept-alive upstream connection while the GET waits for a new one). A
 * server that sends a request on the GET stream when handling that POST
 * finds no stream and drops it. Only the opening is waited for, never the
 * stream itself; a GET that fails, or whose head is later than the
 * bound, lets them go.
 *
 * @module
 */

/** How long a POST waits for its session's GET stream to open at most, in ms. */
export const DEFAULT_HOLD_MS = 1000;

/** The GET streams opening, by session id, and the POSTs waiting for them. */
export class StreamOpenings {
  #opening = new Map<string, { count: number; waiters: (() => void)[] }>();
  #holdMs: number;

  constructor(holdMs = DEFAULT_HOLD_MS) {
    this.#holdMs = holdMs;
  }

  /**
   * A GET of `session` has gone up; call the function returned once its
   * answer head is in, or it failed (a second call does nothing).
   */
  open(session: string): () => void {
    const entry = this.#opening.get(session) ?? { count: 0, waiters: [] };
    this.#opening.set(session, entry);
    entry.count++;
    let done = false;
    const opened = () => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      if (--entry.count > 0) return;
      this.#opening.delete(session);
      for (const wake of entry.waiters) wake();
    };
    const timer = setTimeout(opened, this.#holdMs);
    return opened;
  }

  /** Resolves when no GET of `session` is opening; undefined (no wait at all) when none is. */
  settled(session: string | null): Promise<void> | undefined {
    const entry = session === null ? undefined : this.#opening.get(session);
    if (!entry) return undefined;
    return new Promise<void>((resolve) => entry.waiters.push(resolve));
  }
}
