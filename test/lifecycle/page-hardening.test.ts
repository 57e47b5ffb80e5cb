/**
 * The access-granting page's own defences over plain HTTP, and the faults that switch each off: the form token bound
 * to the session (`page-csrf-unchecked`), no redirect_uri taken from the page's address (`page-follows-redirect-uri`),
 * only the administrator's accounts offered (`page-offers-member-accounts`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Harness } from '../emulator/helpers.js';

const ATTACKER = 'https://attacker.example/cb';

interface Session { cookie: string; formToken: string; html: string }

async function session(h: Harness, query: string): Promise<Session> {
  const login = (await h.request('GET', '/_control/login')).json as { login: string; password: string };
  const r = await fetch(`${h.url}/oauth/login`, {
    method: 'POST', redirect: 'manual',
    body: new URLSearchParams({ login: login.login, password: login.password, return: `/oauth?${query}` }).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  const cookie = /emu_session=[^;]+/.exec(r.headers.get('set-cookie') ?? '')?.[0] ?? '';
  const page = await h.request('GET', r.headers.get('location') ?? `/oauth?${query}`, { headers: { cookie } });
  return { cookie, formToken: /name="form_token" value="([^"]+)"/.exec(page.text)?.[1] ?? '', html: page.text };
}

/** The hidden fields of the grant form, as a browser would post them. */
const hiddenFields = (html: string) => Object.fromEntries([...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [m[1]!, m[2]!.replace(/&#38;/g, '&').replace(/&#47;/g, '/')]));

function decide(h: Harness, cookie: string, fields: Record<string, string>): Promise<Response> {
  return fetch(`${h.url}/oauth/decide`, {
    method: 'POST', redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
    body: new URLSearchParams(fields).toString(),
  });
}

async function accountIds(h: Harness): Promise<{ admin: number[]; member: number[] }> {
  const { accounts } = (await h.request('GET', '/_control/accounts')).json as { accounts: { id: number; admin_role: string }[] };
  return { admin: accounts.filter((a) => a.admin_role === 'administrator').map((a) => a.id), member: accounts.filter((a) => a.admin_role === 'member').map((a) => a.id) };
}

const offered = (html: string) => [...html.matchAll(/name="account_id" value="(\d+)"/g)].map((m) => Number(m[1]));

describe('access-granting page defences on a healthy emulator', () => {
  let h: Harness;
  beforeAll(async () => { h = await Harness.start(); });
  afterAll(() => h.close());

  it('refuses an Allow without the session\'s form token, or with another session\'s, and carries out one with it', async () => {
    const a = await session(h, `client_id=${h.env.CLIENT_ID}`);
    const b = await session(h, `client_id=${h.env.CLIENT_ID}`);
    expect(a.formToken).not.toBe(b.formToken);
    const fields = { client_id: h.env.CLIENT_ID!, decision: 'allow' };
    expect((await decide(h, a.cookie, fields)).status).toBe(403);
    expect((await decide(h, a.cookie, { ...fields, form_token: b.formToken })).status).toBe(403);
    expect((await decide(h, '', { ...fields, form_token: a.formToken })).status).toBe(401);
    const ok = await decide(h, a.cookie, { ...fields, form_token: a.formToken });
    expect(new URL(ok.headers.get('location')!).searchParams.get('code')).toBeTruthy();
  });

  it('ignores a redirect_uri in the page\'s address: the form does not carry it and Allow goes to the registered Redirect URI', async () => {
    const s = await session(h, `client_id=${h.env.CLIENT_ID}&redirect_uri=${encodeURIComponent(ATTACKER)}`);
    expect(s.html).not.toContain('attacker.example');
    const r = await decide(h, s.cookie, { ...hiddenFields(s.html), redirect_uri: ATTACKER, decision: 'allow' });
    expect(r.headers.get('location')!.startsWith(`${h.env.REDIRECT_URI}?`)).toBe(true);
  });

  it('offers every account where the administrator is one, none where he is only a member', async () => {
    const ids = await accountIds(h);
    expect(ids.member.length).toBeGreaterThan(0);
    expect(offered((await session(h, `client_id=${h.env.CLIENT_ID}`)).html).sort()).toEqual([...ids.admin].sort());
  });
});

describe('access-granting page faults', () => {
  it('page-csrf-unchecked: an Allow without the form token is carried out', async () => {
    const h = await Harness.start({ faults: ['page-csrf-unchecked'] });
    try {
      const s = await session(h, `client_id=${h.env.CLIENT_ID}`);
      const r = await decide(h, s.cookie, { client_id: h.env.CLIENT_ID!, decision: 'allow' });
      expect(new URL(r.headers.get('location')!).searchParams.get('code')).toBeTruthy();
    } finally {
      await h.close();
    }
  });

  it('page-follows-redirect-uri: the form carries the address\'s redirect_uri through login, and Allow goes there', async () => {
    const h = await Harness.start({ faults: ['page-follows-redirect-uri'] });
    try {
      const s = await session(h, `client_id=${h.env.CLIENT_ID}&redirect_uri=${encodeURIComponent(ATTACKER)}`);
      const fields = hiddenFields(s.html);
      expect(fields.redirect_uri).toBe(ATTACKER);
      const r = await decide(h, s.cookie, { ...fields, decision: 'allow' });
      const location = new URL(r.headers.get('location')!);
      expect(`${location.origin}${location.pathname}`).toBe(ATTACKER);
      expect(location.searchParams.get('code')).toBeTruthy();
    } finally {
      await h.close();
    }
  });

  it('page-offers-member-accounts: the member account is among the choices', async () => {
    const h = await Harness.start({ faults: ['page-offers-member-accounts'] });
    try {
      const ids = await accountIds(h);
      expect(offered((await session(h, `client_id=${h.env.CLIENT_ID}`)).html)).toEqual(expect.arrayContaining(ids.member));
    } finally {
      await h.close();
    }
  });
});
