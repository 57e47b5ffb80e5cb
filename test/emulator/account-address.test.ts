/**
 * One address per account (the spec's preamble): each account's own address serves its account alone, the instance's
 * root keeps serving every account's bearer, the settings name a second account's address and a member account, and
 * the `base-url-any-account` fault lets another account's bearer through.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/errors.js';
import { targetFromEnv } from '../../src/targets/from-env.js';
import { Harness } from './helpers.js';

interface ControlAccount { id: number; subdomain: string; admin_role: string; base_url: string }

async function tokenIn(h: Harness, accountId?: number): Promise<string> {
  const consent = await h.postJson('/_control/consent', { client_id: h.env.CLIENT_ID, decision: 'allow', ...(accountId === undefined ? {} : { account_id: accountId }) });
  const r = await h.exchange(h.codeRequest(consent.json.code));
  expect(r.status).toBe(200);
  return r.json.access_token as string;
}

const pathOf = (h: Harness, url: string) => url.slice(h.url.length);

describe('per-account addresses', () => {
  let h: Harness;
  let accounts: ControlAccount[];
  beforeAll(async () => {
    h = await Harness.start();
    accounts = (await h.request('GET', '/_control/accounts')).json.accounts;
  });
  afterAll(() => h.close());

  it('names every account\'s own address, and prints a second administrator account\'s as BASE_URL_2 and the member account as MEMBER_ACCOUNT', () => {
    for (const a of accounts) expect(a.base_url).toBe(`${h.url}/_accounts/${a.subdomain}`);
    const second = accounts.find((a, i) => i > 0 && a.admin_role === 'administrator')!;
    expect(h.env.BASE_URL_2).toBe(second.base_url);
    expect(h.env.MEMBER_ACCOUNT).toBe(String(accounts.find((a) => a.admin_role === 'member')!.id));
    const target = targetFromEnv(h.env, 'emulator');
    expect(target.credentials).toMatchObject({ baseUrl2: second.base_url, memberAccount: h.env.MEMBER_ACCOUNT });
  });

  it('answers a bearer at its own account\'s address, with links under that address, and refuses it at another\'s with 401 invalid_token', async () => {
    const [main, second] = accounts;
    const token = await tokenIn(h);
    const own = await h.request('GET', `${pathOf(h, main!.base_url)}/api/v4/account`, { headers: { authorization: `Bearer ${token}` } });
    expect(own.status).toBe(200);
    expect(own.json.id).toBe(main!.id);
    expect(own.json._links.self.href).toBe(`${main!.base_url}/api/v4/account`);
    const other = await h.request('GET', `${pathOf(h, second!.base_url)}/api/v4/account`, { headers: { authorization: `Bearer ${token}` } });
    expect(other.status).toBe(401);
    expect(other.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
    expect(other.text).not.toContain(String(main!.id));
    const lists = await h.request('GET', `${pathOf(h, second!.base_url)}/api/v4/leads`, { headers: { authorization: `Bearer ${token}` } });
    expect(lists.status).toBe(401);
    const secondToken = await tokenIn(h, second!.id);
    const there = await h.request('GET', `${pathOf(h, second!.base_url)}/api/v4/account`, { headers: { authorization: `Bearer ${secondToken}` } });
    expect(there.json.id).toBe(second!.id);
  });

  it('names the chosen account\'s own address as the Allow redirect\'s referer, which serves a client\'s https://{referer}/api/v4 call', async () => {
    for (const a of accounts.filter((x) => x.admin_role === 'administrator')) {
      const consent = await h.postJson('/_control/consent', { client_id: h.env.CLIENT_ID, decision: 'allow', account_id: a.id });
      const referer = new URL(consent.json.location).searchParams.get('referer')!;
      expect(`http://${referer}`).toBe(a.base_url);
      const token = (await h.exchange(h.codeRequest(consent.json.code))).json.access_token as string;
      const there = await h.request('GET', `${referer.slice(new URL(h.url).host.length)}/api/v4/account`, { headers: { authorization: `Bearer ${token}` } });
      expect(there.json.id).toBe(a.id);
    }
  });

  it('keeps the root address serving every account\'s bearer, and answers 404 for unknown accounts and unserved paths', async () => {
    const second = accounts[1]!;
    expect((await h.account(await tokenIn(h, second.id))).json.id).toBe(second.id);
    expect((await h.request('GET', '/_accounts/nosuchaccount/api/v4/account')).status).toBe(404);
    expect((await h.request('GET', `/_accounts/${second.subdomain}/_control/accounts`)).status).toBe(404);
    expect((await h.request('GET', `/_accounts/${second.subdomain}/oauth`)).status).toBe(404);
  });

  it('lets another account\'s bearer through under the base-url-any-account fault', async () => {
    const f = await Harness.start({ faults: ['base-url-any-account'] });
    try {
      const token = await tokenIn(f);
      const second = (await f.request('GET', '/_control/accounts')).json.accounts[1] as ControlAccount;
      const r = await f.request('GET', `${pathOf(f, second.base_url)}/api/v4/account`, { headers: { authorization: `Bearer ${token}` } });
      expect(r.status).toBe(200);
    } finally {
      await f.close();
    }
  });
});

describe('BASE_URL_2 and MEMBER_ACCOUNT settings', () => {
  const base = { BASE_URL: 'https://one.example.com', CLIENT_ID: 'x', CLIENT_SECRET: 'y', REDIRECT_URI: 'https://r.example/cb' };
  const error = (env: Record<string, string>) => {
    try {
      targetFromEnv({ ...base, ...env }, 'remote');
    } catch (err) {
      return err;
    }
    return undefined;
  };

  it('takes an account id or domain and another account\'s address', () => {
    expect(targetFromEnv({ ...base, BASE_URL_2: 'https://two.example.com/', MEMBER_ACCOUNT: 'three.example.com' }, 'remote').credentials)
      .toMatchObject({ baseUrl2: 'https://two.example.com', memberAccount: 'three.example.com' });
    expect(targetFromEnv({ ...base, MEMBER_ACCOUNT: '31234567' }, 'remote').credentials.memberAccount).toBe('31234567');
  });

  it('refuses, naming the key, BASE_URL_2 equal to BASE_URL or not a URL, and a MEMBER_ACCOUNT that is neither an id nor a domain', () => {
    for (const [env, key] of [[{ BASE_URL_2: 'https://one.example.com/' }, 'BASE_URL_2'], [{ BASE_URL_2: 'two' }, 'BASE_URL_2'], [{ MEMBER_ACCOUNT: 'a b' }, 'MEMBER_ACCOUNT'], [{ MEMBER_ACCOUNT: 'https://x.example' }, 'MEMBER_ACCOUNT']] as const) {
      const err = error(env);
      expect(err, key).toBeInstanceOf(ConfigError);
      expect(String((err as Error).message), key).toContain(key);
    }
  });
});
