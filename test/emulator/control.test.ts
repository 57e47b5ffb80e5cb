import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FAULTS, startEmulator, VARIATIONS } from '../../src/emulator/index.js';
import { Harness } from './helpers.js';

let h: Harness;
beforeAll(async () => { h = await Harness.start(); });
afterAll(async () => { await h.close(); });
beforeEach(async () => { await h.reset(); });

describe('GET /_control', () => {
  it('describes the emulator without secrets', async () => {
    const r = await h.request('GET', '/_control');
    expect(r.status).toBe(200);
    expect(r.contentType).toMatch(/^application\/json\b/);
    expect(r.json).toMatchObject({
      now: expect.any(Number),
      faults: [],
      integration: { client_id: h.env.CLIENT_ID, redirect_uri: h.env.REDIRECT_URI },
      account: { id: expect.any(Number), subdomain: expect.any(String), amojo_id: h.env.CHAT_ACCOUNT_ID },
    });
    for (const secret of h.emu.issuedSecrets()) expect(r.text).not.toContain(secret);
  });
});

/** An answer whose `now` is the real time: between this process's readings before and after the request. */
async function expectRealTime<T extends { json: { now: number } }>(request: () => Promise<T>): Promise<T> {
  const before = Math.floor(Date.now() / 1000);
  const r = await request();
  expect(r.json.now).toBeGreaterThanOrEqual(before);
  expect(r.json.now).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000));
  return r;
}

describe('clock', () => {
  it('advances, reads and resets', async () => {
    // The emulator shares this process's clock: it moved by the hour and by the real time the requests took, however
    // long that was on a loaded machine (a second more for the rounding of whole seconds).
    const t0 = Date.now();
    const start = (await h.request('GET', '/_control/clock')).json.now;
    const adv = await h.advance(3600);
    const took = Math.ceil((Date.now() - t0) / 1000);
    expect(adv.status).toBe(200);
    expect(adv.json.now - start).toBeGreaterThanOrEqual(3600);
    expect(adv.json.now - start).toBeLessThanOrEqual(3600 + took + 1);
    expect((await h.request('GET', '/_control')).json.now).toBeGreaterThanOrEqual(start + 3600);
    await expectRealTime(() => h.request('POST', '/_control/clock/reset'));
  });

  it.each([[-1], [1.5], ['10'], [null], [1e300]])('refuses advance_seconds %j with 400', async (n) => {
    const r = await h.postJson('/_control/clock', { advance_seconds: n });
    expect(r.status).toBe(400);
    expect(r.json.detail).toMatch(/advance_seconds/);
  });

  it('refuses a missing body with 400', async () => {
    expect((await h.request('POST', '/_control/clock')).status).toBe(400);
    expect((await h.postJson('/_control/clock', [])).status).toBe(400);
  });
});

describe('consent', () => {
  it('on allow redirects with code, referer, state and platform', async () => {
    const r = await h.postJson('/_control/consent', { client_id: h.env.CLIENT_ID, decision: 'allow', state: 'a b&c=d' });
    expect(r.status).toBe(200);
    const loc = new URL(r.json.location);
    expect(`${loc.origin}${loc.pathname}`).toBe(h.env.REDIRECT_URI);
    expect(loc.searchParams.get('code')).toBe(r.json.code);
    const developer = (await h.request('GET', '/_control/accounts')).json.accounts[0];
    expect(loc.searchParams.get('referer')).toBe(`${new URL(h.url).host}/_accounts/${developer.subdomain}`);
    expect(loc.searchParams.get('state')).toBe('a b&c=d');
    expect(loc.searchParams.get('platform')).toBe('2');
    expect(loc.searchParams.has('from_widget')).toBe(false);
    expect(h.emu.issuedSecrets()).toContain(r.json.code);
  });

  it('leaves state out when none was passed', async () => {
    const r = await h.postJson('/_control/consent', { client_id: h.env.CLIENT_ID, decision: 'allow' });
    expect(new URL(r.json.location).searchParams.has('state')).toBe(false);
  });

  it('on deny redirects with error=access_denied and state, no code', async () => {
    const r = await h.postJson('/_control/consent', { client_id: h.env.CLIENT_ID, decision: 'deny', state: 's1' });
    expect(r.status).toBe(200);
    expect(r.json.code).toBeUndefined();
    const loc = new URL(r.json.location);
    expect(loc.searchParams.get('error')).toBe('access_denied');
    expect(loc.searchParams.get('state')).toBe('s1');
    expect(loc.searchParams.has('code')).toBe(false);
    const bare = await h.postJson('/_control/consent', { client_id: h.env.CLIENT_ID, decision: 'deny' });
    expect([...new URL(bare.json.location).searchParams.keys()]).toEqual(['error']);
  });

  it('answers 404 for an unknown client and 400 for bad input', async () => {
    expect((await h.postJson('/_control/consent', { client_id: 'nobody', decision: 'allow' })).status).toBe(404);
    expect((await h.postJson('/_control/consent', { client_id: h.env.CLIENT_ID, decision: 'maybe' })).status).toBe(400);
    expect((await h.postJson('/_control/consent', { client_id: h.env.CLIENT_ID })).status).toBe(400);
    expect((await h.postJson('/_control/consent', { client_id: 5, decision: 'allow' })).status).toBe(400);
    expect((await h.postJson('/_control/consent', { client_id: h.env.CLIENT_ID, decision: 'allow', state: 5 })).status).toBe(400);
  });
});

