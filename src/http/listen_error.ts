/**
 * A listening socket that could not be opened because the address is taken
 * is the user's choice of port, not a bug: one line, exit 2.
 *
 * @module
 */
import { UsageError } from "../errors/errors.ts";

/**
 * Listens with `listen`; an address already in use becomes a
 * {@linkcode UsageError} naming it (Deno says `AddrInUse`, Node and Bun
 * `EADDRINUSE`). Other failures pass through as they are.
 */
export async function listenOrExplain<T>(
  address: { hostname: string; port: number },
  listen: () => Promise<T>,
): Promise<T> {
  try {
    return await listen();
  } catch (error) {
    const { name, code } = (error ?? {}) as { name?: string; code?: string };
    if (name !== "AddrInUse" && code !== "EADDRINUSE") throw error;
    const host = address.hostname.includes(":") ? `[${address.hostname}]` : address.hostname;
    throw new UsageError(
      `--listen ${host}:${address.port}: the port is in use by another program; ` +
        `choose another port, or 0 for a free one`,
    );
  }
}
