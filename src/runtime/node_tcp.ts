/**
 * TCP on Node and Bun: a `node:net` socket as a pair of Web Streams, with
 * backpressure both ways (the socket is paused while the reader is behind;
 * a write resolves once the socket has taken it).
 *
 * @module
 */
import * as net from "node:net";
import type { Tcp, TcpConnection } from "./types.ts";

function wrap(socket: net.Socket): TcpConnection {
  socket.setNoDelay(true);
  let ended = false;
  const readable = new ReadableStream<Uint8Array>({
    start(controller) {
      const end = (error?: Error) => {
        if (ended) return;
        ended = true;
        if (error) controller.error(error);
        else controller.close();
      };
      socket.on("data", (data: Uint8Array) => {
        if (ended) return;
        controller.enqueue(new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
        if ((controller.desiredSize ?? 0) <= 0) socket.pause();
      });
      socket.on("end", () => end());
      socket.on("close", () => end());
      socket.on("error", (error) => end(error));
    },
    pull() {
      socket.resume();
    },
    cancel() {
      socket.destroy();
    },
  }, { highWaterMark: 1 });
  const writable = new WritableStream<Uint8Array>({
    write: (chunk) =>
      new Promise<void>((resolve, reject) => {
        socket.write(chunk, (error) => error ? reject(error) : resolve());
      }),
    // A socket already destroyed never calls end's callback: its close does.
    close: () =>
      new Promise<void>((resolve) => {
        if (socket.destroyed) return resolve();
        socket.once("close", () => resolve());
        socket.end(() => resolve());
      }),
    abort: () => {
      socket.destroy();
    },
  });
  return {
    readable,
    writable,
    remoteAddress: socket.remoteAddress ?? "",
    close: () => socket.destroy(),
  };
}

/** TCP on Node and Bun. */
export const nodeTcp: Tcp = {
  listen(address, onConnection) {
    const server = net.createServer((socket) => onConnection(wrap(socket)));
    return new Promise((resolve, reject) => {
      server.once("error", reject);
      server.listen(address.port, address.hostname, () => {
        const bound = server.address() as net.AddressInfo;
        resolve({ hostname: address.hostname, port: bound.port, close: () => server.close() });
      });
    });
  },
  connect(address) {
    return new Promise((resolve, reject) => {
      const socket = net.connect(address.port, address.hostname);
      socket.once("error", reject);
      socket.once("connect", () => {
        socket.off("error", reject);
        resolve(wrap(socket));
      });
    });
  },
};
