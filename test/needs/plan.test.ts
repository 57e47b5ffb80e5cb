/**
 * The supply plan: which needs a target supplies and how, and the one setting or step each skip reason names.
 */
import { describe, expect, it } from 'vitest';
import type { Rule } from '../../src/model/rule.js';
import { secretCredentials, type TargetConfig } from '../../src/model/target.js';
import { missingNeed, NEED_KINDS, planSupply, SOAK_WINDOW_SECONDS, supplyOf, SupplyPlan } from '../../src/needs/plan.js';
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

  it('reads another channel\'s secret from CHANNEL_SECRET_2 without making its rules wait for one another, as the second channel does', () => {
    const t = remote({ CHANNEL_ID_2: 'ch-2', CHANNEL_SECRET_2: 'second-secret' });
    expect(supplyOf('other-channel-secret', { id: 'r' }, t)).toEqual({ source: 'settings' });
    expect(supplyOf('other-channel-secret', { id: 'r' }, remote({ CONTROL_URL: 'https://acme.example/_control' }))).toEqual({ source: 'control' });
    expect(missingNeed({ id: 'r', needs: ['other-channel-secret'] }, remote({}))).toMatch(/^needs other-channel-secret: set CHANNEL_ID_2 and CHANNEL_SECRET_2 .* or CONTROL_URL/);
    const plan = new SupplyPlan(t);
    expect(plan.sharesSettingsChannel(rule('signs', ['other-channel-secret']))).toBe(false);
    expect(plan.sharesSettingsChannel(rule('disconnects', ['second-channel']))).toBe(true);
  });
});

