import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { Masker, maskSecret } from '../../src/secrets/mask.js';
import { targetFromEnv } from '../../src/targets/from-env.js';
import { HttpClient } from '../../src/targets/http.js';
import { TokenSource } from '../../src/targets/token-source.js';
import { TokenStore } from '../../src/secrets/token-store.js';

let emulator: RunningEmulator;
let client: HttpClient;
beforeAll(async () => {
  emulator = await startEmulator();
  client = new HttpClient();
});
afterAll(async () => {
  await client.close();
  await emulator.close();
});

async function refreshTokenFromCode(): Promise<string> {
  const env = emulator.env();
  const { code } = (await (await fetch(`${env.CONTROL_URL}/consent`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ client_id: env.CLIENT_ID, decision: 'allow' }) })).json()) as { code: string };
  const res = await fetch(`${env.BASE_URL}/oauth2/access_token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ client_id: env.CLIENT_ID, client_secret: env.CLIENT_SECRET, grant_type: 'authorization_code', code, redirect_uri: env.REDIRECT_URI }) });
  return ((await res.json()) as { refresh_token: string }).refresh_token;
}

describe('token source of remote runs', () => {
  it('seeds the store from REFRESH_TOKEN, rotates once per run, and reuses a fresh access token next run', async () => {
    const storePath = join(await mkdtemp(join(tmpdir(), 'token-source-')), 'tokens.json');
    const refreshToken = await refreshTokenFromCode();
    const { CONTROL_URL: _control, ...env } = emulator.env();
    const target = targetFromEnv({ ...env, REFRESH_TOKEN: refreshToken, TOKEN_STORE: storePath }, 'remote');
    const masker = new Masker();
    const source = new TokenSource(new TokenStore(storePath), target, client, masker);
    const [a, b] = await Promise.all([source.accessToken(), source.accessToken()]);
    expect(a).toBe(b);
    const stored = new TokenStore(storePath).read().tokens!;
    expect(stored.access_token).toBe(a);
    expect(stored.refresh_token).not.toBe(refreshToken); // rotated, and the new one is on disk
    expect(masker.mask(a)).toBe(maskSecret(a));
    const account = await fetch(`${env.BASE_URL}/api/v4/account`, { headers: { authorization: `Bearer ${a}` } });
    expect(account.status).toBe(200);

    // A second run: the stored access token is still fresh, so no refresh is spent.
    const again = await new TokenSource(new TokenStore(storePath), target, client, new Masker()).accessToken();
    expect(again).toBe(a);
    expect(new TokenStore(storePath).read().tokens!.refresh_token).toBe(stored.refresh_token);
  });

  it('says why when the stored refresh token no longer works', async () => {
    const storePath = join(await mkdtemp(join(tmpdir(), 'token-source-')), 'tokens.json');
    const target = targetFromEnv({ ...emulator.env(), REFRESH_TOKEN: 'dead-refresh-token-value', TOKEN_STORE: storePath }, 'remote');
    await expect(new TokenSource(new TokenStore(storePath), target, client, new Masker()).accessToken()).rejects.toThrow(/refresh exchange answered 400/);
  });
});
