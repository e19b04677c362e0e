/** Admission waits for a quiet intake, and never longer than the longest wait. */
import { jest } from '@jest/globals';
import { createDeliveryActivity } from '../../../src/intake/deliveries-first.js';

beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

/** Whether `promise` has settled once pending timers up to `ms` from now have run. */
async function settledAfter(promise: Promise<void>, ms: number): Promise<boolean> {
  let settled = false;
  void promise.then(() => (settled = true));
  await jest.advanceTimersByTimeAsync(ms);
  return settled;
}

const options = { quietMs: 5, maxWaitMs: 1000, now: () => Date.now() };

describe('deliveries first', () => {
  it('lets admission go at once when no delivery was seen', async () => {
    const activity = createDeliveryActivity(options);
    expect(await settledAfter(activity.quiet(), 0)).toBe(true);
  });

  it('holds admission while a delivery is answered, then for the quiet period after it', async () => {
    const activity = createDeliveryActivity(options);
    activity.begin();
    const waiting = activity.quiet();
    expect(await settledAfter(waiting, 500)).toBe(false);
    activity.end();
    expect(activity.inFlight()).toBe(0);
    expect(await settledAfter(waiting, 4)).toBe(false);
    expect(await settledAfter(waiting, 1)).toBe(true);
  });

  it('keeps holding while deliveries follow each other closer than the quiet period', async () => {
    const activity = createDeliveryActivity(options);
    activity.begin();
    const waiting = activity.quiet();
    let settled = false;
    void waiting.then(() => (settled = true));
    for (let i = 0; i < 50; i++) {
      await jest.advanceTimersByTimeAsync(1);
      activity.end();
      await jest.advanceTimersByTimeAsync(3);
      activity.begin();
    }
    activity.end();
    expect(settled).toBe(false); // 200 ms of back-to-back deliveries
    await jest.advanceTimersByTimeAsync(5);
    expect(settled).toBe(true);
  });

  it('never holds admission longer than the longest wait, however busy intake is', async () => {
    const activity = createDeliveryActivity(options);
    activity.begin(); // never answered
    const waiting = activity.quiet();
    expect(await settledAfter(waiting, 999)).toBe(false);
    expect(await settledAfter(waiting, 1)).toBe(true);
  });

  it('lets every waiter go on release (shutdown)', async () => {
    const activity = createDeliveryActivity(options);
    activity.begin();
    const waiters = [activity.quiet(), activity.quiet(), activity.quiet()];
    activity.release();
    expect(
      await settledAfter(
        Promise.all(waiters).then(() => undefined),
        0,
      ),
    ).toBe(true);
    expect(jest.getTimerCount()).toBe(0);
  });
});
