/**
 * A copy-on-write rewrite of a JSON tree without recursion, and the paths
 * it visits. A frame thousands of levels deep (a server can send one) would
 * overflow the call stack of a recursive walk; this one keeps its own stack,
 * so the depth costs memory only.
 *
 * @module
 */
import type { Json, JsonObject } from "../jsonrpc/messages.ts";

/** Where a value sits: a linked path, built only as deep as the walk goes. */
export interface PathNode {
  readonly parent: PathNode | undefined;
  readonly step: string;
  /** Steps from the root (the root itself has no node: depth 0). */
  readonly depth: number;
}

/** The path one step below `parent` (`undefined` is the root). */
export function childPath(parent: PathNode | undefined, step: string): PathNode {
  return { parent, step, depth: (parent?.depth ?? 0) + 1 };
}

/** The steps of a path, root first. */
export function pathSteps(node: PathNode | undefined): string[] {
  const steps: string[] = [];
  for (let at = node; at; at = at.parent) steps.push(at.step);
  return steps.reverse();
}

/**
 * What to do with one value: replace it now, or visit its members (an
 * array's items or an object's properties) with `member`, in order.
 */
export type Visit =
  | { value: Json }
  | { members: Json[] | JsonObject; member: (key: string, child: Json) => Visit };

interface Frame {
  members: Json[] | JsonObject;
  member: (key: string, child: Json) => Visit;
  keys: string[];
  next: number;
  /** The copy, made on the first member that changed. */
  out: Json[] | JsonObject | undefined;
}

function frameOf(visit: { members: Json[] | JsonObject; member: Frame["member"] }): Frame {
  const keys = Array.isArray(visit.members)
    ? visit.members.map((_, index) => String(index))
    : Object.keys(visit.members);
  return { members: visit.members, member: visit.member, keys, next: 0, out: undefined };
}

function store(frame: Frame, key: string, before: Json, after: Json): void {
  if (after === before) return;
  const members = frame.members;
  frame.out ??= Array.isArray(members) ? members.slice() : { ...members };
  (frame.out as Record<string, Json>)[key] = after;
}

/**
 * Applies `visit` depth first: members in order, each replaced by what its
 * visit gives. Returns the same object when nothing changed, and copies only
 * the containers on the way to a change.
 */
export function rewrite(visit: Visit): Json {
  if ("value" in visit) return visit.value;
  const stack: Frame[] = [frameOf(visit)];
  for (;;) {
    const top = stack[stack.length - 1];
    if (top.next < top.keys.length) {
      const key = top.keys[top.next++];
      const child = (top.members as Record<string, Json>)[key];
      const inner = top.member(key, child);
      if ("value" in inner) store(top, key, child, inner.value);
      else stack.push(frameOf(inner));
      continue;
    }
    stack.pop();
    const result = top.out ?? top.members;
    const parent = stack[stack.length - 1];
    if (!parent) return result;
    const key = parent.keys[parent.next - 1];
    store(parent, key, (parent.members as Record<string, Json>)[key], result);
  }
}
