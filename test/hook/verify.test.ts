/**
 * verifyDisconnectHook and the signing helpers (§5.3), against vectors computed by an independent tool: openssl.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { disconnectHookSignature, signDisconnectHook, verifyDisconnectHook, HOOK_PARAMETERS } from '../../src/hook/index.js';

/** hex HMAC-SHA256 of `text` under `key`, by `openssl dgst -sha256 -hmac`. */
function openssl(text: string, key: string): string {
  const r = spawnSync('openssl', ['dgst', '-sha256', '-hmac', key], { input: text, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`openssl failed: ${r.stderr}`);
  return r.stdout.trim().split(/\s+/).pop()!;
}

const VECTORS = [
  { uuid: '9cfb86c6-7b54-407e-a0a2-6ffaa4f34b08', account: '96100314', secret: 'F4pQ0n2mXc7ZtR9sYbLk3Vw8JdHe1GuA6TfNoPiS5qWxCyBvKrEjMhUaDgIl' },
  { uuid: 'ed69af10-a1b6-428c-aa7c-14fcaf623d36', account: '1', secret: 'k' },
  { uuid: 'a', account: '2147483647', secret: 'secret with spaces and ünïcode' },
];

describe('disconnect hook signature', () => {
  it.each(VECTORS)('matches openssl for $uuid|$account', ({ uuid, account, secret }) => {
    const expected = openssl(`${uuid}|${account}`, secret);
    expect(expected).toMatch(/^[0-9a-f]{64}$/);
    expect(disconnectHookSignature(uuid, account, secret)).toBe(expected);
    expect(disconnectHookSignature(uuid, Number(account), secret)).toBe(expected);
  });
});

describe('verifyDisconnectHook', () => {
  const creds = { clientId: VECTORS[0]!.uuid, clientSecret: VECTORS[0]!.secret };
  const genuine = { account_id: VECTORS[0]!.account, client_id: creds.clientId, client_uuid: creds.clientId, signature: openssl(`${creds.clientId}|${VECTORS[0]!.account}`, creds.clientSecret) };

  it('accepts a genuine hook in every query shape, and upper-case hex', () => {
    expect(verifyDisconnectHook(genuine, creds)).toEqual({ ok: true, accountId: genuine.account_id, clientId: creds.clientId });
    expect(verifyDisconnectHook(new URLSearchParams(genuine), creds).ok).toBe(true);
    expect(verifyDisconnectHook(`?${new URLSearchParams(genuine)}`, creds).ok).toBe(true);
    expect(verifyDisconnectHook({ ...genuine, signature: genuine.signature.toUpperCase() }, creds).ok).toBe(true);
    expect(signDisconnectHook(genuine.account_id, creds)).toEqual(genuine);
  });

  it.each(HOOK_PARAMETERS)('refuses a hook without %s, naming it', (p) => {
    const q: Record<string, string> = { ...genuine };
    delete q[p];
    expect(verifyDisconnectHook(q, creds)).toMatchObject({ ok: false, reason: 'missing-parameter', parameter: p });
    expect(verifyDisconnectHook({ ...genuine, [p]: '' }, creds)).toMatchObject({ ok: false, reason: 'missing-parameter', parameter: p });
  });

  it('refuses a repeated parameter', () => {
    expect(verifyDisconnectHook({ ...genuine, account_id: ['1', genuine.account_id] }, creds)).toMatchObject({ ok: false, reason: 'repeated-parameter', parameter: 'account_id' });
  });

  it('refuses a foreign client_uuid even when correctly signed for it', () => {
    const foreign = 'ffffffff-7b54-407e-a0a2-6ffaa4f34b08';
    const signature = openssl(`${foreign}|${genuine.account_id}`, creds.clientSecret);
    expect(verifyDisconnectHook({ ...genuine, client_uuid: foreign, signature }, creds)).toMatchObject({ ok: false, reason: 'foreign-client-uuid' });
  });

  it('refuses wrong signatures: another secret, another account, the reversed order, truncated, not hex', () => {
    const bad = [
      openssl(`${creds.clientId}|${genuine.account_id}`, 'another secret'),
      openssl(`${creds.clientId}|1`, creds.clientSecret),
      openssl(`${genuine.account_id}|${creds.clientId}`, creds.clientSecret),
      genuine.signature.slice(0, 63),
      'z'.repeat(64),
    ];
    for (const signature of bad) expect(verifyDisconnectHook({ ...genuine, signature }, creds)).toMatchObject({ ok: false, reason: 'bad-signature' });
    expect(verifyDisconnectHook({ ...genuine, account_id: '1' }, creds)).toMatchObject({ ok: false, reason: 'bad-signature' });
  });

  it('needs both credentials', () => {
    expect(() => verifyDisconnectHook(genuine, { clientId: creds.clientId, clientSecret: '' })).toThrow(TypeError);
  });
});
