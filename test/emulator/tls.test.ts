/**
 * The emulator over https (issue 30, docs/sandbox.md "https"): a CA made for the sandbox, trusted only where it is
 * handed over; each account at its own host name `<subdomain>.sandbox.localhost` as it is at its own path; a CA kept
 * in a directory is reused across starts; `conformance emulator --tls` prints the CA's path, and a Node process
 * started with `NODE_EXTRA_CA_CERTS` set to it reaches the emulator.
 */
import { execFile } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Agent, fetch as undiciFetch } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox.js';
import { conformance, tlsEmulatorProcess } from '../cli/helpers.js';

const run = promisify(execFile);

describe('startSandbox({ https: true })', () => {
  let sandbox: Sandbox;
  let agent: Agent;
  let caDir: string;
  const call = (url: string, token?: string) =>
    undiciFetch(url, { dispatcher: agent, ...(token && { headers: { authorization: `Bearer ${token}` } }) });
  const tokenIn = async (accountId?: number): Promise<string> => {
    const { code } = await sandbox.control<{ code: string }>('POST', '/consent', { client_id: sandbox.settings.CLIENT_ID, decision: 'allow', ...(accountId && { account_id: accountId }) });
    const form = new URLSearchParams({
      grant_type: 'authorization_code', code, client_id: sandbox.settings.CLIENT_ID!, client_secret: sandbox.settings.CLIENT_SECRET!, redirect_uri: sandbox.settings.REDIRECT_URI!,
    });
    const r = await undiciFetch(`${sandbox.url}/oauth2/access_token`, { method: 'POST', body: form, dispatcher: agent });
    expect(r.status).toBe(200);
    return ((await r.json()) as { access_token: string }).access_token;
  };

  beforeAll(async () => {
    sandbox = await startSandbox({ https: true, seed: 30 });
    agent = new Agent({ connect: { ca: sandbox.tls!.ca, lookup: sandbox.lookup } });
    caDir = join(sandbox.tls!.caFile, '..');
  });
  afterAll(async () => {
    await sandbox?.close();
    await agent?.close();
  });

  it('serves https with a certificate only its CA vouches for, and makes its settings over it', async () => {
    expect(sandbox.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    expect(sandbox.settings.BASE_URL).toBe(sandbox.url);
    expect(await readFile(sandbox.tls!.caFile, 'utf8')).toBe(sandbox.tls!.ca);
    // The settings name it as CA_FILE, which the kit's own runs trust (test/targets/ca-file.test.ts).
    expect(sandbox.settings.CA_FILE).toBe(sandbox.tls!.caFile);
    const untrusted = await fetch(`${sandbox.url}/api/v4/account`).then(() => 'answered', (e: Error) => String((e.cause as Error | undefined)?.message ?? e));
    expect(untrusted).toMatch(/self[- ]signed|unable to verify|certificate/i);
    const r = await call(`${sandbox.url}/api/v4/account`, sandbox.settings.LONG_LIVED_TOKEN);
    expect(r.status).toBe(200);
    expect(((await r.json()) as { _links: { self: { href: string } } })._links.self.href).toBe(`${sandbox.url}/api/v4/account`);
  });

  it('serves each account at its own host name, bound to that account as its own path is', async () => {
    const accounts = (await sandbox.control<{ accounts: Array<{ id: number; subdomain: string; admin_role: string }> }>('GET', '/accounts')).accounts;
    const [main, other] = [accounts[0]!, accounts.find((a, i) => i > 0 && a.admin_role === 'administrator')!];
    expect(sandbox.accountUrl()).toBe(sandbox.accountUrl(main.subdomain));
    const mainToken = await tokenIn();
    const own = await call(`${sandbox.accountUrl()}/api/v4/account`, mainToken);
    expect(own.status).toBe(200);
    const body = (await own.json()) as { id: number; _links: { self: { href: string } } };
    expect(body.id).toBe(main.id);
    // The host the client called, with no path prefix.
    expect(body._links.self.href).toBe(`${sandbox.accountUrl()}/api/v4/account`);
    // A bearer of one account is refused at another account's host, as at its path.
    const elsewhere = await call(`${sandbox.accountUrl(other.subdomain)}/api/v4/account`, mainToken);
    expect(elsewhere.status).toBe(401);
    const otherToken = await tokenIn(other.id);
    expect(((await (await call(`${sandbox.accountUrl(other.subdomain)}/api/v4/account`, otherToken)).json()) as { id: number }).id).toBe(other.id);
    expect((await call(`${sandbox.accountUrl('no-such-account')}/api/v4/account`, mainToken)).status).toBe(404);
    // Behind a proxy, the host it forwards binds the account, as it names the links.
    const forwarded = await undiciFetch(`${sandbox.url}/api/v4/account`, {
      dispatcher: agent, headers: { authorization: `Bearer ${mainToken}`, 'x-forwarded-host': new URL(sandbox.accountUrl(other.subdomain)).host },
    });
    expect(forwarded.status).toBe(401);
  });

  it('removes the CA it made in a temporary directory when it closes', async () => {
    const second = await startSandbox({ https: true });
    const dir = join(second.tls!.caFile, '..');
    expect(dir).not.toBe(caDir);
    await second.close();
    expect(existsSync(dir)).toBe(false);
  });
});

describe('a CA kept in a directory', () => {
  let dir: string;
  beforeAll(async () => { dir = await mkdtemp(join(tmpdir(), 'conformance-tls-test-')); });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('is reused by the next start, which trusts the same CA file, and is left in place', async () => {
    const first = await startSandbox({ https: { dir } });
    await first.close();
    const second = await startSandbox({ https: { dir, accountDomain: 'crm.test' } });
    try {
      expect(second.tls).toEqual(first.tls);
      expect(second.accountUrl('acme')).toMatch(/^https:\/\/acme\.crm\.test:\d+$/);
      const agent = new Agent({ connect: { ca: await readFile(join(dir, 'ca.pem'), 'utf8'), lookup: second.lookup } });
      const r = await undiciFetch(`${second.accountUrl()}/api/v4/account`, { dispatcher: agent, headers: { authorization: `Bearer ${second.settings.LONG_LIVED_TOKEN}` } });
      expect(r.status).toBe(200);
      await agent.close();
    } finally {
      await second.close();
    }
    expect(existsSync(join(dir, 'ca.pem'))).toBe(true);
  });

  it('refuses an account domain that is not a DNS name of two labels', async () => {
    await expect(startSandbox({ https: { dir, accountDomain: 'localhost' } })).rejects.toThrow(/accountDomain/);
  });
});

describe('conformance emulator --tls', () => {
  it('prints https settings and the CA path, which NODE_EXTRA_CA_CERTS makes a Node process trust', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'conformance-tls-cli-'));
    const emulator = await tlsEmulatorProcess(['--tls-dir', dir, '--tls-host', 'emulator.test', '--port', '0'], { PATH: process.env.PATH, CI: 'true' });
    try {
      const { stdout, stderr } = emulator;
      const settings = Object.fromEntries(stdout.trim().split('\n').map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]));
      // The deployed shape by default: the account at its own port, which any client reaches with no resolver.
      expect(settings.BASE_URL).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
      expect(settings.BASE_URL).not.toBe(settings.AUTH_URL);
      expect(settings.HOST_RESOLVE).toBeUndefined();
      expect(settings.CONTROL_URL).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/_control$/);
      const caFile = join(dir, 'ca.pem');
      expect(settings.CA_FILE).toBe(caFile);
      expect(stderr).toContain(`NODE_EXTRA_CA_CERTS=${caFile}`);
      const script = `const r = await fetch(process.argv[1]); console.log(r.status);`;
      const trusted = await run(process.execPath, ['--input-type=module', '-e', script, settings.CONTROL_URL!], { env: { ...process.env, NODE_EXTRA_CA_CERTS: caFile } });
      expect(trusted.stdout.trim()).toBe('200');
      // The account's own port over https, with the same certificate.
      const account = await run(process.execPath, ['--input-type=module', '-e', script, `${settings.BASE_URL}/api/v4/account`], { env: { ...process.env, NODE_EXTRA_CA_CERTS: caFile } });
      expect(account.stdout.trim()).toBe('401');
      // --tls-host: a name the certificate covers beside the loopback ones.
      const names = new X509Certificate(await readFile(join(dir, 'server.pem'))).subjectAltName!.split(', ');
      expect(names).toEqual(expect.arrayContaining(['DNS:emulator.test', 'DNS:*.sandbox.localhost', 'IP Address:127.0.0.1']));
    } finally {
      await emulator.stop();
      await rm(dir, { recursive: true, force: true });
    }
  }, 120_000);

  it('refuses --tls-dir and --tls-host without --tls', async () => {
    for (const flag of [['--tls-dir', tmpdir()], ['--tls-host', 'emulator.test']]) {
      const r = await conformance(['emulator', ...flag, '--port', '0']);
      expect(r.code).not.toBe(0);
      expect(r.stderr).toContain(`${flag[0]} is only read with --tls`);
    }
  }, 60_000);
});
