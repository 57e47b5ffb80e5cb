/**
 * The disconnect hook after the secret key is regenerated (§2.1, §5.3): the emulator signs it with the new key, and
 * under `hook-signed-with-old-secret` with the old one; its client_id is the integration ID, and under
 * `hook-client-id-other` it is not. With the checks that judge it: `hookSignatureValid` and `hookSignatureNotUnder`.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { hookParameterEquals, hookParameterRecorded, hookSignatureNotUnder, hookSignatureValid } from '../../src/checks/hook.js';
import { HookListener } from '../../src/hook/listener.js';
import type { ReceivedHook } from '../../src/model/context.js';
import { Harness } from '../emulator/helpers.js';

let h: Harness;
let listener: HookListener;
let side: number;
beforeAll(async () => {
  h = await Harness.start();
  listener = await HookListener.start();
});
afterAll(async () => {
  await listener.close();
  await h.close();
});
beforeEach(async () => {
  await h.reset();
  expect((await h.postJson('/_control/hook-url', { hook_url: listener.url })).status).toBe(200);
  side = (await h.request('GET', '/_control/accounts')).json.accounts[1].id as number;
});
afterEach(async () => {
  h.emu.faults.clear();
  h.emu.variations.clear();
  await h.postJson('/_control/secret', { client_secret: h.env.CLIENT_SECRET });
});

/** Regenerates the secret, installs the integration in a side account and disconnects it there: the hook and the new key. */
async function hookAfterRegeneration(): Promise<{ hook: ReceivedHook; fresh: string }> {
  const fresh = (await h.postJson('/_control/secret', {})).json.client_secret as string;
  expect(fresh).not.toBe(h.env.CLIENT_SECRET);
  expect((await h.postJson('/_control/consent', { client_id: h.env.CLIENT_ID, decision: 'allow', account_id: side })).status).toBe(200);
  expect((await h.postJson('/_control/disconnect', { account_id: side })).status).toBe(200);
  const hook = await listener.next((x) => x.query.get('account_id') === String(side), 2_000);
  expect(hook).toBeDefined();
  return { hook: hook!, fresh };
}

const verdict = (f: { verdict: string }) => f.verdict;

describe('the disconnect hook after regeneration', () => {
  it('is signed with the new key, not the old one', async () => {
    const { hook, fresh } = await hookAfterRegeneration();
    expect(verdict(hookSignatureValid(fresh)(hook))).toBe('passed');
    expect(verdict(hookSignatureNotUnder(h.env.CLIENT_SECRET!, 'the old secret key')(hook))).toBe('passed');
    expect(verdict(hookParameterEquals('client_id', h.env.CLIENT_ID!, 'the integration ID')(hook))).toBe('passed');
  });

  it('is signed with the old key under hook-signed-with-old-secret', async () => {
    h.emu.faults.enable('hook-signed-with-old-secret');
    const { hook, fresh } = await hookAfterRegeneration();
    expect(verdict(hookSignatureValid(fresh)(hook))).toBe('failed');
    const old = hookSignatureNotUnder(h.env.CLIENT_SECRET!, 'the old secret key')(hook);
    expect(old).toMatchObject({ verdict: 'failed', check: 'not signed with the old secret key' });
    expect(old.detail).not.toContain(h.env.CLIENT_SECRET!);
  });

  it('names another client_id under the hook-client-id-other variation, client_uuid and signature still right', async () => {
    h.emu.variations.enable('hook-client-id-other');
    const { hook, fresh } = await hookAfterRegeneration();
    expect(verdict(hookParameterEquals('client_id', h.env.CLIENT_ID!, 'the integration ID')(hook))).toBe('failed');
    expect(verdict(hookParameterRecorded('client_id', h.env.CLIENT_ID!, 'the integration ID')(hook))).toBe('informational');
    expect(hook.query.get('client_uuid')).toBe(h.env.CLIENT_ID);
    expect(verdict(hookSignatureValid(fresh)(hook))).toBe('passed');
  });
});

describe('hookSignatureNotUnder', () => {
  const query = (q: Record<string, string>): ReceivedHook => ({ method: 'GET', path: '/h', query: new URLSearchParams(q), receivedAt: 0 });

  it('fails when a parameter it needs is missing', () => {
    expect(verdict(hookSignatureNotUnder('k'.repeat(32), 'the old key')(query({ account_id: '1', signature: 'ab' })))).toBe('failed');
  });

  it('passes a signature under another key, fails one under this key (hex compared case-insensitively)', async () => {
    const { disconnectHookSignature } = await import('../../src/hook/sign.js');
    const key = 'k'.repeat(32);
    const under = disconnectHookSignature('uuid-1', '7', key).toUpperCase();
    expect(verdict(hookSignatureNotUnder(key, 'the old key')(query({ client_uuid: 'uuid-1', account_id: '7', signature: under })))).toBe('failed');
    expect(verdict(hookSignatureNotUnder('j'.repeat(32), 'the old key')(query({ client_uuid: 'uuid-1', account_id: '7', signature: under })))).toBe('passed');
  });
});
