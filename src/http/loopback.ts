/**
 * What counts as loopback, parsed rather than guessed from a prefix: the
 * name `localhost`, an IPv4 address in 127.0.0.0/8, or the IPv6 address
 * ::1 (also as an IPv4-mapped 127.x address). `127.attacker.test` is a name
 * like any other, and a page served from it is foreign.
 *
 * @module
 */
import { lookup } from "node:dns/promises";

/**
 * The host part of a Host header or a URL as the WHATWG URL parser reads
 * it (lower case, IPv4 in dotted decimal, IPv6 bracketed and shortened), or
 * undefined when it is not a plain host.
 */
export function canonicalHost(host: string): string | undefined {
  // Only what a host (and an optional port) can hold: no user info, path or query.
  if (!/^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._~%-]+)$/.test(host)) return undefined;
  try {
    const url = new URL(`http://${host}/`);
    return url.hostname === "" ? undefined : url.hostname;
  } catch {
    return undefined;
  }
}

const MAPPED_127 = /^\[::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}\]$/;

/** True when a canonical host (see {@linkcode canonicalHost}) is a loopback address or `localhost`. */
function isCanonicalLoopback(host: string): boolean {
  if (host === "localhost" || host === "[::1]" || MAPPED_127.test(host)) return true;
  const quad = /^(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(host);
  return quad !== null && quad[1] === "127";
}

/**
 * True for a loopback host name or address: `localhost`, 127.0.0.0/8 or
 * ::1, bracketed or not. Any other name is not, whatever it starts with.
 */
export function isLoopback(hostname: string): boolean {
  const bare = hostname.startsWith("[")
    ? hostname
    : hostname.includes(":")
    ? `[${hostname}]`
    : hostname;
  const host = canonicalHost(bare);
  return host !== undefined && isCanonicalLoopback(host);
}

/** True when `hostname` is an IP address literal rather than a name to resolve. */
function isAddress(hostname: string): boolean {
  return hostname.includes(":") || /^[\d.]+$/.test(hostname);
}

/**
 * True when a server bound to `hostname` is reachable only from this
 * machine: a loopback address, or a name every address of which is
 * loopback. A name that resolves anywhere else, or not at all, is not.
 */
export async function bindsLoopbackOnly(hostname: string): Promise<boolean> {
  if (isLoopback(hostname)) return true;
  if (isAddress(hostname)) return false;
  try {
    const addresses = await lookup(hostname, { all: true });
    return addresses.length > 0 && addresses.every((entry) => isLoopback(entry.address));
  } catch {
    return false;
  }
}
