/**
 * The local-server protections of Streamable HTTP: Host validation against
 * DNS rebinding, Origin validation, and the listen-address parsing that
 * keeps servers on 127.0.0.1 unless told otherwise (a name given is
 * resolved: ./loopback.ts). The bearer token is ./token.ts; the threat
 * model, docs/security.md.
 *
 * @module
 */
import { UsageError } from "../errors/errors.ts";
import { memoize } from "../util/memo.ts";
import { bindsLoopbackOnly, canonicalHost, isLoopback } from "./loopback.ts";

/** A parsed `HOST:PORT`. */
export interface ListenAddress {
  hostname: string;
  port: number;
  /**
   * Set once the server is bound, when `hostname` is a name every address
   * of which is loopback: the Host check applies as for 127.0.0.1.
   */
  loopbackName?: boolean;
}

/** True for a loopback host name or address (./loopback.ts). */
export { isLoopback };

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
    "Anyone who can reach this port can talk to the server through it. Use 127.0.0.1 unless you mean it, " +
    "and give a bearer token (MCP_CASSETTE_TOKEN or --token) that every request must carry.";
}

/**
 * What binding `address` exposes: a name is resolved, and one that reaches
 * beyond loopback warns as 0.0.0.0 does; one that resolves to loopback only
 * is marked so, and gets the loopback Host check.
 */
export async function exposureOf(address: ListenAddress): Promise<string | undefined> {
  if (isLoopback(address.hostname)) return undefined;
  if (await bindsLoopbackOnly(address.hostname)) {
    address.loopbackName = true;
    return undefined;
  }
  return exposureWarning(address.hostname);
}

/**
 * Checks Host (DNS rebinding) and Origin. On a loopback bind the Host must
 * be a loopback address (127.0.0.0/8, ::1) or `localhost` (or the name
 * bound, when it resolves to loopback only) with the bound port (any port
 * when the bound port is 0: a handler driven in process); an Origin, when
 * sent, must be an http(s) origin on loopback (any port: a local browser
 * tool) or on the host bound, and `Origin: null` never passes. Returns the
 * status to refuse with, or undefined.
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
  // An absent Origin (a client that is not a browser) and `Origin: null` (a
  // sandboxed frame, a file: page, a redirect) are different: only the first passes.
  const origin = originHeader ?? "";
  // A client sends the same Host and Origin on every request: the last
  // verdict is compared first, without building and hashing a memo key.
  const last = lastVerdict;
  if (
    last !== undefined && last.host === host && last.origin === origin &&
    last.hostname === bound.hostname && last.port === bound.port &&
    last.loopbackName === (bound.loopbackName === true)
  ) {
    return last.refusal ?? undefined;
  }
  // A newline cannot occur in a header value, so it separates the parts.
  const loopbackName = bound.loopbackName === true;
  const refusal = hostVerdicts(
    `${bound.hostname}\n${bound.port}\n${loopbackName}\n${host}\n${origin}`,
  );
  lastVerdict = { hostname: bound.hostname, port: bound.port, loopbackName, host, origin, refusal };
  return refusal ?? undefined;
}

/** The verdict {@linkcode checkHostAndOrigin} gave last, and what it was given. */
let lastVerdict:
  | {
    hostname: string;
    port: number;
    loopbackName: boolean;
    host: string;
    origin: string;
    refusal: Refusal | null;
  }
  | undefined;

/** Why a request was refused. */
export interface Refusal {
  status: 403 | 421;
  message: string;
}

const hostVerdicts = memoize((key): Refusal | null => {
  const [hostname, port, loopbackName, host, origin] = key.split("\n");
  const bound = { hostname, port: Number(port), loopbackName: loopbackName === "true" };
  return hostRefusal(bound, host) ?? originRefusal(bound, origin);
});

/** A Host header splits into its host and its port (80 when absent); undefined when malformed. */
function splitHost(host: string): { name: string; port: number } | undefined {
  const match = /^(\[[^\]]+\]|[^:\[\]]+)(?::(\d{1,5}))?$/.exec(host);
  const name = match ? canonicalHost(match[1]) : undefined;
  if (!match || name === undefined) return undefined;
  return { name, port: match[2] ? Number(match[2]) : 80 };
}

/**
 * On a loopback bind the Host must name this machine's loopback (DNS
 * rebinding sends the attacker's name) and the bound port.
 */
function hostRefusal(bound: ListenAddress, host: string): Refusal | null {
  if (!bound.loopbackName && !isLoopback(bound.hostname)) return null;
  const parsed = splitHost(host);
  const named = parsed !== undefined &&
    (isLoopback(parsed.name) ||
      (bound.loopbackName === true && parsed.name === canonicalHost(bound.hostname)));
  // Port 0 is an in-process handler's "not bound to a socket": any port.
  if (named && (bound.port === 0 || parsed.port === bound.port)) return null;
  return {
    status: 403,
    message: `Forbidden: Host ${JSON.stringify(host)} is not this local server`,
  };
}

/**
 * An Origin, when sent, must be an http(s) origin on loopback (any port: a
 * local browser tool) or the server's own host; `null` never passes.
 */
function originRefusal(bound: ListenAddress, origin: string): Refusal | null {
  if (origin === "") return null;
  let url: URL | undefined;
  try {
    url = new URL(origin);
  } catch {
    url = undefined;
  }
  const web = url !== undefined && (url.protocol === "http:" || url.protocol === "https:");
  const name = url?.hostname ?? "";
  if (web && (isLoopback(name) || name === canonicalHost(bracketed(bound.hostname)))) return null;
  return { status: 403, message: `Forbidden: Origin ${JSON.stringify(origin)} is not allowed` };
}

function bracketed(hostname: string): string {
  return hostname.includes(":") && !hostname.startsWith("[") ? `[${hostname}]` : hostname;
}
