/**
 * The local-server protections of Streamable HTTP: Host validation against
 * DNS rebinding, Origin validation, and the listen-address parsing that
 * keeps servers on 127.0.0.1 unless told otherwise.
 *
 * @module
 */
import { UsageError } from "../errors.ts";
import { memoize } from "../memo.ts";

/** A parsed `HOST:PORT`. */
export interface ListenAddress {
  hostname: string;
  port: number;
}

const LOOPBACK = new Set(["127.0.0.1", "localhost", "::1", "[::1]"]);

/** True for a loopback host name or address. */
export function isLoopback(hostname: string): boolean {
  return LOOPBACK.has(hostname.toLowerCase()) || /^127\./.test(hostname);
}

/**
 * Parses `HOST:PORT`, `:PORT` or `PORT` (host defaults to 127.0.0.1).
 *
 * @example
 * ```ts
 * parseListen("127.0.0.1:0"); // { hostname: "127.0.0.1", port: 0 }
 * ```
 */
export function parseListen(text: string | undefined): ListenAddress {
  const value = (text ?? "").trim() || "127.0.0.1:0";
  const match = /^(?:\[([^\]]+)\]|([^:]*)):(\d+)$/.exec(value) ?? /^()()(\d+)$/.exec(value);
  if (!match) throw new UsageError(`--listen must be HOST:PORT, not ${JSON.stringify(value)}`);
  const hostname = match[1] || match[2] || "127.0.0.1";
  const port = Number(match[3]);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new UsageError(`--listen port must be 0-65535, not ${match[3]}`);
  }
  return { hostname, port };
}

/** The origin (`http://host:port`) a client uses to reach a server bound here. */
export function originFor(hostname: string, port: number): string {
  const host = hostname === "0.0.0.0" || hostname === "::" ? "127.0.0.1" : hostname;
  return `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
}

/** The warning printed when a server binds beyond loopback. */
export function exposureWarning(hostname: string): string | undefined {
  if (isLoopback(hostname)) return undefined;
  return `WARNING: listening on ${hostname}, reachable from other machines. ` +
    "Anyone who can reach this port can talk to the server through it. Use 127.0.0.1 unless you mean it.";
}

/**
 * Checks Host (DNS rebinding) and Origin. On a loopback bind only
 * localhost, 127.0.0.1 and [::1] with the bound port (any port when the
 * bound port is 0: a handler driven in process) are valid hosts; an
 * Origin, when sent, must be a loopback origin (any port: a local browser
 * tool) or the server's own. Returns the status to refuse with, or undefined.
 */
export function checkHostAndOrigin(
  request: { readonly headers: { get(name: string): string | null } },
  bound: ListenAddress,
): Refusal | undefined {
  return checkHostAndOriginOf(request.headers.get("host"), request.headers.get("origin"), bound);
}

/**
 * {@linkcode checkHostAndOrigin} for a request whose Host and Origin values
 * (null when absent) were read already.
 */
export function checkHostAndOriginOf(
  hostHeader: string | null,
  originHeader: string | null,
  bound: ListenAddress,
): Refusal | undefined {
  const host = hostHeader ?? "";
  const origin = originHeader ?? "null";
  // A client sends the same Host and Origin on every request: the last
  // verdict is compared first, without building and hashing a memo key.
  const last = lastVerdict;
  if (
    last !== undefined && last.host === host && last.origin === origin &&
    last.hostname === bound.hostname && last.port === bound.port
  ) {
    return last.refusal ?? undefined;
  }
  // A newline cannot occur in a header value, so it separates the parts.
  const refusal = hostVerdicts(`${bound.hostname}\n${bound.port}\n${host}\n${origin}`);
  lastVerdict = { hostname: bound.hostname, port: bound.port, host, origin, refusal };
  return refusal ?? undefined;
}

/** The verdict {@linkcode checkHostAndOrigin} gave last, and what it was given. */
let lastVerdict:
  | { hostname: string; port: number; host: string; origin: string; refusal: Refusal | null }
  | undefined;

/** Why a request was refused. */
export interface Refusal {
  status: 403 | 421;
  message: string;
}

const hostVerdicts = memoize((key): Refusal | null => {
  const [hostname, port, host, origin] = key.split("\n");
  return refusal({ hostname, port: Number(port) }, host, origin);
});

function refusal(bound: ListenAddress, host: string, origin: string): Refusal | null {
  if (isLoopback(bound.hostname)) {
    const match = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(host);
    const name = match?.[1]?.toLowerCase() ?? "";
    const port = match?.[2] ? Number(match[2]) : 80;
    // Port 0 is an in-process handler's "not bound to a socket": any port.
    if (!match || !LOOPBACK.has(name) || (bound.port !== 0 && port !== bound.port)) {
      return {
        status: 403,
        message: `Forbidden: Host ${JSON.stringify(host)} is not this local server`,
      };
    }
  }
  if (origin !== "null") {
    let url: URL | undefined;
    try {
      url = new URL(origin);
    } catch {
      url = undefined;
    }
    const name = url?.hostname.toLowerCase() ?? "";
    if (!url || (!isLoopback(name) && !isLoopback(`[${name}]`) && name !== bound.hostname)) {
      return { status: 403, message: `Forbidden: Origin ${JSON.stringify(origin)} is not allowed` };
    }
  }
  return null;
}
