/**
 * Waiting for more of the cassette, for a replay that serves while it reads
 * the file (docs/replay.md "Start-up").
 *
 * @module
 */
import type { RecordingSource } from "./source.ts";

/**
 * Runs `attempt` (a settled match: see `takeSettled` in
 * ../match/answer_book.ts) at once when no message waits before this one,
 * else in its turn, and again after each batch of the file read, until it
 * decides. Resolves undefined once the whole file is read without it
 * deciding: the caller then matches as usual. Messages that wait are tried
 * in the order they came, so none is matched before one that came earlier.
 */
export async function whenSettled<T>(
  source: RecordingSource,
  attempt: () => T | undefined,
): Promise<T | undefined> {
  if (!source.queueing) {
    const now = attempt();
    if (now !== undefined) return now;
  }
  const turn = source.queue();
  try {
    await turn.ready;
    while (!source.complete) {
      const decided = attempt();
      if (decided !== undefined) return decided;
      await source.progress();
    }
    return undefined;
  } finally {
    turn.done();
  }
}
