import { SignJWT, decodeJwt, generateKeyPair } from 'jose';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { bearerToken } from '../../src/emulator/api/bearer.js';
import { signingKeys } from '../../src/emulator/oauth/jwt.js';
import { Harness } from './helpers.js';

let h: Harness;
let other: Harness;
beforeAll(async () => { [h, other] = await Promise.all([Harness.start(), Harness.start()]); });
afterAll(async () => { await Promise.all([h.close(), other.close()]); });
beforeEach(async () => { await h.reset(); });

function expect401(r: { status: number; contentType: string; json: any }): void {
  expect(r.status).toBe(401);
  expect(r.contentType).toMatch(/^application\/problem\+json\b/);
  expect(r.json).toMatchObject({ status: 401, title: 'Unauthorized' });
}

describe('GET /api/v4/account', () => {
  it('answers hal+json with the account fields for a valid token', async () => {
    const t = await h.tokens();
    const r = await h.account(t.access_token);
    expect(r.status).toBe(200);
    expect(r.contentType).toMatch(/^application\/hal\+json\b/);
    const control = (await h.request('GET', '/_control')).json;
    expect(r.json).toMatchObject({
      id: control.account.id,
      subdomain: control.account.subdomain,
      current_user_id: Number(h.env.MANAGER_USER_ID),
      is_technical_account: expect.any(Boolean),
      is_unsorted_on: expect.any(Boolean),
      _links: { self: { href: `${h.url}/api/v4/account` } },
    });
    for (const k of ['name', 'created_at', 'country', 'currency', 'customers_mode']) expect(r.json).toHaveProperty(k);
    expect(r.json).not.toHaveProperty('amojo_id');
    expect(r.json).not.toHaveProperty('is_api_filter_enabled');
  });

  it('adds amojo_id and is_api_filter_enabled on request (comma list or [] list; a repeated plain key keeps its last value, as PHP reads it)', async () => {
    const t = await h.tokens();
    const a = await h.account(t.access_token, '?with=amojo_id,is_api_filter_enabled');
    expect(a.json.amojo_id).toBe(h.env.CHAT_ACCOUNT_ID);
    expect(a.json.is_api_filter_enabled).toBe(true);
    const b = await h.account(t.access_token, '?with[]=amojo_id&with[]=is_api_filter_enabled');
    expect(b.json.amojo_id).toBe(h.env.CHAT_ACCOUNT_ID);
    expect(b.json.is_api_filter_enabled).toBe(true);
    const repeated = await h.account(t.access_token, '?with=amojo_id&with=is_api_filter_enabled');
    expect(repeated.json).not.toHaveProperty('amojo_id');
    expect(repeated.json.is_api_filter_enabled).toBe(true);
    const c = await h.account(t.access_token, '?with=amojo_id');
    expect(c.json).not.toHaveProperty('is_api_filter_enabled');
  });

  it('refuses a missing or malformed Authorization header', async () => {
    const t = await h.tokens();
    expect401(await h.account(undefined));
    for (const header of [`Basic ${t.access_token}`, 'Bearer', 'Bearer ', `Bearer ${t.access_token} extra`, t.access_token]) {
      const r = await h.request('GET', '/api/v4/account', { headers: { authorization: header } });
      expect401(r);
    }
    expect(r200(await h.request('GET', '/api/v4/account', { headers: { authorization: `bearer ${t.access_token}` } }))).toBe(true);
  });

  it('refuses a token with a bad signature, an unknown token and a foreign key', async () => {
    const t = await h.tokens();
    const [head, body, sig] = t.access_token.split('.');
    const flipped = `${head}.${body}.${sig!.startsWith('A') ? 'B' : 'A'}${sig!.slice(1)}`;
    expect401(await h.account(flipped));
    expect401(await h.account('x'.repeat(64)));
    const foreign = await generateKeyPair('RS256');
    const forged = await new SignJWT(decodeJwt(t.access_token)).setProtectedHeader({ alg: 'RS256' }).sign(foreign.privateKey);
    expect401(await h.account(forged));
  });

  it('refuses a token of the emulator key with an unknown jti', async () => {
    const { privateKey } = await signingKeys();
    const claims = { ...decodeJwt((await h.tokens()).access_token), jti: 'never-issued' };
    expect401(await h.account(await new SignJWT(claims).setProtectedHeader({ alg: 'RS256' }).sign(privateKey)));
  });

  it('refuses a token issued by another emulator instance', async () => {
    const foreign = await other.tokens();
    expect((await other.account(foreign.access_token)).status).toBe(200);
    expect401(await h.account(foreign.access_token));
  });

  it('refuses an expired token by the emulator clock (exp <= now)', async () => {
    const t = await h.tokens();
    await h.advance(86_400 - 5);
    expect((await h.account(t.access_token)).status).toBe(200);
    await h.advance(5);
    expect401(await h.account(t.access_token));
  });

  it('refuses a revoked token', async () => {
    const t = await h.tokens();
    await h.exchange(h.codeRequest(t.code));
    const r = await h.account(t.access_token);
    expect401(r);
    expect(r.json.detail).toMatch(/revoked/);
  });

  it('refuses tokens issued before a control reset', async () => {
    const t = await h.tokens();
    await h.reset();
    expect401(await h.account(t.access_token));
  });
});

describe('bearerToken()', () => {
  it('parses RFC 6750 b64token syntax', () => {
    expect(bearerToken('Bearer abc.def-_~+/==')).toBe('abc.def-_~+/==');
    expect(bearerToken('BEARER abc')).toBe('abc');
    expect(bearerToken('Bearer a b')).toBeUndefined();
    expect(bearerToken(undefined)).toBeUndefined();
  });
});

function r200(r: { status: number }): boolean {
  return r.status === 200;
}
