/**
 * The HTTP server set-up the recorder and the replay share: the listen
 * address, the exposure warning, the header and idle bounds, the deadline
 * for a request's body (its cuts counted and logged), and the bearer token,
 * Host and Origin checks in front of the handler.
 *
 * @module
 */
import { ErrorCode } from "../jsonrpc/messages.ts";
import { runtime } from "../runtime/mod.ts";
import type { HttpServer, ServeInfo } from "../runtime/mod.ts";
import { errorReply } from "./body.ts";
import { checkHostAndOrigin, exposureOf, parseListen } from "./guard.ts";
import { listenOrExplain } from "./listen_error.ts";
import { bearerMatches, tokenRefusal } from "./token.ts";
import type { ListenAddress } from "./guard.ts";

/** What {@linkcode serveLocal} needs. */
export interface LocalServeOptions {
  /** `HOST:PORT`; port 0 picks a free one (default 127.0.0.1 and a free port). */
  listen?: string;
  /** Idle connections are closed after this many ms (default 30000). */
  idleTimeoutMs?: number;
  /** A request's body must be in within this many ms of its headers (default: the idle timeout). */
  requestTimeoutMs?: number;
  log?: (line: string) => void;
  /** Leave the Host and Origin check to the handler (the replay's does it, in process too). */
  handlerGuards?: boolean;
  /**
   * The handler keeps the body deadline with `info.bodyDeadline` when it is
   * set (see `ServeOptions.handlerReadsBody`); it must then read every body
   * through it.
   */
  handlerReadsBody?: boolean;
  /**
   * Check Host and Origin against this address instead of the one bound:
   * for a server that is reached through another listener (the byte-level
   * HTTP recorder hands it what it does not forward itself).
   */
  guardAs?: ListenAddress;
  /**
   * A bearer token every request must carry (`Authorization: Bearer …`),
   * checked before anything else; 401 without it.
   */
  token?: string;
}

/** A server started by {@linkcode serveLocal}. */
export interface LocalServer {
  server: HttpServer;
  /** The address and the port really bound. */
  bound: ListenAddress;
  /** Set when the address is reachable from other machines: the caller says so. */
  warning?: string;
  /** Closes the server, first logging how many requests were cut for a body that never came. */
  close(): Promise<void>;
}

/**
 * Starts `handle` on the address in `options.listen`, behind the Host and
 * Origin check (unless the handler guards itself).
 */
export async function serveLocal(
  options: LocalServeOptions,
  handle: (request: Request, info: ServeInfo) => Promise<Response>,
): Promise<LocalServer> {
  const requested = parseListen(options.listen);
  const bound: ListenAddress = { ...requested };
  const warning = await exposureOf(bound);
  const server = await listenOrExplain(requested, () =>
    runtime.serve(
      {
        hostname: requested.hostname,
        port: requested.port,
        maxHeaderBytes: 16 * 1024,
        idleTimeoutMs: options.idleTimeoutMs ?? 30_000,
        requestTimeoutMs: options.requestTimeoutMs,
        onRequestCut: ({ remoteAddress, method, path }) =>
          options.log?.(
            `cut a ${method} ${path} from ${remoteAddress}: its body did not arrive in time (408)`,
          ),
        exposed: warning !== undefined,
        handlerReadsBody: options.handlerReadsBody,
      },
      (request, info) => {
        const token = options.token;
        if (token !== undefined && !bearerMatches(request.headers.get("authorization"), token)) {
          return Promise.resolve(tokenRefusal());
        }
        if (options.handlerGuards) return handle(request, info);
        const refused = checkHostAndOrigin(request, options.guardAs ?? bound);
        if (refused) {
          return Promise.resolve(errorReply({
            status: refused.status,
            code: ErrorCode.InvalidRequest,
            message: refused.message,
          }));
        }
        return handle(request, info);
      },
    ));
  bound.port = server.port;
  return {
    server,
    bound,
    ...(warning ? { warning } : {}),
    close: async () => {
      const cut = server.requestsCut?.() ?? 0;
      if (cut > 0) options.log?.(`${cut} request(s) cut: their body did not arrive in time`);
      await server.close();
    },
  };
}
