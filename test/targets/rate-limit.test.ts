import { describe, expect, it } from 'vitest';
import { retryDelayMs } from '../../src/model/retry-after.js';
import { RateLimiter } from '../../src/targets/rate-limit.js';

/**
 * A fake clock: sleeping advances it, so the test measures the limiter's schedule, not the machine. A sleeper
 * first lets the work already under way finish, as time would.
 */
function fakeClock() {
  let now = 0;
  return {
    now: () => now,
    sleep: async (ms: number) => {
      await new Promise((resolve) => setImmediate(resolve));
      now += ms;
    },
  };
}

function maxInWindow(times: number[], windowMs: number): number {
  let best = 0;
  for (let i = 0, lo = 0; i < times.length; i += 1) {
    while (times[i]! - times[lo]! >= windowMs) lo += 1;
    best = Math.max(best, i - lo + 1);
  }
  return best;
}

describe('RateLimiter', () => {
  it('never lets more than rps requests into any window of one second', async () => {
    const clock = fakeClock();
    const limiter = new RateLimiter({ rps: 5, ...clock });
    const times: number[] = [];
    await Promise.all(Array.from({ length: 60 }, async () => {
      await limiter.hold(async () => { times.push(clock.now()); });
    }));
    expect(times).toHaveLength(60);
    expect(maxInWindow(times, 1000)).toBeLessThanOrEqual(5);
    // and it is not needlessly slow: 60 requests at 5/s take about 11–12 windows
    expect(times.at(-1)!).toBeLessThan(12 * 1050 + 1);
  });

  it('handles fractional rates as one request per period', async () => {
    const clock = fakeClock();
    const limiter = new RateLimiter({ rps: 0.5, marginMs: 0, ...clock });
    const times: number[] = [];
    for (let i = 0; i < 3; i += 1) {
      await limiter.hold(async () => { times.push(clock.now()); });
    }
    expect(times).toEqual([0, 2000, 4000]);
  });

  it('counts a request from its answer, so a late departure cannot crowd a window', async () => {
    const clock = fakeClock();
    const limiter = new RateLimiter({ rps: 5, ...clock });
    const arrivals: number[] = [];
    // Half the requests arrive at once, half anywhere up to 400 ms after their slot, interleaved.
    await Promise.all(Array.from({ length: 40 }, async (_, i) => {
      await limiter.hold(async () => {
        const started = clock.now();
        if (i % 2) await clock.sleep(((i * 37) % 5) * 100);
        arrivals.push(Math.max(started, clock.now()));
      });
    }));
    arrivals.sort((a, b) => a - b);
    expect(arrivals).toHaveLength(40);
    expect(maxInWindow(arrivals, 1000)).toBeLessThanOrEqual(5);
  });

  it('serves waiting requests by priority (the order their rules started in), then by arrival', async () => {
    const clock = fakeClock();
    const limiter = new RateLimiter({ rps: 1, marginMs: 0, ...clock });
    const served: string[] = [];
    // The first takes the only slot; the others queue behind it in this order.
    const first = limiter.hold(async () => { served.push('first'); }, 9);
    const queued = [['late rule', 7], ['early rule', 2], ['early rule, again', 2], ['middle rule', 4]] as const;
    await Promise.all([first, ...queued.map(([name, priority]) => limiter.hold(async () => { served.push(name); }, priority))]);
    expect(served).toEqual(['first', 'early rule', 'early rule, again', 'middle rule', 'late rule']);
  });

  it('refuses a non-positive rate', () => {
    expect(() => new RateLimiter({ rps: 0 })).toThrow(RangeError);
  });
});

describe('retryDelayMs', () => {
  it('honours Retry-After in seconds and as a date, capped, else backs off exponentially', () => {
    expect(retryDelayMs('2', 0)).toBe(2000);
    expect(retryDelayMs('3600', 0)).toBe(30_000);
    expect(retryDelayMs(new Date(Date.now() + 5000).toUTCString(), 0)).toBeGreaterThan(3000);
    expect(retryDelayMs(undefined, 0)).toBe(1000);
    expect(retryDelayMs(undefined, 2)).toBe(4000);
    expect(retryDelayMs('soon', 1)).toBe(2000);
  });
});
