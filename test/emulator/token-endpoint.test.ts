import { createPublicKey } from 'node:crypto';
import { decodeJwt, decodeProtectedHeader, jwtVerify } from 'jose';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { addCalendarMonthsUtc } from '../../src/emulator/clock.js';
import { signingKeys } from '../../src/emulator/oauth/jwt.js';
import { CODE_TTL_SECONDS, Harness, type Reply } from './helpers.js';

let h: Harness;
beforeAll(async () => { h = await Harness.start(); });
afterAll(async () => { await h.close(); });
beforeEach(async () => { await h.reset(); });

function expectTokenResponse(r: Reply): void {
  expect(r.status).toBe(200);
  expect(r.contentType).toMatch(/^application\/json\b/);
  expect(r.json.token_type).toBe('Bearer');
  expect(r.json.expires_in).toBe(86400);
  expect(typeof r.json.access_token).toBe('string');
  expect(r.json.access_token.split('.')).toHaveLength(3);
  expect(typeof r.json.refresh_token).toBe('string');
  expect(r.json.refresh_token.length).toBeGreaterThanOrEqual(40);
  expect(Number.isInteger(r.json.server_time)).toBe(true);
}

function expectProblem(r: Reply, hint?: RegExp | string): void {
  expect(r.status).toBe(400);
  expect(r.contentType).toMatch(/^application\/json\b/);
  expect(r.json).toMatchObject({ title: 'Bad Request', type: 'https://developers.example/errors/400', status: 400 });
  expect(typeof r.json.detail).toBe('string');
  if (hint !== undefined) expect(r.json.hint).toMatch(hint);
}

describe('code grant', () => {
  it('exchanges a code sent as JSON', async () => {
    const code = await h.code();
    const before = (await h.request('GET', '/_control/clock')).json.now;
    const r = await h.exchange(h.codeRequest(code));
    expectTokenResponse(r);
    const after = (await h.request('GET', '/_control/clock')).json.now;
    // The emulator's time when it answered: between its readings before and after, however long the requests took.
    expect(r.json.server_time).toBeGreaterThanOrEqual(before);
    expect(r.json.server_time).toBeLessThanOrEqual(after);
  });

  it('exchanges a code sent form-encoded, as the PHP client does', async () => {
    const body = h.codeRequest(await h.code()) as Record<string, string>;
    expectTokenResponse(await h.postForm('/oauth2/access_token', body));
  });

  it('accepts application/json with a charset parameter', async () => {
    const r = await h.postJson('/oauth2/access_token', h.codeRequest(await h.code()), { 'content-type': 'application/json; charset=utf-8' });
    expectTokenResponse(r);
  });

  it.each([
    ['grant_type missing', { grant_type: undefined }, /grant_type/],
    ['grant_type unknown', { grant_type: 'password' }, /grant_type/],
    ['grant_type not a string', { grant_type: ['authorization_code'] }, /grant_type/],
    ['client_id missing', { client_id: undefined }, /client_id/],
    ['client_id wrong', { client_id: '00000000-0000-4000-8000-000000000000' }, /client_id/],
    ['client_id a number', { client_id: 12345 }, /client_id/],
    ['client_secret missing', { client_secret: undefined }, /client_secret/],
    ['client_secret wrong', { client_secret: 'x'.repeat(64) }, /client_secret/],
    ['client_secret an object', { client_secret: { a: 1 } }, /client_secret/],
    ['code missing', { code: undefined }, /code/],
    ['code unknown', { code: 'not-a-code-that-was-ever-issued' }, /Authorization code/],
    ['code a number', { code: 42 }, /code/],
    ['redirect_uri missing', { redirect_uri: undefined }, /redirect_uri/],
    ['redirect_uri with a trailing slash', { redirect_uri: 'https://integration.example/oauth/callback/' }, 'Redirect URI is not associated with client'],
    ['redirect_uri in another case', { redirect_uri: 'https://INTEGRATION.example/oauth/callback' }, 'Redirect URI is not associated with client'],
    ['redirect_uri null', { redirect_uri: null }, /redirect_uri/],
  ])('refuses %s with 400 and a hint', async (_name, overrides, hint) => {
    const code = await h.code();
    const body = JSON.parse(JSON.stringify(h.codeRequest(code, overrides)));
    const r = await h.exchange(body);
    expectProblem(r, hint);
    // A refused request does not consume the code.
    expectTokenResponse(await h.exchange(h.codeRequest(code)));
  });

  it('refuses a second exchange of the same code and revokes the tokens issued from it', async () => {
    const code = await h.code();
    const first = await h.exchange(h.codeRequest(code));
    expectTokenResponse(first);
    expect((await h.account(first.json.access_token)).status).toBe(200);
    expectProblem(await h.exchange(h.codeRequest(code)), 'Authorization code has been revoked');
    expect((await h.account(first.json.access_token)).status).toBe(401);
    expectProblem(await h.exchange(h.refreshRequest(first.json.refresh_token)), 'Token has been revoked');
  });

  it('accepts a code just under 20 minutes old and refuses it at 20 minutes', async () => {
    const young = await h.code();
    const old = await h.code();
    await h.advance(CODE_TTL_SECONDS - 2);
    expectTokenResponse(await h.exchange(h.codeRequest(young)));
    await h.advance(2);
    expectProblem(await h.exchange(h.codeRequest(old)), 'Authorization code has expired');
  });
});

