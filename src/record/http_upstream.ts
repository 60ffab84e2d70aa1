/**
 * The upstream server as the HTTP recorder sees it. Its URL's query (often
 * a token) and credentials are kept here: the client is pointed at the
 * recorder's path alone, the recorder adds the upstream's query to what it
 * forwards, and every diagnostic that could quote the URL (a fetch error
 * names it in full on Deno) is passed through {@linkcode Upstream.hide}.
 *
 * @module
 */
import { UsageError } from "../errors/errors.ts";
import type { Json } from "../jsonrpc/messages.ts";
import { isObject } from "../util/helpers.ts";

const HIDDEN = "[redacted]";

/** The upstream server of one HTTP recording. */
export class Upstream {
  readonly url: URL;
  /** The values that must never be printed: query values, user name and password. */
  readonly #secrets: string[];
  /** The origin, when the URL has no query and no credentials to carry over. */
  readonly #plainOrigin: string | undefined;

  constructor(url: string) {
    try {
      this.url = new URL(url);
    } catch {
      // Not quoted: a URL that fails to parse may still hold a token.
      throw new UsageError("--url is not a valid http:// or https:// URL");
    }
    if (this.url.protocol !== "http:" && this.url.protocol !== "https:") {
      throw new UsageError(`--url must be http:// or https://, not ${this.url.protocol}`);
    }
    const values = [...this.url.searchParams.values(), this.url.username, this.url.password]
      .flatMap((value) => [value, encodeURIComponent(value)])
      .filter((value) => value.length >= 3);
    const plain = this.url.search === "" && this.url.username === "" && this.url.password === "";
    this.#plainOrigin = plain ? this.url.origin : undefined;
    // Longest first, so a value that contains another is hidden whole.
    this.#secrets = [...new Set(values)].sort((a, b) => b.length - a.length);
  }

  /** The upstream's scheme, host and port. */
  get origin(): string {
    return this.url.origin;
  }

  /** The path to give the client: the upstream's, without its query. */
  get clientPath(): string {
    return this.url.pathname;
  }

  /**
   * Where a client request goes: its path and query on the upstream, with
   * each of the upstream URL's own query parameters the client did not send.
   */
  target(pathAndQuery: string): URL | string {
    // Without a query of its own to add, the upstream's origin and the
    // client's path are the target: no URL parsed and rebuilt per request.
    // (A path starting "//" would name another host: it goes through URL.)
    if (this.#plainOrigin !== undefined && pathAndQuery[0] === "/" && pathAndQuery[1] !== "/") {
      return this.#plainOrigin + pathAndQuery;
    }
    const target = new URL(pathAndQuery, this.url);
    for (const [key, value] of this.url.searchParams) {
      if (!target.searchParams.has(key)) target.searchParams.append(key, value);
    }
    return target;
  }

  /** `text` with every secret of the upstream URL replaced. */
  hide(text: string): string {
    let hidden = text;
    for (const secret of this.#secrets) hidden = hidden.split(secret).join(HIDDEN);
    return hidden;
  }

  /** An `endpoint` event naming the upstream's origin must name ours, or the client would bypass us. */
  rewriteEndpointBytes(bytes: Uint8Array, proxyOrigin: string): Uint8Array {
    const text = new TextDecoder().decode(bytes);
    if (!text.includes("event: endpoint") && !text.includes("event:endpoint")) return bytes;
    return new TextEncoder().encode(text.split(this.origin).join(proxyOrigin));
  }

  /** `WWW-Authenticate: Bearer resource_metadata="<upstream>/…"` must point at the proxy. */
  rewriteAuthHeaders(headers: Headers, proxyOrigin: string): void {
    const challenge = headers.get("www-authenticate");
    if (challenge && challenge.includes(this.origin)) {
      headers.set("www-authenticate", challenge.split(this.origin).join(proxyOrigin));
    }
    const location = headers.get("location");
    if (location && location.startsWith(this.origin)) {
      headers.set("location", proxyOrigin + location.slice(this.origin.length));
    }
  }

  /**
   * Protected-resource metadata names the resource the client connects to:
   * a client that checks it against its URL must see the proxy's origin.
   */
  rewriteMetadata(json: Json, path: string, proxyOrigin: string): boolean {
    if (!isObject(json) || !path.startsWith("/.well-known/oauth-protected-resource")) return false;
    const resource = json.resource;
    if (typeof resource !== "string" || !resource.startsWith(this.origin)) return false;
    json.resource = proxyOrigin + resource.slice(this.origin.length);
    return true;
  }
}