describe('faults', () => {
  it('lists available and active faults, enables and disables', async () => {
    const list = await h.request('GET', '/_control/faults');
    expect(list.json.available).toEqual(FAULTS);
    expect(list.json.active).toEqual([]);
    const on = await h.postJson('/_control/faults', { enable: ['drop-server-time', 'token-type-mac'] });
    expect(on.status).toBe(200);
    expect(on.json.active).toEqual(expect.arrayContaining(['drop-server-time', 'token-type-mac']));
    expect(h.emu.faults.isOn('drop-server-time')).toBe(true);
    const off = await h.postJson('/_control/faults', { disable: ['drop-server-time'] });
    expect(off.json.active).toEqual(['token-type-mac']);
    expect((await h.request('GET', '/_control')).json.faults).toEqual(['token-type-mac']);
  });

  it('refuses an unknown fault with 400 naming it, changing nothing', async () => {
    const r = await h.postJson('/_control/faults', { enable: ['drop-server-time', 'no-such-fault'] });
    expect(r.status).toBe(400);
    expect(r.json.detail).toContain('no-such-fault');
    expect(h.emu.faults.active()).toEqual([]);
    expect((await h.postJson('/_control/faults', { enable: 'drop-server-time' })).status).toBe(400);
  });

  it('is also switchable through the RunningEmulator object', async () => {
    h.emu.faults.enable('token-type-mac');
    expect((await h.request('GET', '/_control/faults')).json.active).toEqual(['token-type-mac']);
    h.emu.faults.disable('token-type-mac');
    expect(h.emu.faults.active()).toEqual([]);
    expect(() => h.emu.faults.enable('nope')).toThrow(/nope/);
  });
});

describe('variations', () => {
  it('lists, enables and disables allowed variations as the faults are, refusing an unknown name', async () => {
    const list = await h.request('GET', '/_control/variations');
    expect(list.json.available).toEqual(VARIATIONS);
    const on = await h.postJson('/_control/variations', { enable: ['json-members-reordered'] });
    expect(on.json.active).toEqual(['json-members-reordered']);
    expect(h.emu.variations.isOn('json-members-reordered')).toBe(true);
    expect((await h.request('GET', '/_control')).json.variations).toEqual(['json-members-reordered']);
    const bad = await h.postJson('/_control/variations', { enable: ['no-such-variation'], disable: ['json-members-reordered'] });
    expect(bad.status).toBe(400);
    expect(bad.json.detail).toContain('unknown variation: no-such-variation');
    expect(h.emu.variations.active()).toEqual(['json-members-reordered']);
    await h.postJson('/_control/reset', {});
    expect(h.emu.variations.active()).toEqual([]);
  });
});

