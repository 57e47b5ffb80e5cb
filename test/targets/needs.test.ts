/**
 * Which needs a target supplies and how, and the one setting or step each skip reason names.
 */
import { describe, expect, it } from 'vitest';
import type { Rule } from '../../src/model/rule.js';
import type { TargetConfig } from '../../src/model/target.js';
import { liveLines, liveTarget, missingNeed, SOAK_WINDOW_SECONDS, supplyOf, usesBrowser } from '../../src/targets/needs.js';
import { targetFromEnv } from '../../src/targets/from-env.js';
import { ConfigError } from '../../src/errors.js';

const BASE = { BASE_URL: 'https://acme.example', CLIENT_ID: 'cid', CLIENT_SECRET: 'secret-secret', REDIRECT_URI: 'https://i.example/cb', TOKEN_STORE: '/nonexistent/tokens.json' };
const ADMIN = { ADMIN_LOGIN: 'admin@acme.example', ADMIN_PASSWORD: 'correct horse' };

/** A remote target from settings, Chromium taken as present or not (the machine's own does not matter here). */
function remote(env: Record<string, string>, chromium = true): TargetConfig {
  const t = targetFromEnv({ ...BASE, ...env }, 'remote');
  const wanted = t.capabilities.includes('browser') || t.gaps?.browser?.startsWith('Chromium');
  if (chromium && wanted) return { ...t, capabilities: [...new Set([...t.capabilities, 'browser' as const])], gaps: { ...t.gaps, browser: undefined } };
  if (!chromium && wanted) return { ...t, capabilities: t.capabilities.filter((c) => c !== 'browser'), gaps: { ...t.gaps, browser: 'Chromium is not installed at /usr/bin/chromium (apt-get install -y chromium)' } };
  return t;
}

const rule = (id: string, needs: Rule['needs'], extra: Partial<Rule> = {}): Rule =>
  ({ id, section: '9', level: 'must', requires: [], title: id, kind: 'closure', run: async () => { throw new Error('not run'); }, needs, ...extra });

describe('supplyOf', () => {
  it('supplies every need through the control API when the target has one', () => {
    const t = remote({ CONTROL_URL: 'https://acme.example/_control' });
    for (const need of ['fresh-code', 'operator', 'clock', 'ground-truth', 'second-integration'] as const) expect(supplyOf(need, { id: 'r' }, t)).toEqual({ source: 'control' });
  });

  it('drives the page in Chromium for codes, consent and login when ADMIN_LOGIN and ADMIN_PASSWORD are set', () => {
    const t = remote(ADMIN);
    expect(t.capabilities).toContain('browser'); // ADMIN_LOGIN alone asks for the browser on a remote target
    for (const need of ['fresh-code', 'one-code', 'consent', 'login', 'access-token', 'refresh-token'] as const) expect(supplyOf(need, { id: 'r' }, t)).toEqual({ source: 'browser' });
  });

  it('names the settings that would let a page need be met, and the browser problem when that is what is missing', () => {
    expect(missingNeed({ id: 'r', needs: ['fresh-code'] }, remote({}))).toBe('needs fresh-code: set ADMIN_LOGIN and ADMIN_PASSWORD (the grant page is driven in Chromium) or CONTROL_URL (a control API)');
    expect(missingNeed({ id: 'r', needs: ['consent'] }, remote(ADMIN, false))).toMatch(/^needs consent: Chromium is not installed at \/usr\/bin\/chromium \(apt-get install -y chromium\) \(the grant page is driven in Chromium with ADMIN_LOGIN\), or set CONTROL_URL/);
    expect(missingNeed({ id: 'r', needs: ['consent'] }, remote({ ...ADMIN, CONFORMANCE_BROWSER: '0' }))).toMatch(/set CONFORMANCE_BROWSER=1/);
  });

  it('refuses half an administrator login, naming the missing key', () => {
    expect(() => targetFromEnv({ ...BASE, ADMIN_LOGIN: 'a' }, 'remote')).toThrow(ConfigError);
    expect(() => targetFromEnv({ ...BASE, ADMIN_PASSWORD: 'p' }, 'remote')).toThrow(/^ADMIN_LOGIN is not set/);
  });

  it('asks the operator only on an interactive run', () => {
    const t = remote(ADMIN);
    expect(missingNeed({ id: 'r', needs: ['operator'] }, t)).toMatch(/^needs operator: a person must act .*: run the kit on a terminal, where it asks the operator and waits, or CONTROL_URL/);
    expect(missingNeed({ id: 'r', needs: ['operator'] }, { ...t, interactive: true })).toBeUndefined();
  });

  it('lets time pass in real time only under --profile soak and only for a rule that can wait that long', () => {
    const t = remote(ADMIN);
    const code = { id: 'r', needs: ['clock' as const], soakSeconds: 21 * 60 };
    expect(missingNeed(code, t)).toBe('needs clock: run with --profile soak (it waits up to 21 minutes in real time) or CONTROL_URL (a control API)');
    const soak = { ...t, soakWindowSeconds: SOAK_WINDOW_SECONDS };
    expect(supplyOf('clock', code, soak)).toEqual({ source: 'real-time' });
    expect(missingNeed({ ...code, soakSeconds: 92 * 86_400 }, soak)).toMatch(/it waits up to 92 days/);
    expect(missingNeed({ id: 'r', needs: ['clock'] }, soak)).toMatch(/^needs clock: set CONTROL_URL/);
  });

  it('takes a long-lived token and an access token from the settings', () => {
    const t = remote({ LONG_LIVED_TOKEN: 'long-lived-token-value' });
    expect(supplyOf('long-lived-token', { id: 'r' }, t)).toEqual({ source: 'settings' });
    expect(supplyOf('access-token', { id: 'r' }, t)).toEqual({ source: 'settings' });
    expect(missingNeed({ id: 'r', needs: ['long-lived-token'] }, remote({}))).toMatch(/^needs long-lived-token: set LONG_LIVED_TOKEN/);
    expect(supplyOf('refresh-token', { id: 'r' }, remote({ REFRESH_TOKEN: 'refresh-token-value' }))).toEqual({ source: 'token-store' });
  });

  it('takes the integration\'s name and a private integration from the settings, naming the key when absent', () => {
    const t = remote({ INTEGRATION_NAME: 'Acme sync', PRIVATE_CLIENT_ID: 'private-cid' });
    expect(supplyOf('integration-name', { id: 'r' }, t)).toEqual({ source: 'settings' });
    expect(supplyOf('private-integration', { id: 'r' }, t)).toEqual({ source: 'settings' });
    expect(missingNeed({ id: 'r', needs: ['integration-name'] }, remote({}))).toMatch(/^needs integration-name: set INTEGRATION_NAME/);
    expect(missingNeed({ id: 'r', needs: ['private-integration'] }, remote({}))).toMatch(/^needs private-integration: set PRIVATE_CLIENT_ID/);
  });

  it('takes a second account\'s address and a member account from the settings, naming the key when absent', () => {
    const t = remote({ BASE_URL_2: 'https://other.example.com', MEMBER_ACCOUNT: 'member.example.com' });
    expect(supplyOf('second-base-url', { id: 'r' }, t)).toEqual({ source: 'settings' });
    expect(supplyOf('member-account', { id: 'r' }, t)).toEqual({ source: 'settings' });
    expect(missingNeed({ id: 'r', needs: ['second-base-url'] }, remote({}))).toMatch(/^needs second-base-url: set BASE_URL_2/);
    expect(missingNeed({ id: 'r', needs: ['member-account'] }, remote({}))).toMatch(/^needs member-account: set MEMBER_ACCOUNT/);
  });
});

