/**
 * Waiting for the replays and recordings a client launched from one
 * `startCassette` (./start.ts) to end, as their run log tells.
 *
 * @module
 */
import { readRunReport } from "../modes/run_report.ts";
import type { RunReportLine } from "../modes/run_report.ts";
import { runtime } from "../runtime/mod.ts";
import { sleep } from "../util/helpers.ts";

/**
 * The run log once its launches have ended; after `waitMs`, those left are
 * ended (SIGTERM). With `stop` (a test that failed), each launch is ended at
 * once, and waited for until its process is gone, not only until it logs its
 * end: a replay still exiting when the test's runner moves on was seen alive
 * by the next check on a loaded machine.
 */
export async function awaitLaunches(
  runLog: string,
  options: { waitMs?: number; stop?: boolean },
): Promise<RunReportLine[]> {
  const deadline = Date.now() + (options.waitMs ?? 10_000);
  let lines = await readRunReport(runLog);
  const open = () => {
    const ended = new Set(lines.filter((line) => line.event === "end").map((line) => line.pid));
    return lines.filter((line) =>
      line.event === "start" && !ended.has(line.pid) && runtime.isProcessAlive(line.pid)
    );
  };
  const exiting = () =>
    options.stop
      ? lines.filter((line) => line.event === "start" && runtime.isProcessAlive(line.pid))
      : [];
  if (options.stop) { for (const launch of open()) runtime.kill(launch.pid, "SIGTERM"); }
  while ((open().length > 0 || exiting().length > 0) && Date.now() < deadline) {
    await sleep(25);
    lines = await readRunReport(runLog);
  }
  for (const launch of open()) runtime.kill(launch.pid, "SIGTERM");
  return lines;
}
