/**
 * `conformance authorize` against the emulator: the user's Allow (acted through the control API) reaches the
 * kit's listener, the state is checked, and a working pair lands in the token store; a forged state is refused.
 */
import { spawn } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { Agent, fetch as undiciFetch } from 'undici';
import { TokenStore } from '../../src/secrets/token-store.js';
import { BIN } from './helpers.js';

let emulator: RunningEmulator;
beforeAll(async () => {
  emulator = await startEmulator();
});
afterAll(() => emulator?.close());

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as { port: number };
  await new Promise((r) => s.close(r));
  return port;
}

/** Runs authorize; when it prints the grant URL, `act` plays the user and the redirect forwarding. */
function authorize(storePath: string, port: number, act: (grantUrl: URL) => Promise<void>, env: Record<string, string> = emulator.env()) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, ['--', BIN, 'authorize', '--listen', `127.0.0.1:${port}`, '--token-store', storePath, '--timeout', '20'], {
      env: { PATH: process.env.PATH, ...env },
    });
    let stdout = '';
    let stderr = '';
    let acted = false;
    child.stdout.on('data', (d) => {
      stdout += d;
      const m = /(http\S+\/oauth\?\S+)/.exec(stdout);
      if (m && !acted) {
        acted = true;
        void act(new URL(m[1]!));
      }
    });
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

async function consent(state: string, env: Record<string, string> = emulator.env(), send: typeof fetch = fetch): Promise<URL> {
  const res = await send(`${env.CONTROL_URL}/consent`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ client_id: env.CLIENT_ID, decision: 'allow', state }) });
  return new URL(((await res.json()) as { location: string }).location);
}

describe('conformance authorize', () => {
  it('captures the code, checks state, and stores a working pair without printing it', async () => {
    const store = join(await mkdtemp(join(tmpdir(), 'authorize-')), 'tokens.json');
    const port = await freePort();
    const r = await authorize(store, port, async (grantUrl) => {
      expect(grantUrl.searchParams.get('client_id')).toBe(emulator.env().CLIENT_ID);
      const location = await consent(grantUrl.searchParams.get('state')!);
      // the Redirect URI is forwarded to the kit's listener, as a tunnel would
      await fetch(`http://127.0.0.1:${port}${location.pathname}${location.search}`);
    });
    expect(r.code, r.stderr).toBe(0);
    const { tokens } = new TokenStore(store).read();
    expect(tokens?.refresh_token).toBeTruthy();
    expect(r.stdout).not.toContain(tokens!.refresh_token);
    expect(r.stdout).not.toContain(tokens!.access_token);
    const env = emulator.env();
    const refresh = await fetch(`${env.BASE_URL}/oauth2/access_token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ client_id: env.CLIENT_ID, grant_type: 'refresh_token', refresh_token: tokens!.refresh_token, redirect_uri: env.REDIRECT_URI }) });
    expect(refresh.status).toBe(200);
  });

  it('refuses a redirect whose state was not the one sent, and stores nothing', async () => {
    const store = join(await mkdtemp(join(tmpdir(), 'authorize-')), 'tokens.json');
    const port = await freePort();
    const r = await authorize(store, port, async () => {
      const location = await consent('forged-state');
      await fetch(`http://127.0.0.1:${port}${location.pathname}${location.search}`);
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('another state than was sent');
    expect(new TokenStore(store).read().tokens).toBeUndefined();
  });

  it('names REDIRECT_URI when it does not lead to this machine and no --listen is given', async () => {
    const child = spawn(process.execPath, ['--', BIN, 'authorize'], { env: { PATH: process.env.PATH, ...emulator.env() } });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    const code = await new Promise((r) => child.on('close', r));
    expect(code).toBe(2);
    expect(stderr).toContain('REDIRECT_URI');
  });

  it('reaches an https target through CA_FILE, and names CA_FILE before waiting when it is bad', async () => {
    const https = await startEmulator({ https: true });
    const agent = new Agent({ connect: { ca: https.tls!.ca } });
    const trusted = ((url: string, init?: RequestInit) => undiciFetch(url, { ...(init as object), dispatcher: agent })) as unknown as typeof fetch;
    try {
      const env = https.env();
      expect(env.CA_FILE).toBe(https.tls!.caFile);
      const store = join(await mkdtemp(join(tmpdir(), 'authorize-')), 'tokens.json');
      const port = await freePort();
      const r = await authorize(store, port, async (grantUrl) => {
        const location = await consent(grantUrl.searchParams.get('state')!, env, trusted);
        await fetch(`http://127.0.0.1:${port}${location.pathname}${location.search}`);
      }, env);
      expect(r.code, r.stderr).toBe(0);
      expect(new TokenStore(store).read().tokens?.refresh_token).toBeTruthy();
      const bad = await authorize(store, port, async () => {}, { ...env, CA_FILE: join(tmpdir(), 'no-such-ca.pem') });
      expect(bad.code).toBe(2);
      expect(bad.stderr).toContain('CA_FILE');
      expect(bad.stdout).not.toContain('/oauth?');
    } finally {
      await https.close();
      await agent.close();
    }
  }, 60_000);
});