describe('liveTarget', () => {
  const rules = [rule('a.many', ['fresh-code']), rule('b.other', ['one-code', 'operator']), rule('c.one', ['one-code']), rule('d.one', ['one-code'])];

  it('keeps the one AUTH_CODE for the first selected rule that needs one code and can otherwise run', () => {
    const t = liveTarget(remote({ AUTH_CODE: 'one-fresh-code' }), { interactive: false, soak: false, rules, selected: () => true });
    expect(t.authCodeRule).toBe('c.one');
    expect(missingNeed(rules[2]!, t)).toBeUndefined();
    expect(missingNeed(rules[3]!, t)).toMatch(/^needs one-code: AUTH_CODE serves one rule \(c\.one\); for the others set ADMIN_LOGIN and ADMIN_PASSWORD/);
    expect(missingNeed(rules[0]!, t)).toMatch(/^needs fresh-code: set ADMIN_LOGIN/);
    const onlyD = liveTarget(remote({ AUTH_CODE: 'one-fresh-code' }), { interactive: false, soak: false, rules, selected: (r) => r.id === 'd.one' });
    expect(onlyD.authCodeRule).toBe('d.one');
  });

  it('needs no AUTH_CODE holder when the page or a control API mints codes', () => {
    expect(liveTarget(remote({ ...ADMIN, AUTH_CODE: 'c0de-c0de' }), { interactive: false, soak: false, rules, selected: () => true }).authCodeRule).toBeUndefined();
    expect(missingNeed(rules[2]!, remote({}))).toMatch(/^needs one-code: set AUTH_CODE \(one fresh code, for one rule\), or ADMIN_LOGIN and ADMIN_PASSWORD/);
  });

  it('sets the soak window and interactivity as the run says', () => {
    const t = liveTarget(remote({}), { interactive: true, soak: true, rules, selected: () => true });
    expect(t.interactive).toBe(true);
    expect(t.soakWindowSeconds).toBe(SOAK_WINDOW_SECONDS);
  });
});

describe('the run\'s opening line and browser use', () => {
  it('says where each need comes from without a control API, and nothing with one', () => {
    expect(liveLines(remote({ CONTROL_URL: 'https://acme.example/_control' }))).toEqual([]);
    const [line] = liveLines(remote(ADMIN));
    expect(line).toMatch(/^no control API: fresh-code, consent, login, access-token, refresh-token from the access-granting page in Chromium \(ADMIN_LOGIN\)/);
    expect(line).toMatch(/long-lived-token, second-channel, second-account, second-base-url, member-account, integration-name, private-integration, operator, clock, ground-truth, counters not available/);
  });

  it('counts a rule whose codes come from the page as a browser rule (Chromium is installed for it)', () => {
    expect(usesBrowser(rule('x', ['fresh-code']), remote(ADMIN))).toBe(true);
    expect(usesBrowser(rule('x', ['fresh-code']), remote({ CONTROL_URL: 'https://acme.example/_control' }))).toBe(false);
    expect(usesBrowser(rule('x', [], { requires: ['browser'] }), remote({}))).toBe(true);
  });
});
