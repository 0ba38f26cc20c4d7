import assert from "node:assert/strict";
import { MAX_TIMER_STEP_MS, type Scheduler, startTimer } from "../../src/core/timer.ts";
import { delay, settlesWithin } from "../../src/core/timing.ts";

/** A scheduler whose timers fire only when the test says so. */
function fakeScheduler() {
  const pending = new Map<number, { callback: () => void; ms: number }>();
  const asked: number[] = [];
  let next = 1;
  const scheduler: Scheduler = {
    setTimeout(callback, ms) {
      asked.push(ms);
      pending.set(next, { callback, ms });
      return next++;
    },
    clearTimeout(handle) {
      pending.delete(handle as number);
    },
  };
  /** Fires the one pending timer. */
  const fire = () => {
    assert.equal(pending.size, 1, "exactly one timer is pending");
    const [[handle, timer]] = [...pending];
    pending.delete(handle);
    timer.callback();
  };
  return { scheduler, asked, pending, fire };
}

Deno.test("startTimer chains delays longer than setTimeout allows", () => {
  const { scheduler, asked, fire } = fakeScheduler();
  let fired = 0;
  startTimer(3_000_000_000 * 2, () => fired++, scheduler);
  const steps = [MAX_TIMER_STEP_MS, MAX_TIMER_STEP_MS, 6_000_000_000 - 2 * MAX_TIMER_STEP_MS];
  for (let i = 0; i < steps.length; i++) {
    assert.equal(fired, 0, `not fired before step ${i + 1}`);
    assert.ok(asked.every((ms) => ms <= MAX_TIMER_STEP_MS), "no step overflows setTimeout");
    fire();
  }
  assert.deepEqual(asked, steps);
  assert.equal(fired, 1);
});

Deno.test("startTimer asks setTimeout once for delays it honours, and clamps negatives to 0", () => {
  const { scheduler, asked, fire } = fakeScheduler();
  let fired = 0;
  startTimer(MAX_TIMER_STEP_MS, () => fired++, scheduler);
  fire();
  startTimer(-5, () => fired++, scheduler);
  fire();
  assert.deepEqual(asked, [MAX_TIMER_STEP_MS, 0]);
  assert.equal(fired, 2);
});

Deno.test("a cancelled long timer never fires and leaves nothing pending", () => {
  const { scheduler, pending, fire } = fakeScheduler();
  let fired = 0;
  const cancel = startTimer(5_000_000_000, () => fired++, scheduler);
  fire();
  cancel();
  assert.equal(pending.size, 0);
  assert.equal(fired, 0);
});

Deno.test("delay and settlesWithin with a huge budget end through their promise or signal", async () => {
  const stop = new AbortController();
  const waiting = delay(3_000_000_000, stop.signal);
  stop.abort();
  await waiting;
  assert.equal(await settlesWithin(Promise.resolve(), 3_000_000_000), true);
});
