/**
 * The bearer token a shared replay or recorder asks for (`--token`,
 * `MCP_CASSETTE_TOKEN`): checked before anything else, compared in
 * constant time, refused with 401 and a `WWW-Authenticate` challenge.
 *
 * @module
 */
import { ErrorCode } from "../jsonrpc/messages.ts";
import { errorReply } from "./body.ts";

/** The environment variable that sets the token when `--token` is not given. */
export const TOKEN_ENV = "MCP_CASSETTE_TOKEN";

/** The challenge of a 401: the scheme and the realm. */
export const TOKEN_CHALLENGE = 'Bearer realm="mcp-cassette"';

const encoder = new TextEncoder();

/**
 * True when both strings are equal. Every byte of the expected one is
 * compared whatever the other holds, so the time taken says nothing of
 * where they first differ.
 */
export function sameSecret(given: string, expected: string): boolean {
  const a = encoder.encode(given);
  const b = encoder.encode(expected);
  let differ = a.length ^ b.length;
  for (let i = 0; i < b.length; i++) differ |= (a[i] ?? 0) ^ b[i];
  return differ === 0;
}

/** True when an `Authorization` value carries `token` as a bearer token. */
export function bearerMatches(authorization: string | null, token: string): boolean {
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(authorization ?? "");
  return sameSecret(match ? match[1] : "", token);
}

/** The 401 for a request without the token (or with another). */
export function tokenRefusal(): Response {
  return errorReply({
    status: 401,
    code: ErrorCode.InvalidRequest,
    message: "Unauthorized: this server wants its bearer token (Authorization: Bearer …)",
    headers: { "www-authenticate": TOKEN_CHALLENGE },
  });
}
