/**
 * Every credential bound to its account's address (issue 27): a refresh token, like a code, is refused at another
 * account's address (400, or 401 and 404 under the variations that answer so); the `tokens-bound-to-account` variation
 * makes the root address the developer account's alone; `links-relative` writes relative hrefs; a revocation that the
 * `*-works-at-own-address` faults keep at the root only still refuses there and lets the token through at its own address.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EmulatorOptions } from '../../src/emulator/index.js';
import { Harness } from './helpers.js';

interface ControlAccount { id: number; subdomain: string; admin_role: string; base_url: string }

interface Grant { access_token: string; refresh_token: string }

const bearer = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });

/** A code granted in `accountId` (the developer account when undefined). */
async function codeIn(h: Harness, accountId?: number): Promise<string> {
  const consent = await h.postJson('/_control/consent', { client_id: h.env.CLIENT_ID, decision: 'allow', ...(accountId === undefined ? {} : { account_id: accountId }) });
  return consent.json.code as string;
}

/** A pair granted in `account`, exchanged at its own address. */
async function grantAt(h: Harness, account: ControlAccount): Promise<Grant> {
  const r = await h.postJson(`${pathOf(h, account)}/oauth2/access_token`, h.codeRequest(await codeIn(h, account.id)));
  expect(r.status).toBe(200);
  return r.json as Grant;
}

const pathOf = (h: Harness, account: ControlAccount) => account.base_url.slice(h.url.length);

async function started(options: EmulatorOptions = {}): Promise<{ h: Harness; main: ControlAccount; second: ControlAccount }> {
  const h = await Harness.start(options);
  const accounts = (await h.request('GET', '/_control/accounts')).json.accounts as ControlAccount[];
  return { h, main: accounts[0]!, second: accounts.find((a, i) => i > 0 && a.admin_role === 'administrator')! };
}

describe('credentials bound to their account\'s address', () => {
  let s: Awaited<ReturnType<typeof started>>;
  beforeAll(async () => {
    s = await started();
  });
  afterAll(() => s.h.close());

  it('refuses a refresh token of one account at another account\'s address with 400 invalid_grant, and keeps it usable at its own', async () => {
    const { h, main, second } = s;
    const pair = await grantAt(h, main);
    const there = await h.postJson(`${pathOf(h, second)}/oauth2/access_token`, h.refreshRequest(pair.refresh_token));
    expect(there.status).toBe(400);
    expect(there.json.error).toBe('invalid_grant');
    expect(there.text).not.toContain('access_token');
    expect((await h.postJson(`${pathOf(h, main)}/oauth2/access_token`, h.refreshRequest(pair.refresh_token))).status).toBe(200);
  });

  it('serves every account\'s credentials at the root address by default', async () => {
    const { h, second } = s;
    const pair = await grantAt(h, second);
    expect((await h.account(pair.access_token)).json.id).toBe(second.id);
    expect((await h.exchange(h.codeRequest(await codeIn(h, second.id)))).status).toBe(200);
  });
});

describe('the variations of another account\'s credential and of the root address', () => {
  for (const [variation, status] of [['foreign-credential-401', 401], ['foreign-credential-404', 404]] as const) {
    it(`${variation}: another account's code and refresh token are refused with ${status}, and give no token`, async () => {
      const { h, main, second } = await started({ variations: [variation] });
      try {
        const code = await h.postJson(`${pathOf(h, second)}/oauth2/access_token`, h.codeRequest(await codeIn(h)));
        expect(code.status).toBe(status);
        const pair = await grantAt(h, main);
        const refresh = await h.postJson(`${pathOf(h, second)}/oauth2/access_token`, h.refreshRequest(pair.refresh_token));
        expect(refresh.status).toBe(status);
        expect(`${code.text}${refresh.text}`).not.toContain('access_token');
      } finally {
        await h.close();
      }
    });

    it(`${variation} with tokens-bound-to-account: the root address refuses another account's code and refresh token alike, with ${status}`, async () => {
      const { h, second } = await started({ variations: [variation, 'tokens-bound-to-account'] });
      try {
        const other = await grantAt(h, second);
        expect((await h.exchange(h.refreshRequest(other.refresh_token))).status).toBe(status);
        expect((await h.exchange(h.codeRequest(await codeIn(h, second.id)))).status).toBe(status);
      } finally {
        await h.close();
      }
    });
  }

  it('tokens-bound-to-account: the root address refuses another account\'s bearer, refresh token and code, and serves the developer account\'s', async () => {
    const { h, main, second } = await started({ variations: ['tokens-bound-to-account'] });
    try {
      const other = await grantAt(h, second);
      expect((await h.account(other.access_token)).status).toBe(401);
      expect((await h.request('GET', `${pathOf(h, second)}/api/v4/account`, bearer(other.access_token))).json.id).toBe(second.id);
      expect((await h.exchange(h.refreshRequest(other.refresh_token))).status).toBe(400);
      expect((await h.exchange(h.codeRequest(await codeIn(h, second.id)))).status).toBe(400);
      const own = await grantAt(h, main);
      expect((await h.account(own.access_token)).json.id).toBe(main.id);
      expect((await h.exchange(h.codeRequest(await codeIn(h)))).status).toBe(200);
    } finally {
      await h.close();
    }
  });

  it('links-relative: the account\'s and a list\'s hrefs are relative, under the account\'s path when called by it', async () => {
    const { h, second } = await started({ variations: ['links-relative'] });
    try {
      const pair = await grantAt(h, second);
      const account = await h.request('GET', `${pathOf(h, second)}/api/v4/account`, bearer(pair.access_token));
      expect(account.json._links.self.href).toBe(`${pathOf(h, second)}/api/v4/account`);
      const leads = await h.request('GET', '/api/v4/leads?limit=1', bearer(pair.access_token));
      expect(leads.json._links.next.href).toMatch(/^\/api\/v4\/leads\?/);
    } finally {
      await h.close();
    }
  });
});

describe('revocations that hold at the root address only (faults)', () => {
  for (const [fault, end] of [['deactivated-token-works-at-own-address', '/_control/deactivate'], ['disconnected-token-works-at-own-address', '/_control/disconnect']] as const) {
    it(`${fault}: the token is refused at the root and served at its account's own address`, async () => {
      const { h, second } = await started({ faults: [fault] });
      try {
        const pair = await grantAt(h, second);
        expect((await h.postJson(end, { account_id: second.id })).status).toBe(200);
        expect((await h.account(pair.access_token)).status).toBe(401);
        expect((await h.request('GET', `${pathOf(h, second)}/api/v4/account`, bearer(pair.access_token))).status).toBe(200);
      } finally {
        await h.close();
      }
    });
  }
});
