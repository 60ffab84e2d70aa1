/**
 * Decides whether a recording replaces the cassette or joins it as another
 * session. An MCP client may launch the same server command twice in quick
 * succession (the official SDK v2 client probes `server/discover` on a
 * short-lived first launch); both launches belong in one cassette.
 *
 * @module
 */
import { loadCassette } from "../cassette/reader.ts";
import { runtime } from "../runtime/mod.ts";

/** How a new recording relates to the cassette on disk. */
export interface SessionPlan {
  /** Append to the existing cassette instead of replacing it. */
  append: boolean;
  /** The session name for the new entries (undefined: the default session). */
  session?: string;
}

/**
 * A cassette written by the same command and finished less than
 * `windowMs` ago is extended with a new session; anything else is replaced.
 */
export async function planSession(
  path: string,
  command: readonly string[],
  windowMs: number,
): Promise<SessionPlan> {
  if (windowMs <= 0) return { append: false };
  const info = await runtime.stat(path);
  if (!info?.isFile || Date.now() - info.mtimeMs > windowMs) return { append: false };
  try {
    const cassette = await loadCassette(path);
    if (JSON.stringify(cassette.header.server.command ?? []) !== JSON.stringify(command)) {
      return { append: false };
    }
    if (cassette.torn) return { append: false };
    const sessions = new Set(cassette.entries.map((entry) => entry.session ?? "default"));
    return { append: true, session: `launch-${sessions.size + 1}` };
  } catch {
    return { append: false };
  }
}