describe('the settings that stand in for the control API\'s fixtures', () => {
  const SETTINGS = {
    CHANNEL_NAME: 'Acme chat', CLIENT_ID_2: 'cid-2', CLIENT_SECRET_2: 'second-secret', REDIRECT_URI_2: 'https://other.example/cb',
    V1_CHANNEL_ID: 'v1-channel', V1_CHANNEL_SECRET: 'v1-channel-secret', NON_ASCII_LEAD_ID: '42', NON_ASCII_LEAD_NAME: 'Сделка 😀',
    OTHER_ACCOUNT_RECORD_IDS: 'leads:11,12;contacts:21', RESTRICTED_ACCESS_TOKEN: 'restricted-token-value', RESTRICTED_USER_ID: '7001',
  };
  const cases = [
    ['second-integration', /^needs second-integration: set CLIENT_ID_2, CLIENT_SECRET_2 and REDIRECT_URI_2 .* or CONTROL_URL/],
    ['channel-name', /^needs channel-name: set CHANNEL_NAME .* or CONTROL_URL/],
    ['v1-only-channel', /^needs v1-only-channel: set V1_CHANNEL_ID and V1_CHANNEL_SECRET .* or CONTROL_URL/],
    ['non-ascii-record', /^needs non-ascii-record: set NON_ASCII_LEAD_ID and NON_ASCII_LEAD_NAME .* or CONTROL_URL/],
    ['foreign-records', /^needs foreign-records: set OTHER_ACCOUNT_RECORD_IDS .* or CONTROL_URL/],
    ['restricted-token', /^needs restricted-token: set RESTRICTED_ACCESS_TOKEN and RESTRICTED_USER_ID .* or CONTROL_URL/],
  ] as const;

  it.each(cases)('supplies %s from the settings, and names the keys when they are absent', (need, reason) => {
    expect(supplyOf(need, { id: 'r' }, remote(SETTINGS))).toEqual({ source: 'settings' });
    expect(missingNeed({ id: 'r', needs: [need] }, remote({}))).toMatch(reason);
  });

  it('reads each setting into the credentials', () => {
    const c = remote(SETTINGS).credentials;
    expect(c.channelName).toBe('Acme chat');
    expect(c.secondClient).toEqual({ clientId: 'cid-2', clientSecret: 'second-secret', redirectUri: 'https://other.example/cb' });
    expect([c.v1ChannelId, c.v1ChannelSecret]).toEqual(['v1-channel', 'v1-channel-secret']);
    expect(c.nonAsciiLead).toEqual({ id: 42, name: 'Сделка 😀' });
    expect(c.otherAccountRecordIds).toEqual({ leads: [11, 12], contacts: [21] });
    expect(c.restrictedUser).toEqual({ token: 'restricted-token-value', userId: 7001 });
  });

  it('masks the second integration\'s secret, the v1 channel\'s and the restricted user\'s token', () => {
    expect(secretCredentials(remote(SETTINGS).credentials)).toEqual(expect.arrayContaining(['second-secret', 'v1-channel-secret', 'restricted-token-value']));
  });

  it.each([
    [{ CLIENT_ID_2: 'cid-2', CLIENT_SECRET_2: 's' }, /^REDIRECT_URI_2 is not set, but CLIENT_ID_2 and CLIENT_SECRET_2 are/],
    [{ CLIENT_SECRET_2: 's' }, /^CLIENT_ID_2 is not set, but CLIENT_SECRET_2 is/],
    [{ CLIENT_ID_2: 'cid', CLIENT_SECRET_2: 's', REDIRECT_URI_2: 'https://o.example/cb' }, /^CLIENT_ID_2 names CLIENT_ID/],
    [{ CLIENT_ID_2: 'cid-2', CLIENT_SECRET_2: 's', REDIRECT_URI_2: 'not a url' }, /^REDIRECT_URI_2 is not a valid URL/],
    [{ V1_CHANNEL_ID: 'v1' }, /^V1_CHANNEL_SECRET is not set, but V1_CHANNEL_ID is/],
    [{ V1_CHANNEL_ID: 'ch2', V1_CHANNEL_SECRET: 's', CHANNEL_ID_2: 'ch2', CHANNEL_SECRET_2: 's2' }, /^V1_CHANNEL_ID names CHANNEL_ID_2/],
    [{ NON_ASCII_LEAD_ID: '42' }, /^NON_ASCII_LEAD_NAME is not set/],
    [{ NON_ASCII_LEAD_ID: '4.2', NON_ASCII_LEAD_NAME: 'Сделка' }, /^NON_ASCII_LEAD_ID must be a lead's id/],
    [{ NON_ASCII_LEAD_ID: '42', NON_ASCII_LEAD_NAME: 'Deal 42' }, /^NON_ASCII_LEAD_NAME must hold a non-ASCII character/],
    [{ OTHER_ACCOUNT_RECORD_IDS: 'deals:1' }, /^OTHER_ACCOUNT_RECORD_IDS names no list of §4.2: "deals"/],
    [{ OTHER_ACCOUNT_RECORD_IDS: 'leads:1,x' }, /^OTHER_ACCOUNT_RECORD_IDS has an id that is not a positive integer: "x"/],
    [{ OTHER_ACCOUNT_RECORD_IDS: 'leads:1;leads:2' }, /^OTHER_ACCOUNT_RECORD_IDS names leads twice/],
    [{ OTHER_ACCOUNT_RECORD_IDS: '1,2,3' }, /^OTHER_ACCOUNT_RECORD_IDS has a part that is not <list>:<ids>/],
    [{ OTHER_ACCOUNT_RECORD_IDS: ';' }, /^OTHER_ACCOUNT_RECORD_IDS names no list/],
    [{ CHANNEL_NAME: 'two\nlines' }, /^CHANNEL_NAME must be one line/],
    [{ RESTRICTED_ACCESS_TOKEN: 't' }, /^RESTRICTED_USER_ID is not set, but RESTRICTED_ACCESS_TOKEN is/],
    [{ RESTRICTED_USER_ID: '7' }, /^RESTRICTED_ACCESS_TOKEN is not set, but RESTRICTED_USER_ID is/],
    [{ RESTRICTED_ACCESS_TOKEN: 't', RESTRICTED_USER_ID: 'seven' }, /^RESTRICTED_USER_ID must be a user's id/],
    [{ RESTRICTED_ACCESS_TOKEN: 'same', RESTRICTED_USER_ID: '7', LONG_LIVED_TOKEN: 'same' }, /^RESTRICTED_ACCESS_TOKEN is LONG_LIVED_TOKEN/],
  ])('refuses %j, naming the key (exit 2)', (env, message) => {
    let thrown: unknown;
    try {
      targetFromEnv({ ...BASE, ...env }, 'remote');
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(ConfigError);
    expect((thrown as ConfigError).exitCode).toBe(2);
    expect((thrown as ConfigError).message).toMatch(message);
  });
});

describe('planSupply', () => {
  const rules = [rule('a.many', ['fresh-code']), rule('b.other', ['one-code', 'operator']), rule('c.one', ['one-code']), rule('d.one', ['one-code'])];

  it('keeps the one AUTH_CODE for the first selected rule that needs one code and can otherwise run', () => {
    const t = planSupply(remote({ AUTH_CODE: 'one-fresh-code' }), { interactive: false, soak: false, rules, selected: () => true }).target;
    expect(t.authCodeRule).toBe('c.one');
    expect(missingNeed(rules[2]!, t)).toBeUndefined();
    expect(missingNeed(rules[3]!, t)).toMatch(/^needs one-code: AUTH_CODE serves one rule \(c\.one\); for the others set ADMIN_LOGIN and ADMIN_PASSWORD/);
    expect(missingNeed(rules[0]!, t)).toMatch(/^needs fresh-code: set ADMIN_LOGIN/);
    const onlyD = planSupply(remote({ AUTH_CODE: 'one-fresh-code' }), { interactive: false, soak: false, rules, selected: (r) => r.id === 'd.one' }).target;
    expect(onlyD.authCodeRule).toBe('d.one');
  });

  it('needs no AUTH_CODE holder when the page or a control API mints codes', () => {
    expect(planSupply(remote({ ...ADMIN, AUTH_CODE: 'c0de-c0de' }), { interactive: false, soak: false, rules, selected: () => true }).target.authCodeRule).toBeUndefined();
    expect(missingNeed(rules[2]!, remote({}))).toMatch(/^needs one-code: set AUTH_CODE \(one fresh code, for one rule\), or ADMIN_LOGIN and ADMIN_PASSWORD/);
  });

  it('sets the soak window and interactivity as the run says', () => {
    const t = planSupply(remote({}), { interactive: true, soak: true, rules, selected: () => true }).target;
    expect(t.interactive).toBe(true);
    expect(t.soakWindowSeconds).toBe(SOAK_WINDOW_SECONDS);
  });
});

describe('the run\'s opening line and browser use', () => {
  it('says where each need comes from without a control API, and nothing with one', () => {
    expect(new SupplyPlan(remote({ CONTROL_URL: 'https://acme.example/_control' })).openingLines()).toEqual([]);
    const [line] = new SupplyPlan(remote(ADMIN)).openingLines();
    expect(line).toMatch(/^no control API: fresh-code, consent, login, access-token, oauth-access-token, refresh-token from the access-granting page in Chromium \(ADMIN_LOGIN\)/);
    // Everything else is missing with the administrator's login alone: every other need of the catalogue, in its order.
    const onPage = ['fresh-code', 'consent', 'login', 'access-token', 'oauth-access-token', 'refresh-token', 'one-code'];
    expect(line).toContain(`; ${NEED_KINDS.filter((n) => !onPage.includes(n)).join(', ')} not available`);
    expect(line).toContain('long-lived-token, second-channel, second-account');
  });

  it('counts a rule whose codes come from the page as a browser rule (Chromium is installed for it)', () => {
    expect(new SupplyPlan(remote(ADMIN)).usesBrowser(rule('x', ['fresh-code']))).toBe(true);
    expect(new SupplyPlan(remote({ CONTROL_URL: 'https://acme.example/_control' })).usesBrowser(rule('x', ['fresh-code']))).toBe(false);
    expect(new SupplyPlan(remote({})).usesBrowser(rule('x', [], { requires: ['browser'] }))).toBe(true);
  });
});
