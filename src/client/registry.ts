/**
 * A registry of transport factories, so that a transport written elsewhere
 * (Streamable HTTP) becomes available to `check --url` and `verify --url`
 * by registering itself, without editing those commands.
 *
 * @example
 * ```ts
 * import { registerTransportFactory } from "./registry.ts";
 * registerTransportFactory("http", (url, options) => new MyHttpTransport(url, options));
 * ```
 *
 * @module
 */
import type { ClientTransport } from "./transport.ts";

/** Options every transport factory receives. */
export interface TransportFactoryOptions {
  /** Extra HTTP headers (for `--header` flags, when the command offers them). */
  headers?: Record<string, string>;
}

/** Makes a transport connected to `target` (for `http`: a URL). */
export type TransportFactory = (
  target: string,
  options: TransportFactoryOptions,
) => ClientTransport;

/** The transport kinds that can be registered. */
export type TransportKind = "http";

const factories = new Map<TransportKind, TransportFactory>();

/** Registers (or replaces) the factory for `kind`. */
export function registerTransportFactory(kind: TransportKind, factory: TransportFactory): void {
  factories.set(kind, factory);
}

/** The factory registered for `kind`, if any. */
export function transportFactory(kind: TransportKind): TransportFactory | undefined {
  return factories.get(kind);
}

/** Removes the factory for `kind` (for tests). */
export function unregisterTransportFactory(kind: TransportKind): void {
  factories.delete(kind);
}
