/**
 * The access-lifecycle control API and the emulator behaviour behind it: long-lived tokens, deactivation,
 * disconnection with the hook, secret regeneration, account choices, and the refresh token's calendar months.
 */
import { createHmac } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { addCalendarMonthsUtc } from '../../src/emulator/clock.js';
import { HookListener } from '../../src/hook/listener.js';
import { verifyDisconnectHook } from '../../src/hook/verify.js';
import { Harness } from '../emulator/helpers.js';

const DAY = 86_400;

describe('access lifecycle control API', () => {
  let h: Harness;
  let accounts: { id: number; platform: number; admin_role: string }[];
  beforeAll(async () => {
    h = await Harness.start({ seed: 5 });
    accounts = (await h.request('GET', '/_control/accounts')).json.accounts;
  });
  afterAll(() => h.close());
  afterEach(async () => { await h.reset(); });

  const now = async () => (await h.request('GET', '/_control/clock')).json.now as number;

  it('lists the administrator\'s accounts: developer (global), regional (platform 1), and one where he is only a member', () => {
    expect(accounts.map((a) => [a.platform, a.admin_role])).toEqual([[2, 'administrator'], [1, 'administrator'], [2, 'member']]);
  });

  it('creates long-lived tokens only with an expiry from 1 day to 5 years, shows each once, lists and revokes them', async () => {
    const t0 = await now();
    for (const expires_at of [t0 + DAY - 60, t0 + 5 * 366 * DAY + DAY, 'soon', undefined]) {
      expect((await h.postJson('/_control/long-lived-tokens', { expires_at })).status).toBe(400);
    }
    const shortest = await h.postJson('/_control/long-lived-tokens', { expires_at: t0 + DAY + 5 });
    const longest = await h.postJson('/_control/long-lived-tokens', { expires_at: t0 + 5 * 365 * DAY });
    expect([shortest.status, longest.status]).toEqual([201, 201]);
    expect(shortest.json).toMatchObject({ expires_at: t0 + DAY + 5, revoked_at: null });
    expect(shortest.json).not.toHaveProperty('refresh_token');
    expect((await h.account(shortest.json.long_lived_token)).status).toBe(200);

    const list = await h.request('GET', '/_control/long-lived-tokens');
    expect(list.json.tokens.map((x: { id: string }) => x.id).sort()).toEqual([shortest.json.id, longest.json.id].sort());
    expect(list.text).not.toContain(shortest.json.long_lived_token);
    expect(list.json.tokens[0]).toHaveProperty('issued_at');

    const revoked = await h.request('DELETE', `/_control/long-lived-tokens/${shortest.json.id}`);
    expect(revoked.json.revoked_at).toBeGreaterThan(0);
    expect((await h.account(shortest.json.long_lived_token)).status).toBe(401);
    expect((await h.account(longest.json.long_lived_token)).status).toBe(200);
    expect((await h.request('DELETE', '/_control/long-lived-tokens/nope')).status).toBe(404);
    // No refresh with a long-lived token.
    expect((await h.exchange(h.refreshRequest(longest.json.long_lived_token))).status).toBe(400);
  });

  it('deactivation revokes the installation\'s tokens and codes in that account only', async () => {
    const regional = accounts[1]!.id;
    const mainTokens = await h.tokens();
    const consent = await h.postJson('/_control/consent', { client_id: h.env.CLIENT_ID, decision: 'allow', account_id: regional });
    const pair = (await h.exchange(h.codeRequest(consent.json.code))).json;
    const unused = await h.postJson('/_control/consent', { client_id: h.env.CLIENT_ID, decision: 'allow', account_id: regional });
    const d = await h.postJson('/_control/deactivate', { account_id: regional });
    expect(d.json).toMatchObject({ account_id: regional, was_installed: true });
    expect((await h.account(pair.access_token)).status).toBe(401);
    expect((await h.exchange(h.refreshRequest(pair.refresh_token))).status).toBe(400);
    expect((await h.exchange(h.codeRequest(unused.json.code))).status).toBe(400);
    expect((await h.account(mainTokens.access_token)).status).toBe(200);
  });

  it('disconnect sends the signed GET hook to the hook URL, revokes, and reports the delivery', async () => {
    const listener = await HookListener.start();
    try {
      expect((await h.postJson('/_control/hook-url', { hook_url: 'ftp://x' })).status).toBe(400);
      expect((await h.postJson('/_control/hook-url', { hook_url: listener.url })).json.hook_url).toBe(listener.url);
      const regional = accounts[1]!.id;
      await h.postJson('/_control/consent', { client_id: h.env.CLIENT_ID, decision: 'allow', account_id: regional });
      const d = await h.postJson('/_control/disconnect', { account_id: regional });
      expect(d.json).toMatchObject({ account_id: regional, was_installed: true, hook: { status: 200 } });
      const hook = await listener.next(undefined, 500);
      expect(hook?.method).toBe('GET');
      const q = hook!.query;
      expect(q.get('account_id')).toBe(String(regional));
      expect(q.get('client_uuid')).toBe(h.env.CLIENT_ID);
      expect(q.get('signature')).toBe(createHmac('sha256', h.env.CLIENT_SECRET!).update(`${h.env.CLIENT_ID}|${regional}`).digest('hex'));
      expect(verifyDisconnectHook(q, { clientId: h.env.CLIENT_ID!, clientSecret: h.env.CLIENT_SECRET! }).ok).toBe(true);
      const integrations = (await h.request('GET', '/_control/integrations')).json.integrations;
      expect(integrations[0].installed_in).not.toContain(regional);
    } finally {
      await h.postJson('/_control/hook-url', { hook_url: null });
      await listener.close();
    }
  });

  it('disconnect without a hook URL answers without a hook; an unknown account is a 404', async () => {
    const d = await h.postJson('/_control/disconnect', {});
    expect(d.status).toBe(200);
    expect(d.json).not.toHaveProperty('hook');
    expect((await h.postJson('/_control/disconnect', { account_id: 1 })).status).toBe(404);
  });

  it('regenerating the secret refuses the old one, accepts the new one, and can put the old one back', async () => {
    const old = h.env.CLIENT_SECRET!;
    const r = await h.postJson('/_control/secret', {});
    const fresh = r.json.client_secret as string;
    expect(fresh).toMatch(/^[A-Za-z0-9]{64}$/);
    expect(fresh).not.toBe(old);
    expect((await h.exchange(h.codeRequest(await h.code()))).status).toBe(400);
    expect((await h.exchange(h.codeRequest(await h.code(), { client_secret: fresh }))).status).toBe(200);
    expect((await h.postJson('/_control/secret', { client_secret: 'short' })).status).toBe(400);
    await h.postJson('/_control/secret', { client_secret: old });
    expect((await h.exchange(h.codeRequest(await h.code()))).status).toBe(200);
  });

  it('offers a private integration exactly the developer account, and refuses a consent in another', async () => {
    const integrations = (await h.request('GET', '/_control/integrations')).json.integrations;
    const priv = integrations.find((i: { private: boolean }) => i.private);
    const ok = await h.postJson('/_control/consent', { client_id: priv.client_id, decision: 'allow' });
    expect(ok.json.account_id).toBe(accounts[0]!.id);
    expect((await h.postJson('/_control/consent', { client_id: priv.client_id, decision: 'allow', account_id: accounts[1]!.id })).status).toBe(400);
    // A member-only account is never a choice.
    expect((await h.postJson('/_control/consent', { client_id: h.env.CLIENT_ID, decision: 'allow', account_id: accounts[2]!.id })).status).toBe(400);
  });

  it('sends platform 1 for the regional account and from_widget only for a widget installation', async () => {
    const regional = await h.postJson('/_control/consent', { client_id: h.env.CLIENT_ID, decision: 'allow', account_id: accounts[1]!.id });
    expect(new URL(regional.json.location).searchParams.get('platform')).toBe('1');
    expect(new URL(regional.json.location).searchParams.has('from_widget')).toBe(false);
    const widget = await h.postJson('/_control/consent', { client_id: h.env.CLIENT_ID, decision: 'allow', widget: true });
    expect(new URL(widget.json.location).searchParams.get('from_widget')).toBe('1');
    expect((await h.postJson('/_control/consent', { client_id: h.env.CLIENT_ID, decision: 'allow', widget: 'yes' })).status).toBe(400);
  });

  it('expires a refresh token at issue + 3 calendar months (UTC) on the clock, and a code at 20 minutes', async () => {
    const issued = (await now()) * 1000;
    const [a, b] = [await h.tokens(), await h.tokens()];
    const lifetime = Math.floor((addCalendarMonthsUtc(issued, 3) - issued) / 1000);
    expect(lifetime).toBeGreaterThanOrEqual(89 * DAY);
    expect(lifetime).toBeLessThanOrEqual(92 * DAY);
    await h.advance(lifetime - 60);
    expect((await h.exchange(h.refreshRequest(a.refresh_token))).status).toBe(200);
    await h.advance(120);
    const late = await h.exchange(h.refreshRequest(b.refresh_token));
    expect(late.status).toBe(400);
    expect(late.json.hint).toBe('Token has expired');
    const code = await h.code();
    await h.advance(19 * 60);
    const code2 = await h.code();
    await h.advance(60);
    expect((await h.exchange(h.codeRequest(code))).status).toBe(400);
    expect((await h.exchange(h.codeRequest(code2))).status).toBe(200);
  });
});
