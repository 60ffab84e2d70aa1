/**
 * Byte pipes built as the recorder is (Deno, the runtime's streams, the line
 * splitter), to show what a recorder cannot go below:
 *
 * - `durable_pipe.ts -- <server…>`: copies bytes both ways and nothing else;
 * - `durable_pipe.ts --journal FILE -- <server…>`: also writes every
 *   complete line to FILE before forwarding the chunk that completed it, as
 *   the recorder must so that a kill loses nothing it forwarded, but with no
 *   parsing, redaction or cassette entry.
 *
 * `scripts/bench.ts` runs both next to the recorder.
 */
import { LineSplitter } from "../../src/framing/jsonl.ts";
import { runtime } from "../../src/runtime/mod.ts";
import type { AppendFile } from "../../src/runtime/mod.ts";

const args = runtime.args;
const separator = args.indexOf("--");
const journalAt = args.indexOf("--journal");
const journal = journalAt >= 0 && journalAt < separator ? runtime.openAppend(args[journalAt + 1], { truncate: true }) : undefined;
const child = runtime.spawn(args.slice(separator + 1), { stderr: "inherit" });
const encoder = new TextEncoder();

async function pump(from: ReadableStream<Uint8Array>, to: WritableStream<Uint8Array>, file?: AppendFile): Promise<void> {
  const splitter = new LineSplitter();
  const writer = to.getWriter();
  const reader = from.getReader();
  try {
    while (true) {
      const { done, value } = await reader.read();
      if (done) break;
      const lines = splitter.push(value);
      if (file && lines.length > 0) file.write(encoder.encode(lines.join("\n") + "\n"));
      await writer.write(value);
    }
  } catch {
    // The other side went away.
  } finally {
    await writer.close().catch(() => {});
  }
}

void pump(runtime.stdin, child.stdin, journal);
await pump(child.stdout, runtime.stdout, journal);
runtime.exit(await child.exited.catch(() => 1));
