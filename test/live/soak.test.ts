/**
 * The soak profile's scheduling, on fake timers (no 21-minute test): real-time waits act exactly when due, both code
 * lifetimes run side by side from the start of the run, a step that can only run too late ends errored rather than
 * judging, and waits beyond the soak window are skipped saying so.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Precondition, SkipRule } from '../../src/errors.js';
import type { RuleContext } from '../../src/model/context.js';
import type { Rule } from '../../src/model/rule.js';
import type { TargetConfig } from '../../src/model/target.js';
import { inRuleOrder, runOrder } from '../../src/runner/select.js';
import { afterElapsed, inRealTime } from '../../src/steps/live-clock.js';
import { withNeeds } from '../../src/needs/dispatch.js';
import { SOAK_WINDOW_SECONDS } from '../../src/needs/plan.js';

const MIN = 60_000;

const target = (o: { control?: boolean; soak?: boolean }): TargetConfig => ({
  kind: 'remote', baseUrl: 'https://a.example', authUrl: 'https://a.example', chatUrl: 'https://a.example',
  credentials: { clientId: 'c', clientSecret: 's', redirectUri: 'https://i.example/cb' },
  capabilities: o.control ? ['control'] : [],
  ...(o.soak ? { soakWindowSeconds: SOAK_WINDOW_SECONDS } : {}),
});

const rule = (id: string, extra: Partial<Rule> = {}): Rule =>
  ({ id, section: '2.2', level: 'must', requires: [], title: id, kind: 'exchange', run: async () => { throw new Error('not run'); }, ...extra });

describe('real-time waits on fake timers', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2026-01-01T00:00:00Z'));
  });
  afterEach(() => vi.useRealTimers());

  it('runs the 19- and 21-minute exchanges side by side, each exactly when due', async () => {
    const start = Date.now();
    const acted: Record<string, number> = {};
    const valid = inRealTime({ seconds: 19 * 60, sinceMs: start, beforeSeconds: 20 * 60 }, async () => { acted.valid = Date.now() - start; return 'valid'; });
    const expired = inRealTime({ seconds: 21 * 60, sinceMs: start }, async () => { acted.expired = Date.now() - start; return 'expired'; });
    await vi.advanceTimersByTimeAsync(19 * MIN - 1);
    expect(acted).toEqual({});
    await vi.advanceTimersByTimeAsync(1);
    expect(acted).toEqual({ valid: 19 * MIN });
    await vi.advanceTimersByTimeAsync(2 * MIN);
    expect(acted).toEqual({ valid: 19 * MIN, expired: 21 * MIN });
    expect(await Promise.all([valid, expired])).toEqual(['valid', 'expired']);
  });

  it('counts from when the credential was issued, not from when the wait began', async () => {
    const issued = Date.now();
    await vi.advanceTimersByTimeAsync(5 * MIN);
    let at = 0;
    const done = inRealTime({ seconds: 19 * 60, sinceMs: issued }, async () => { at = Date.now() - issued; });
    await vi.advanceTimersByTimeAsync(14 * MIN);
    await done;
    expect(at).toBe(19 * MIN);
  });

  it('ends errored, not with a verdict, when the step can only run after the moment it is about', async () => {
    const issued = Date.now();
    await vi.advanceTimersByTimeAsync(20 * MIN + 30_000); // the run was stuck (rate limit, a suspended machine)
    let acted = false;
    const late = inRealTime({ seconds: 19 * 60, sinceMs: issued, beforeSeconds: 20 * 60 }, async () => { acted = true; });
    await expect(late).rejects.toThrow(Precondition);
    await expect(late).rejects.toThrow(/due 19:00 after issue but could only run at 20:30, after 20:00/);
    expect(acted).toBe(false);
  });

  it('checks the deadline on the clock when the sleep overshoots (a machine that slept)', async () => {
    const issued = Date.now();
    let now = issued;
    // The first minute of sleep lasts 25 (the machine was suspended).
    const timers = { now: () => now, sleep: async (ms: number) => { now += now === issued ? 25 * MIN : ms; } };
    await expect(inRealTime({ seconds: 19 * 60, sinceMs: issued, beforeSeconds: 20 * 60, timers }, async () => 'acted')).rejects.toThrow(Precondition);
  });
});

describe('afterElapsed', () => {
  it('moves the control API clock when the target has one, and puts it back', async () => {
    const calls: string[] = [];
    const t = withNeeds({
      target: target({ control: true }),
      control: {
        advanceClock: async (s: number) => { calls.push(`advance ${s}`); return 0; },
        call: async (_m: string, path: string) => { calls.push(path); },
      },
    } as unknown as RuleContext);
    expect(await afterElapsed(t, { seconds: 1260 }, async () => { calls.push('act'); return 1; })).toBe(1);
    expect(calls).toEqual(['advance 1260', 'act', '/clock/reset']);
  });

  it('skips without a control API outside --profile soak, and beyond the soak window inside it', async () => {
    const plain = withNeeds({ target: target({}) } as unknown as RuleContext);
    await expect(afterElapsed(plain, { seconds: 1260 }, async () => 1)).rejects.toThrow(/needs clock \(1260 s must pass\): run with --profile soak/);
    const soak = withNeeds({ target: target({ soak: true }) } as unknown as RuleContext);
    const err = await afterElapsed(soak, { seconds: 86_460 }, async () => 1).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SkipRule);
    expect((err as SkipRule).reason).toMatch(/it waits up to 24 hours in real time/);
  });
});

describe('run order under --profile soak', () => {
  const rules = [
    rule('a.first'),
    rule('b.code-valid', { needs: ['fresh-code', 'clock'], soakSeconds: 19 * 60, exclusive: true }),
    rule('c.middle'),
    rule('d.code-expired', { needs: ['fresh-code', 'clock'], soakSeconds: 21 * 60, exclusive: true }),
    rule('e.refresh-expired', { needs: ['clock'], exclusive: true }),
  ];

  it('starts the real-time rules first and alongside the others (not exclusive), and keeps the rest in order', () => {
    const ordered = runOrder(rules, target({ soak: true }));
    expect(ordered.map((r) => r.id)).toEqual(['b.code-valid', 'd.code-expired', 'a.first', 'c.middle', 'e.refresh-expired']);
    expect(ordered.slice(0, 2).every((r) => r.exclusive === false)).toBe(true);
    expect(ordered.at(-1)!.exclusive).toBe(true); // no real-time path: still a clock mover under a control API
  });

  it('changes nothing without soak or with a control API (its clock moves instead)', () => {
    expect(runOrder(rules, target({}))).toEqual(rules);
    expect(runOrder(rules, target({ control: true, soak: true }))).toEqual(rules);
  });

  it('puts results back in rule order', () => {
    const results = runOrder(rules, target({ soak: true })).map((r) => ({ id: r.id }));
    expect(inRuleOrder(results, rules).map((r) => r.id)).toEqual(rules.map((r) => r.id));
  });
});
