/**
 * Byte pipes built as the recorder is (Deno, the runtime's streams, the
 * recorder's own copy loop), to show what a recorder cannot go below:
 *
 * - `durable_pipe.ts -- <server…>`: copies bytes both ways and nothing else;
 * - `durable_pipe.ts --journal FILE -- <server…>`: also writes every
 *   complete line to FILE before forwarding the chunk that completed it, as
 *   the recorder must so that a kill loses nothing it forwarded, but with no
 *   parsing, redaction or cassette entry.
 *
 * `scripts/bench.ts` runs both next to the recorder.
 */
import { pump } from "../../src/record/pump.ts";
import { runtime } from "../../src/runtime/mod.ts";

const args = runtime.args;
const separator = args.indexOf("--");
const journalAt = args.indexOf("--journal");
const journal = journalAt >= 0 && journalAt < separator ? runtime.openAppend(args[journalAt + 1], { truncate: true }) : undefined;
const encoder = new TextEncoder();
const write = (lines: string[]) => journal?.write(encoder.encode(lines.join("\n") + "\n"));
const child = runtime.spawn(args.slice(separator + 1), { stderr: "inherit" });

void pump(runtime.stdin, child.stdin, write, () => {});
await pump(child.stdout, runtime.stdout, write, () => {});
runtime.exit(await child.exited.catch(() => 1));
