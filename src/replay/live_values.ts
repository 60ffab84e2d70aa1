/**
 * An answer that echoes a redacted value of its own request gets the live
 * value back. A keyed placeholder (`[REDACTED:email:3f9a…]`) names one value:
 * where the recorded answer holds the placeholder that the live request's
 * value became, the server had said that value, so the client gets the live
 * one. A placeholder with no counterpart in the live request stays as it is.
 * The cassette still holds no secret: the value comes from the live request.
 *
 * @module
 */
import type { JsonRpcMessage } from "../jsonrpc/messages.ts";
import type { Ready } from "./wire.ts";

/** `ready` with each placeholder in `values` replaced by its live value. */
export function withLiveValues(ready: Ready, values?: ReadonlyMap<string, string>): Ready {
  if (!values) return ready;
  let text = ready.text ?? JSON.stringify(ready.message);
  let changed = false;
  for (const [placeholder, value] of values) {
    if (!text.includes(placeholder)) continue;
    // The placeholder sits inside a JSON string: the value goes in escaped as one.
    text = text.split(placeholder).join(JSON.stringify(value).slice(1, -1));
    changed = true;
  }
  return changed ? { message: JSON.parse(text) as JsonRpcMessage, text } : ready;
}
