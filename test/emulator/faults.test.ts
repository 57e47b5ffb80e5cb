/**
 * Each fault must change observable behaviour: every case runs its probe with the fault off (the strict
 * behaviour) and on (the broken one). A final check makes sure no registered fault goes untested.
 */
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FAULTS, type FaultName } from '../../src/emulator/index.js';
import { CODE_TTL_SECONDS, Harness } from './helpers.js';

let h: Harness;
beforeAll(async () => { h = await Harness.start(); });
afterAll(async () => { await h.close(); });
beforeEach(async () => { await h.reset(); });

interface Case {
  /** Runs the scenario and returns what distinguishes strict from broken. */
  probe(): Promise<unknown>;
  strict: unknown;
  broken: unknown;
}

const status = (r: { status: number }): number => r.status;

const CASES: Record<FaultName, Case> = {
  'accept-reused-code': {
    async probe() { const t = await h.tokens(); return status(await h.exchange(h.codeRequest(t.code))); },
    strict: 400, broken: 200,
  },
  'no-revoke-on-code-reuse': {
    async probe() {
      const t = await h.tokens();
      await h.exchange(h.codeRequest(t.code));
      return status(await h.account(t.access_token));
    },
    strict: 401, broken: 200,
  },
  'accept-expired-code': {
    async probe() { const c = await h.code(); await h.advance(CODE_TTL_SECONDS + 1); return status(await h.exchange(h.codeRequest(c))); },
    strict: 400, broken: 200,
  },
  'skip-redirect-uri-check': {
    async probe() { return status(await h.exchange(h.codeRequest(await h.code(), { redirect_uri: 'https://evil.example/' }))); },
    strict: 400, broken: 200,
  },
  'skip-client-id-check': {
    async probe() { return status(await h.exchange(h.codeRequest(await h.code(), { client_id: 'someone' }))); },
    strict: 400, broken: 200,
  },
  'skip-client-secret-check': {
    async probe() {
      const wrong = status(await h.exchange(h.codeRequest(await h.code(), { client_secret: 'wrong' })));
      const missing = status(await h.exchange(h.codeRequest(await h.code(), { client_secret: undefined })));
      return [wrong, missing];
    },
    strict: [400, 400], broken: [200, 200],
  },
  'accept-unknown-grant-type': {
    async probe() { return status(await h.exchange(h.codeRequest(await h.code(), { grant_type: 'password' }))); },
    strict: 400, broken: 200,
  },
  'accept-wrong-types': {
    async probe() { return status(await h.exchange(h.codeRequest(await h.code(), { client_id: [h.env.CLIENT_ID] }))); },
    strict: 400, broken: 200,
  },
  'reject-form-encoded': {
    async probe() { return status(await h.postForm('/oauth2/access_token', h.codeRequest(await h.code()) as Record<string, string>)); },
    strict: 200, broken: 400,
  },
  'reuse-old-refresh-token': {
    async probe() {
      const t = await h.tokens();
      await h.exchange(h.refreshRequest(t.refresh_token));
      return status(await h.exchange(h.refreshRequest(t.refresh_token)));
    },
    strict: 400, broken: 200,
  },
  'refresh-returns-same-token': {
    async probe() { const t = await h.tokens(); return (await h.exchange(h.refreshRequest(t.refresh_token))).json.refresh_token === t.refresh_token; },
    strict: false, broken: true,
  },
  'refresh-requires-secret': {
    async probe() { const t = await h.tokens(); return status(await h.exchange(h.refreshRequest(t.refresh_token))); },
    strict: 200, broken: 400,
  },
  'new-refresh-token-dead': {
    async probe() {
      const t = await h.tokens();
      const next = (await h.exchange(h.refreshRequest(t.refresh_token))).json.refresh_token;
      return status(await h.exchange(h.refreshRequest(next)));
    },
    strict: 200, broken: 400,
  },
  'accept-expired-refresh-token': {
    async probe() { const t = await h.tokens(); await h.advance(93 * 86_400); return status(await h.exchange(h.refreshRequest(t.refresh_token))); },
    strict: 400, broken: 200,
  },
  'expires-in-as-string': { async probe() { return typeof (await h.tokens()).expires_in; }, strict: 'number', broken: 'string' },
  'drop-server-time': { async probe() { return 'server_time' in (await h.tokens()); }, strict: true, broken: false },
  'server-time-in-ms': { async probe() { return (await h.tokens()).server_time > 1e11; }, strict: false, broken: true },
  'token-type-mac': { async probe() { return (await h.exchange(h.codeRequest(await h.code()))).json.token_type; }, strict: 'Bearer', broken: 'mac' },
  'drop-refresh-token': { async probe() { return 'refresh_token' in (await h.tokens()); }, strict: true, broken: false },
  'access-token-not-jwt': {
    async probe() {
      const t = await h.tokens();
      return [t.access_token.split('.').length, status(await h.account(t.access_token))];
    },
    strict: [3, 200], broken: [1, 200],
  },
  'jwt-exp-mismatch': {
    async probe() { const c = decodeJwt((await h.tokens()).access_token); return c.exp! - c.iat!; },
    strict: 86_400, broken: 90_000,
  },
  'error-as-html': {
    async probe() { return (await h.exchange({ grant_type: 'authorization_code' })).contentType.split(';')[0]; },
    strict: 'application/json', broken: 'text/html',
  },
  'error-status-200': {
    async probe() { const r = await h.exchange({ grant_type: 'authorization_code' }); return [r.status, r.json.status]; },
    strict: [400, 400], broken: [200, 400],
  },
  'crash-on-malformed-body': {
    async probe() {
      const r = await h.request('POST', '/oauth2/access_token', { body: '{"client_id":', headers: { 'content-type': 'application/json' } });
      return r.status;
    },
    strict: 400, broken: 500,
  },
  'echo-secret-in-error': {
    async probe() {
      const code = await h.code();
      const r = await h.exchange(h.codeRequest(code, { redirect_uri: 'https://evil.example/' }));
      return [r.text.includes(code), r.text.includes(h.env.CLIENT_SECRET!)];
    },
    strict: [false, false], broken: [true, true],
  },
  'drop-state': {
    async probe() {
      const r = await h.postJson('/_control/consent', { client_id: h.env.CLIENT_ID, decision: 'allow', state: 'st' });
      return new URL(r.json.location).searchParams.get('state');
    },
    strict: 'st', broken: null,
  },
  'bearer-not-checked': {
    async probe() { return [status(await h.account(undefined)), status(await h.account('garbage'))]; },
    strict: [401, 401], broken: [200, 200],
  },
  'ignore-token-expiry': {
    async probe() { const t = await h.tokens(); await h.advance(86_400); return status(await h.account(t.access_token)); },
    strict: 401, broken: 200,
  },
  'accept-revoked-token': {
    async probe() {
      const t = await h.tokens();
      await h.exchange(h.codeRequest(t.code));
      return status(await h.account(t.access_token));
    },
    strict: 401, broken: 200,
  },
};

describe('fault switches', () => {
  it('every registered fault has a case, and every case a registered fault', () => {
    expect(Object.keys(CASES).sort()).toEqual(FAULTS.map((f) => f.name).sort());
    for (const f of FAULTS) expect(f.description.length).toBeGreaterThan(10);
  });

  it.each(FAULTS.map((f) => [f.name] as const))('%s breaks its behaviour only when on', async (name) => {
    const c = CASES[name];
    expect(await c.probe()).toEqual(c.strict);
    await h.reset();
    const r = await h.postJson('/_control/faults', { enable: [name] });
    expect(r.json.active).toEqual([name]);
    expect(await c.probe()).toEqual(c.broken);
  });
});
