/**
 * The body deadline a handler keeps itself (src/runtime/request_deadline.ts,
 * used by the HTTP replay): reads under way share one timer, so a read that
 * ends in time must neither cut nor disarm the others, and each late read is
 * cut once, not before its own due time.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { handlerDeadline, holdDeadlines } from "../../src/runtime/request_deadline.ts";

const never = new Promise<string>(() => {});
/** `read`, or "not cut" after 5 s: only keeps a broken deadline from hanging the test. */
function bounded<T>(read: Promise<T>): Promise<T | "not cut"> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const guard = new Promise<"not cut">((resolve) => (timer = setTimeout(resolve, 5000, "not cut")));
  return Promise.race([read, guard]).finally(() => clearTimeout(timer));
}

test("body deadline: a read in time is answered, a late one is cut once at its due time", async () => {
  const cuts: string[] = [];
  const started = performance.now();
  const late = handlerDeadline(300, () => cuts.push("late"))!;
  const soon = handlerDeadline(100, () => cuts.push("soon"))!;
  const quick = handlerDeadline(50, () => cuts.push("quick"))!;
  const lateRead = late.within(never);
  const soonRead = soon.within(never);
  // Ends at once: leaves the set while the other two still wait.
  assert.equal(await quick.within(Promise.resolve("body")), "body");
  assert.equal(await bounded(soonRead), undefined, "the 100 ms read is cut");
  assert.equal(await bounded(lateRead), undefined, "the 300 ms read is cut after the other");
  const elapsed = performance.now() - started;
  assert.ok(elapsed >= 290, `the late read was cut after ${elapsed.toFixed(0)} ms, before its due`);
  assert.deepEqual(cuts, ["soon", "late"]);
});

test("body deadline: a read that fails in time passes its error on and is not cut", async () => {
  let cut = false;
  const deadline = handlerDeadline(1000, () => (cut = true))!;
  await assert.rejects(deadline.within(Promise.reject(new Error("gone"))), /gone/);
  assert.equal(cut, false);
  assert.equal(handlerDeadline(0, () => {}), undefined, "no deadline asked, none kept");
});

test("body deadline: while a server holds the watch, a read after an emptied one is still cut at its due time", async () => {
  const release = holdDeadlines();
  try {
    const cuts: string[] = [];
    // Ends at once: the watch empties, and its timer (due in 50 ms) is left set.
    const quick = handlerDeadline(50, () => cuts.push("quick"))!;
    assert.equal(await quick.within(Promise.resolve("body")), "body");
    const started = performance.now();
    const late = handlerDeadline(150, () => cuts.push("late"))!;
    assert.equal(await bounded(late.within(never)), undefined, "the 150 ms read is cut");
    const elapsed = performance.now() - started;
    assert.ok(
      elapsed >= 140,
      `the late read was cut after ${elapsed.toFixed(0)} ms, before its due`,
    );
    assert.deepEqual(cuts, ["late"]);
  } finally {
    release();
  }
});
