/**
 * The live paths end to end, with a tiny rule set of this test's own run by the real runner against the standalone
 * emulator with CONTROL_URL removed (as a staging account offers it): fresh codes and consent from the
 * access-granting page driven in Chromium with ADMIN_LOGIN, the one AUTH_CODE, a bearer for the account API, and the
 * needs that cannot be met skipped before the rule runs, each with the setting or step that would let it run.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumGap } from '../../src/browser/launch.js';
import { emulatorSettings } from '../../src/needs/emulator-settings.js';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { exchangeRule, rule } from '../../src/model/define.js';
import { fail, pass } from '../../src/model/outcome.js';
import type { Report, RuleResult } from '../../src/model/result.js';
import { defineSpec, type Rule, type RuleDraft } from '../../src/model/rule.js';
import { accountRequest, codeGrant } from '../../src/protocol/oauth.js';
import { executeRun } from '../../src/runner/execute.js';
import { apiToken } from '../../src/steps/api-token.js';
import { consentRedirect, deactivate } from '../../src/steps/lifecycle.js';
import { configuredChannelName, secondAccountId, spareChannel, v1OnlyChannel } from '../../src/steps/live-chat.js';
import { asClient, codeFor, otherIntegration } from '../../src/steps/integrations.js';
import { freshCode, pageAccounts } from '../../src/steps/live-code.js';
import { afterElapsed } from '../../src/steps/live-clock.js';
import { exchange, exchangeFreshCode } from '../../src/steps/oauth.js';
import { SECRET_KEYS } from '../../src/needs/settings.js';
import { targetFromEnv } from '../../src/targets/from-env.js';
import { planSupply } from '../../src/needs/plan.js';
import { status } from '../../src/checks/status.js';

const TINY: readonly RuleDraft[] = [
  exchangeRule({ id: 'live.code.exchange', requires: [], needs: ['fresh-code'], title: 'a code from the page is exchanged' }, {
    send: (t) => exchangeFreshCode(t),
    expect: [status(200)],
  }),
  rule({ id: 'live.consent.deny', requires: [], needs: ['consent'], title: 'Deny on the page redirects with the state and no code' }, async (t) => {
    const { params } = await consentRedirect(t, { decision: 'deny', state: 'a&b c' });
    return t.outcome([
      params.get('error') === 'access_denied' ? pass('error') : fail('error', `expected access_denied, observed ${params.get('error')}`),
      params.get('state') === 'a&b c' ? pass('state') : fail('state', `expected the state back, observed ${params.get('state')}`),
      params.has('code') ? fail('no code', 'a code came with Deny') : pass('no code'),
    ]);
  }),
  rule({ id: 'live.consent.accounts', requires: [], needs: ['consent'], title: 'the page offers accounts; Allow in the second one gives a code' }, async (t) => {
    const offered = await pageAccounts(t);
    const { params } = await consentRedirect(t, { accountId: offered.at(-1)!.id });
    return t.outcome([
      offered.length >= 1 ? pass('accounts', offered.map((a) => a.label).join('; ')) : fail('accounts', 'none offered'),
      params.get('code') ? pass('code') : fail('code', `no code (${params.toString()})`),
    ]);
  }),
  exchangeRule({ id: 'live.api.bearer', requires: [], needs: ['access-token'], title: 'a bearer for the account API' }, {
    send: async (t) => t.send(accountRequest(t.target, await apiToken(t))),
    expect: [status(200)],
  }),
  exchangeRule({ id: 'live.code.once', requires: [], needs: ['one-code'], title: 'one code, exchanged once' }, {
    send: async (t) => exchange(t, codeGrant(t.target, await freshCode(t))),
    expect: [status(200)],
  }),
  exchangeRule({ id: 'live.operator.deactivate', requires: [], needs: ['fresh-code', 'operator'], title: 'an administrator deactivates' }, {
    send: async (t) => {
      await deactivate(t, 1);
      return t.send(accountRequest(t.target, 'x'));
    },
    expect: [status(401)],
  }),
  exchangeRule({ id: 'live.clock.code', requires: [], needs: ['fresh-code', 'clock'], soakSeconds: 21 * 60, title: 'a code 21 minutes old' }, {
    send: async (t) => {
      const code = await freshCode(t);
      return afterElapsed(t, { seconds: 21 * 60 }, () => exchange(t, codeGrant(t.target, code)));
    },
    expect: [status(400)],
  }),
  rule({ id: 'live.chat.spare', requires: ['write'], needs: ['second-channel', 'second-account'], title: 'a spare channel connects, disconnects and connects again in a second account' }, async (t) => {
    const s = await spareChannel(t);
    const other = await secondAccountId(t, s.channel.accountId);
    const findings = [
      ...t.check(await s.connect(), [status(200)]),
      ...t.check(await s.disconnect(), [status(200)]),
      ...t.check(await s.connect({}, {}, other), [status(200)]),
    ];
    return t.outcome([...findings, other !== s.channel.accountId ? pass('two accounts') : fail('two accounts', 'the same account')]);
  }),
  exchangeRule({ id: 'live.second-integration', requires: [], needs: ['second-integration', 'fresh-code'], title: 'a code from the second integration\'s page, exchanged by it' }, {
    send: async (t) => {
      const other = await otherIntegration(t);
      return exchange(t, codeGrant(asClient(t, other), await codeFor(t, other)));
    },
    expect: [status(200)],
  }),
  rule({ id: 'live.chat.v1-only', requires: ['write'], needs: ['v1-only-channel', 'channel-name'], title: 'the v1-only channel connects with v1, and the configured channel is named' }, async (t) => {
    const s = await v1OnlyChannel(t);
    const name = await configuredChannelName(t);
    return t.outcome([...t.check(await s.connect({ hook_api_version: 'v1' }), [status(200)]), name ? pass('name', name) : fail('name', 'empty')]);
  }),
  exchangeRule({ id: 'live.truth', requires: ['control'], needs: ['ground-truth'], title: 'ground truth' }, {
    send: async (t) => t.send(accountRequest(t.target, 'x')),
    expect: [status(401)],
  }),
];

const RULES: readonly Rule[] = defineSpec({ section: '9', title: 'live paths (test only)', level: 'must', rules: TINY }).rules;

const byId = (report: Report) => new Map<string, RuleResult>(report.results.map((r) => [r.id, r]));

describe.skipIf(chromiumGap() !== undefined)('live fixtures against the standalone emulator without CONTROL_URL', () => {
  let emulator: RunningEmulator;
  let settings: Record<string, string>;

  beforeAll(async () => {
    emulator = await startEmulator();
    settings = await emulatorSettings(emulator);
  });
  afterAll(() => emulator?.close());

  async function run(env: Record<string, string | undefined>, options: { interactive?: boolean } = {}): Promise<Report> {
    const target = planSupply(targetFromEnv(env, 'remote'), { interactive: options.interactive ?? false, soak: false, rules: RULES, selected: () => true }).target;
    return executeRun({ target, rules: RULES, seed: 1, runs: 2 });
  }

  it('gives the administrator login and a long-lived token among the settings', () => {
    expect(settings.ADMIN_LOGIN).toBeTruthy();
    expect(settings.ADMIN_PASSWORD!.length).toBeGreaterThanOrEqual(8);
    expect(settings.LONG_LIVED_TOKEN).toBeTruthy();
    expect(settings.CHANNEL_ID_2).not.toBe(settings.CHANNEL_ID);
    expect(settings.CHAT_ACCOUNT_ID_2).not.toBe(settings.CHAT_ACCOUNT_ID);
  });

  it('gives a second integration, the channel\'s name, a v1-only channel, a non-ASCII lead and foreign record ids, each valid', () => {
    expect(settings.CLIENT_ID_2).not.toBe(settings.CLIENT_ID);
    expect(settings.CHANNEL_NAME).toBeTruthy();
    expect(settings.V1_CHANNEL_ID).not.toBe(settings.CHANNEL_ID_2);
    const { CONTROL_URL: _c, ...env } = settings;
    const c = targetFromEnv(env, 'remote').credentials;
    expect(c.secondClient?.clientSecret).toBe(settings.CLIENT_SECRET_2);
    expect(c.nonAsciiLead?.name).toMatch(/[^\u0000-\u007f]/);
    expect(Object.values(c.otherAccountRecordIds ?? {}).flat().length).toBeGreaterThan(0);
  });

  it('counts every secret it prints among the keys masked on a terminal', () => {
    const issued = new Set(emulator.issuedSecrets());
    const printedSecrets = Object.entries(settings).filter(([, value]) => issued.has(value)).map(([key]) => key);
    expect(printedSecrets).toEqual(expect.arrayContaining(['CLIENT_SECRET_2', 'V1_CHANNEL_SECRET']));
    expect(printedSecrets.filter((key) => !SECRET_KEYS.includes(key))).toEqual([]);
  });

  it('runs codes, consent and the bearer from the page, and skips the rest before running, naming what would let each run', async () => {
    const { CONTROL_URL: _dropped, LONG_LIVED_TOKEN: _token, ...env } = settings;
    const results = byId(await run(env));
    for (const id of ['live.code.exchange', 'live.consent.deny', 'live.consent.accounts', 'live.api.bearer', 'live.code.once', 'live.chat.spare', 'live.second-integration', 'live.chat.v1-only']) {
      expect(results.get(id)?.status, `${id}: ${results.get(id)?.detail}`).toBe('passed');
    }
    const skipped = (id: string) => {
      const r = results.get(id)!;
      expect(r.status).toBe('skipped');
      expect(r.request_count).toBe(0);
      return r.detail;
    };
    expect(skipped('live.operator.deactivate')).toMatch(/^needs operator: .*run the kit on a terminal.*CONTROL_URL/);
    expect(skipped('live.clock.code')).toMatch(/^needs clock: run with --profile soak \(it waits up to 21 minutes in real time\)/);
    expect(skipped('live.truth')).toMatch(/^needs ground-truth: set CONTROL_URL/);
  });

  it('keeps the one AUTH_CODE for one rule when nothing else mints codes', async () => {
    const { CONTROL_URL: _c, ADMIN_LOGIN: _l, ADMIN_PASSWORD: _p, LONG_LIVED_TOKEN: _t, CHANNEL_ID_2: _i, CHANNEL_SECRET_2: _s, ...env } = settings;
    const code = (await (await fetch(`${settings.CONTROL_URL}/consent`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ client_id: settings.CLIENT_ID, decision: 'allow' }),
    })).json() as { code: string }).code;
    const results = byId(await run({ ...env, AUTH_CODE: code }));
    expect(results.get('live.code.once')?.status, results.get('live.code.once')?.detail).toBe('passed');
    expect(results.get('live.code.exchange')?.detail).toBe('needs fresh-code: set ADMIN_LOGIN and ADMIN_PASSWORD (the grant page is driven in Chromium) or CONTROL_URL (a control API)');
    expect(results.get('live.api.bearer')?.detail).toMatch(/^needs access-token: set LONG_LIVED_TOKEN, or run `conformance authorize`/);
    expect(results.get('live.chat.spare')?.detail).toMatch(/^needs second-channel: set CHANNEL_ID_2 and CHANNEL_SECRET_2/);
  });

  it('skips the second integration\'s rule without CLIENT_ID_2, naming the three keys', async () => {
    const { CONTROL_URL: _c, CLIENT_ID_2: _i, CLIENT_SECRET_2: _s, REDIRECT_URI_2: _r, V1_CHANNEL_ID: _v, V1_CHANNEL_SECRET: _vs, ...env } = settings;
    const results = byId(await run(env));
    expect(results.get('live.second-integration')?.detail).toMatch(/^needs second-integration: set CLIENT_ID_2, CLIENT_SECRET_2 and REDIRECT_URI_2/);
    expect(results.get('live.chat.v1-only')?.detail).toMatch(/^needs v1-only-channel: set V1_CHANNEL_ID and V1_CHANNEL_SECRET/);
  });

  it('masks the administrator password and every code in the report', async () => {
    const { CONTROL_URL: _dropped, ...env } = settings;
    const report = await run(env);
    const text = JSON.stringify(report);
    expect(text).not.toContain(settings.ADMIN_PASSWORD);
    expect(text).not.toContain(settings.CHANNEL_SECRET_2);
    expect(text).not.toContain(settings.CLIENT_SECRET_2);
    expect(text).not.toContain(settings.V1_CHANNEL_SECRET);
    const leaked = emulator.issuedSecrets().filter((s) => text.includes(s));
    expect(leaked.map((s) => `${s.slice(0, 4)}…`)).toEqual([]);
  });
});
