/**
 * How a run without a control API arranges and sizes its rules: the rules that share the settings' second channel run
 * one at a time, and a property rule whose cases mint codes on the access-granting page runs a few cases only.
 */
import { describe, expect, it } from 'vitest';
import type { Rule } from '../../src/model/rule.js';
import type { TargetConfig } from '../../src/model/target.js';
import { runOrder } from '../../src/runner/select.js';
import { PAGE_CODE_RUNS, SupplyPlan } from '../../src/needs/plan.js';

const target = (o: { control?: boolean; channel2?: boolean; admin?: boolean }): TargetConfig => ({
  kind: 'remote', baseUrl: 'https://a.example', authUrl: 'https://a.example', chatUrl: 'https://a.example',
  credentials: {
    clientId: 'c', clientSecret: 's', redirectUri: 'https://i.example/cb',
    ...(o.channel2 ? { channelId2: 'ch2', channelSecret2: 'secret-2' } : {}),
    ...(o.admin ? { adminLogin: 'admin@a.example', adminPassword: 'pw-pw-pw-pw' } : {}),
  },
  settings: o.channel2 ? { CHANNEL_ID_2: 'ch2', CHANNEL_SECRET_2: 'secret-2' } : {},
  capabilities: [...(o.control ? ['control' as const] : []), ...(o.admin ? ['browser' as const] : [])],
});

const rule = (id: string, extra: Partial<Rule> = {}): Rule =>
  ({ id, section: '3.2', level: 'must', requires: [], title: id, kind: 'exchange', run: async () => { throw new Error('not run'); }, ...extra });

describe('the settings\' second channel', () => {
  const rules = [rule('a.plain'), rule('b.spare', { needs: ['second-channel'] }), rule('c.spare', { needs: ['second-channel'], exclusive: true })];

  it('runs every rule on CHANNEL_ID_2 alone (one channel shared by them all)', () => {
    const ordered = runOrder(rules, target({ channel2: true }));
    expect(ordered.map((r) => [r.id, r.exclusive ?? false])).toEqual([['a.plain', false], ['b.spare', true], ['c.spare', true]]);
  });

  it('leaves them side by side when a control API gives each rule its own channel, or when they are skipped anyway', () => {
    expect(runOrder(rules, target({ control: true, channel2: true }))).toEqual(rules);
    expect(runOrder(rules, target({}))).toEqual(rules);
  });
});

describe('cases of a property rule', () => {
  const minting = rule('p.code', { needs: ['fresh-code'] });

  it(`runs at most ${PAGE_CODE_RUNS} cases when each mints its code on the page`, () => {
    expect(new SupplyPlan(target({ admin: true })).propertyRuns(minting, 100)).toBe(PAGE_CODE_RUNS);
    expect(new SupplyPlan(target({ admin: true })).propertyRuns(minting, 3)).toBe(3);
    // Consent per case (the state round trip: one grant in Chromium per case) is as costly as a code.
    expect(new SupplyPlan(target({ admin: true })).propertyRuns(rule('p.consent', { needs: ['consent'] }), 100)).toBe(PAGE_CODE_RUNS);
  });

  it('runs the profile\'s count with a control API, or when the rule mints no code', () => {
    expect(new SupplyPlan(target({ control: true })).propertyRuns(minting, 100)).toBe(100);
    expect(new SupplyPlan(target({ admin: true })).propertyRuns(rule('p.plain'), 100)).toBe(100);
    expect(new SupplyPlan(target({ control: true })).propertyRuns(rule('p.consent', { needs: ['consent'] }), 100)).toBe(100);
  });
});