describe('refresh grant', () => {
  it('rotates: a new pair, the old refresh token refused afterwards, the old access token still valid', async () => {
    const first = await h.tokens();
    const r = await h.exchange(h.refreshRequest(first.refresh_token, { client_secret: h.env.CLIENT_SECRET }));
    expectTokenResponse(r);
    expect(r.json.refresh_token).not.toBe(first.refresh_token);
    expect(r.json.access_token).not.toBe(first.access_token);
    expectProblem(await h.exchange(h.refreshRequest(first.refresh_token)), 'Token has been revoked');
    expect((await h.account(first.access_token)).status).toBe(200);
    expect((await h.account(r.json.access_token)).status).toBe(200);
    expectTokenResponse(await h.exchange(h.refreshRequest(r.json.refresh_token)));
  });

  it('works without client_secret (§5.1 item 3) and form-encoded', async () => {
    const first = await h.tokens();
    const r = await h.postForm('/oauth2/access_token', h.refreshRequest(first.refresh_token) as Record<string, string>);
    expectTokenResponse(r);
  });

  it.each([
    ['client_secret wrong', { client_secret: 'nope' }, /client_secret/],
    ['client_secret a number', { client_secret: 7 }, /client_secret/],
    ['client_id wrong', { client_id: 'someone-else' }, /client_id/],
    ['redirect_uri wrong', { redirect_uri: 'https://evil.example/cb' }, 'Redirect URI is not associated with client'],
    ['refresh_token missing', { refresh_token: undefined }, /refresh_token/],
    ['refresh_token unknown', { refresh_token: 'x'.repeat(64) }, /Refresh token/],
    ['refresh_token an array', { refresh_token: ['a'] }, /refresh_token/],
  ])('refuses %s with 400', async (_name, overrides, hint) => {
    const first = await h.tokens();
    expectProblem(await h.exchange(JSON.parse(JSON.stringify(h.refreshRequest(first.refresh_token, overrides)))), hint);
    expectTokenResponse(await h.exchange(h.refreshRequest(first.refresh_token)));
  });

  it('accepts a matching redirect_uri on refresh', async () => {
    const first = await h.tokens();
    expectTokenResponse(await h.exchange(h.refreshRequest(first.refresh_token, { redirect_uri: h.env.REDIRECT_URI })));
  });

  it('expires 3 calendar months after issue, UTC (30 Nov + 3 months = 29 Feb of a leap year)', async () => {
    // Land on 2027-11-30T12:00Z (or the same date a later leap cycle if the real clock is already past it).
    let target = Date.UTC(2027, 10, 30, 12);
    while (target < Date.now() + 86_400_000) target = Date.UTC(new Date(target).getUTCFullYear() + 4, 10, 30, 12);
    await h.advance(Math.ceil((target - Date.now()) / 1000));
    const a = await h.tokens();
    const b = await h.tokens();
    const issued = a.server_time * 1000;
    const expiry = addCalendarMonthsUtc(issued, 3);
    expect(new Date(expiry).getUTCMonth()).toBe(1);
    expect(new Date(expiry).getUTCDate()).toBe(29);
    const lifetime = Math.floor((expiry - issued) / 1000);
    expect(lifetime).toBe(91 * 86_400); // not 90 days, not 3 × 30 days
    await h.advance(lifetime - 30);
    expectTokenResponse(await h.exchange(h.refreshRequest(a.refresh_token)));
    await h.advance(60);
    expectProblem(await h.exchange(h.refreshRequest(b.refresh_token)), 'Token has expired');
  });
});

describe('access token JWT', () => {
  it('is RS256-signed with the documented claims, exp = iat + expires_in by the emulator clock', async () => {
    await h.advance(3600);
    const t = await h.tokens();
    const { publicKey } = await signingKeys();
    const { payload, protectedHeader } = await jwtVerify(t.access_token, publicKey, {
      algorithms: ['RS256'], audience: h.env.CLIENT_ID, currentDate: new Date(t.server_time * 1000),
    });
    expect(protectedHeader.alg).toBe('RS256');
    expect(payload.aud).toBe(h.env.CLIENT_ID);
    expect(typeof payload.jti).toBe('string');
    expect(payload.iat).toBe(t.server_time);
    expect(payload.nbf).toBe(payload.iat);
    expect(payload.exp).toBe(payload.iat! + t.expires_in);
    expect(payload.sub).toBe(h.env.MANAGER_USER_ID);
    const control = await h.request('GET', '/_control');
    expect(payload.account_id).toBe(control.json.account.id);
    expect(payload.api_domain).toBe(new URL(h.url).host);
    expect(typeof payload.base_domain).toBe('string');
    expect(Array.isArray(payload.scopes)).toBe(true);
    expect((payload.scopes as unknown[]).every((s) => typeof s === 'string')).toBe(true);
    // Exported key material is a real RSA public key.
    expect(createPublicKey(await (await import('jose')).exportSPKI(publicKey)).asymmetricKeyType).toBe('rsa');
  });

  it('has a unique jti per token', async () => {
    const a = decodeJwt((await h.tokens()).access_token);
    const b = decodeJwt((await h.tokens()).access_token);
    expect(a.jti).not.toBe(b.jti);
    expect(decodeProtectedHeader((await h.tokens()).access_token).typ).toBe('JWT');
  });
});
