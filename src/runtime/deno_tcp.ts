/**
 * TCP on Deno: its connections already offer Web Streams. Nagle is off on
 * both ends: a proxy's small writes (a head, then a body) must not wait
 * for an acknowledgement.
 *
 * @module
 */
import type { Tcp, TcpConnection } from "./types.ts";

interface DenoConn {
  readonly readable: ReadableStream<Uint8Array>;
  readonly writable: WritableStream<Uint8Array>;
  readonly remoteAddr: { hostname?: string };
  setNoDelay(on: boolean): void;
  write(bytes: Uint8Array): Promise<number>;
  read(buffer: Uint8Array): Promise<number | null>;
  closeWrite(): Promise<void>;
  close(): void;
}
interface DenoNet {
  listen(options: { hostname: string; port: number }): AsyncIterable<DenoConn> & {
    readonly addr: { hostname: string; port: number };
    close(): void;
  };
  connect(options: { hostname: string; port: number }): Promise<DenoConn>;
}

const Deno = (globalThis as unknown as { Deno: DenoNet }).Deno;

/**
 * The connection's writable side on `conn.write`: Deno's own `writable`
 * spent about 50 us of CPU per small write under the recorder's load
 * (a fifth of its time), where `write` costs a fraction of that.
 */
function writableOf(conn: DenoConn): WritableStream<Uint8Array> {
  return new WritableStream<Uint8Array>({
    async write(chunk) {
      let offset = 0;
      while (offset < chunk.length) offset += await conn.write(chunk.subarray(offset));
    },
    close: () => conn.closeWrite().catch(() => {}),
  });
}

/** Bytes read at a time: an MCP message fits, most often, with its head. */
const READ_SIZE = 16 * 1024;

/**
 * The connection's readable side on `conn.read`: a plain stream, where
 * Deno's own byte stream spent more per read than the read itself.
 */
function readableOf(conn: DenoConn): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const buffer = new Uint8Array(READ_SIZE);
      let n: number | null;
      try {
        n = await conn.read(buffer);
      } catch (error) {
        controller.error(error);
        return;
      }
      if (n === null) controller.close();
      else controller.enqueue(buffer.subarray(0, n));
    },
  }, { highWaterMark: 0 });
}

function wrap(conn: DenoConn): TcpConnection {
  conn.setNoDelay(true);
  let closed = false;
  return {
    readable: readableOf(conn),
    writable: writableOf(conn),
    remoteAddress: conn.remoteAddr.hostname ?? "",
    close() {
      if (closed) return;
      closed = true;
      try {
        conn.close();
      } catch {
        // Already gone (its streams may have closed it).
      }
    },
  };
}

/** TCP on Deno. */
export const denoTcp: Tcp = {
  listen(address, onConnection) {
    const listener = Deno.listen(address);
    (async () => {
      try {
        for await (const conn of listener) onConnection(wrap(conn));
      } catch {
        // The listener was closed.
      }
    })();
    return Promise.resolve({
      hostname: listener.addr.hostname,
      port: listener.addr.port,
      close: () => {
        try {
          listener.close();
        } catch {
          // Already closed.
        }
      },
    });
  },
  async connect(address) {
    return wrap(await Deno.connect(address));
  },
};
