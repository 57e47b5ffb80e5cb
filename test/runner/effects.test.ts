/**
 * The effect poll (src/runner/effects.ts): the window ends with a probe sent at or after its end, so a probe slower
 * than the whole window (a loaded machine) is followed by one more, and an effect due within the window is seen.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { poll } from '../../src/runner/effects.js';

describe('poll', () => {
  it('probes once more after a probe that was sent inside the window and answered past it', async () => {
    let calls = 0;
    // The first probe takes longer than the window; the effect has come by the second.
    const probe = async () => {
      calls += 1;
      if (calls === 1) await sleep(60);
      return calls >= 2;
    };
    const seen = await poll(probe, (v) => v, 20);
    expect(seen.seen).toBe(true);
    expect(seen.polls).toBe(2);
  });

  it('with no window, probes once', async () => {
    let calls = 0;
    const seen = await poll(async () => { calls += 1; return false; }, (v) => v, 0);
    expect([seen.seen, calls]).toEqual([false, 1]);
  });

  it('returns at once when the effect shows', async () => {
    const seen = await poll(async () => 3, (v) => v === 3, 10_000);
    expect([seen.seen, seen.value, seen.polls]).toEqual([true, 3, 1]);
  });
});