describe('reset', () => {
  it('clears codes, tokens, faults and clock; keeps the integration and secrets', async () => {
    const code = await h.code();
    const t = await h.tokens();
    await h.advance(999);
    await h.postJson('/_control/faults', { enable: ['token-type-mac'] });
    const r = await expectRealTime(() => h.request('POST', '/_control/reset'));
    expect(r.status).toBe(200);
    expect(r.json.faults).toEqual([]);
    expect((await h.exchange(h.codeRequest(code))).status).toBe(400);
    expect((await h.exchange(h.refreshRequest(t.refresh_token))).status).toBe(400);
    expect(h.emu.env()).toEqual(h.env);
    expect((await h.exchange(h.codeRequest(await h.code()))).status).toBe(200);
    // Secrets issued before the reset stay listed: they may already be in a report.
    expect(h.emu.issuedSecrets()).toEqual(expect.arrayContaining([code, t.access_token, t.refresh_token]));
  });

  it('restores the faults the emulator was started with', async () => {
    const e = await startEmulator({ faults: ['drop-server-time'] });
    try {
      await fetch(`${e.url}/_control/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"disable":["drop-server-time"]}' });
      expect(e.faults.active()).toEqual([]);
      await fetch(`${e.url}/_control/reset`, { method: 'POST' });
      expect(e.faults.active()).toEqual(['drop-server-time']);
    } finally {
      await e.close();
    }
  });
});

describe('startEmulator', () => {
  it('exposes env() with the docs/design.md §4 keys and no key that makes no sense', async () => {
    const env = h.emu.env();
    expect(Object.keys(env).sort()).toEqual([
      'AUTH_URL', 'BASE_URL', 'BASE_URL_2', 'BOT_ID', 'CHANNEL_ID', 'CHANNEL_SECRET', 'CHAT_ACCOUNT_ID', 'CHAT_URL', 'CLIENT_ID',
      'CLIENT_SECRET', 'CONFORMANCE_BROWSER', 'CONFORMANCE_TARGET', 'CONTROL_URL', 'EFFECT_WINDOW_MS', 'HOOK_LISTEN', 'MANAGER_USER_ID',
      'MEMBER_ACCOUNT', 'RATE_LIMIT_RPS', 'REDIRECT_URI',
    ]);
    // The kit listens for the disconnect hook on a free loopback port; the page is a real one, so browser rules run.
    expect(env.HOOK_LISTEN).toBe('127.0.0.1:0');
    expect(env.CONFORMANCE_BROWSER).toBe('1');
    expect(env.CONFORMANCE_TARGET).toBe('remote');
    expect(env.BASE_URL).toBe(h.url);
    expect(env.AUTH_URL).toBe(h.url);
    expect(env.CHAT_URL).toBe(h.url);
    expect(env.CONTROL_URL).toBe(`${h.url}/_control`);
    // A second account's own address and the account where the administrator is only a member (test/emulator/account-address.test.ts).
    expect(env.BASE_URL_2).toMatch(new RegExp(`^${h.url}/_accounts/emu[a-z]+$`));
    expect(env.MEMBER_ACCOUNT).toMatch(/^\d+$/);
    expect(h.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(env.CLIENT_ID).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(env.CLIENT_SECRET!.length).toBeGreaterThanOrEqual(40);
    expect(env.CHANNEL_SECRET!.length).toBeGreaterThanOrEqual(40);
    expect(env.REDIRECT_URI).toBe('https://integration.example/oauth/callback');
    expect(env.MANAGER_USER_ID).toMatch(/^\d+$/);
    expect(h.emu.issuedSecrets()).toEqual(expect.arrayContaining([env.CLIENT_SECRET, env.CHANNEL_SECRET]));
  });

  it('makes the non-secret world reproducible with a seed, never the secrets', async () => {
    const [a, b] = await Promise.all([startEmulator({ seed: 7 }), startEmulator({ seed: 7 })]);
    try {
      const ea = a.env();
      const eb = b.env();
      for (const k of ['CLIENT_ID', 'CHANNEL_ID', 'CHAT_ACCOUNT_ID', 'BOT_ID', 'MANAGER_USER_ID']) expect(ea[k]).toBe(eb[k]);
      expect(ea.CLIENT_SECRET).not.toBe(eb.CLIENT_SECRET);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('throws on an unknown start fault and closes idempotently', async () => {
    await expect(startEmulator({ faults: ['bogus'] })).rejects.toThrow(/bogus/);
    const e = await startEmulator();
    await Promise.all([e.close(), e.close()]);
  });
});
