/**
 * CA_FILE (src/trust.ts): what it refuses (exit 2 naming the key), that the kit's client reaches a server whose
 * certificate a private CA signed with it (small bodies and large) and is refused without it, that it trusts the
 * system's roots and NODE_EXTRA_CA_CERTS's beside it, and a remote run against `conformance emulator --tls` with the
 * printed settings alone, no NODE_EXTRA_CA_CERTS.
 */
import { createHash, X509Certificate } from 'node:crypto';
import { Agent as HttpsAgent, createServer, get as httpsGet, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { rootCertificates } from 'node:tls';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tlsMaterial, type TlsMaterial } from '../../src/emulator/tls.js';
import { ConfigError } from '../../src/errors.js';
import { HttpClient } from '../../src/targets/http.js';
import { caOf, targetFromEnv } from '../../src/targets/from-env.js';
import { clientOptionsFor } from '../../src/runner/execute.js';
import { trustedCas, verifiedServerKeys } from '../../src/trust.js';
import { SharedBrowser } from '../../src/browser/launch.js';
import { TransportError } from '../../src/errors.js';
import { conformance, tlsEmulatorProcess } from '../cli/helpers.js';

const BASE = { BASE_URL: 'https://acme.example', CLIENT_ID: 'cid', CLIENT_SECRET: 'secret-secret', REDIRECT_URI: 'https://i.example/cb', TOKEN_STORE: '/nonexistent/tokens.json' };

let dir: string;
let tls: TlsMaterial;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'conformance-ca-file-'));
  tls = await tlsMaterial('127.0.0.1', { dir: join(dir, 'ca') });
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('CA_FILE', () => {
  it.each([
    ['a path that names no file', () => join(dir, 'missing.pem'), /names no file/],
    ['a directory', () => dir, /cannot be read.*EISDIR/],
    ['a file without a PEM certificate', () => join(dir, 'key-only.pem'), /holds no PEM certificate/],
    ['a certificate that does not parse', () => join(dir, 'broken.pem'), /does not parse \(number 1/],
  ])('refuses %s, naming CA_FILE', async (_, path, message) => {
    await writeFile(join(dir, 'key-only.pem'), tls.key);
    await writeFile(join(dir, 'broken.pem'), '-----BEGIN CERTIFICATE-----\nbm90IGEgY2VydGlmaWNhdGU=\n-----END CERTIFICATE-----\n');
    let err: unknown;
    try { targetFromEnv({ ...BASE, CA_FILE: path() }); } catch (e) { err = e; }
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigError).key).toBe('CA_FILE');
    expect((err as Error).message).toMatch(message);
  });

  it('exits 2 naming CA_FILE when `conformance run` is given a bad one', async () => {
    const r = await conformance(['run', '--target', 'remote'], { env: { ...BASE, CA_FILE: join(dir, 'missing.pem') } });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain('CA_FILE');
    expect(r.stderr).toContain('names no file');
  }, 60_000);

  it('keeps the certificates of a bundle, text around them left out, and hands them to the run\'s client', async () => {
    const bundle = join(dir, 'bundle.pem');
    await writeFile(bundle, `# a company bundle\n${tls.ca}\nsome comment\n${tls.cert}`);
    const target = targetFromEnv({ ...BASE, CA_FILE: bundle });
    expect(target.ca).toBe(`${tls.ca.trim()}\n${tls.cert.trim()}`);
    expect(clientOptionsFor(target).ca).toBe(target.ca);
    expect(caOf({})).toBeUndefined();
    expect(clientOptionsFor(targetFromEnv(BASE)).ca).toBeUndefined();
  });

  it('trusts the system\'s roots and NODE_EXTRA_CA_CERTS\'s beside it', async () => {
    const extra = join(dir, 'extra.pem');
    await writeFile(extra, tls.cert);
    const before = process.env.NODE_EXTRA_CA_CERTS;
    process.env.NODE_EXTRA_CA_CERTS = extra;
    try {
      const cas = trustedCas(tls.ca);
      expect(cas.slice(0, rootCertificates.length)).toEqual(rootCertificates);
      expect(cas.slice(rootCertificates.length).map((c) => c.trim())).toEqual([tls.cert.trim(), tls.ca.trim()]);
    } finally {
      if (before === undefined) delete process.env.NODE_EXTRA_CA_CERTS;
      else process.env.NODE_EXTRA_CA_CERTS = before;
    }
  });

  describe('against a server whose certificate a private CA signed', () => {
    let server: Server;
    let url: string;
    beforeAll(async () => {
      server = createServer({ key: tls.key, cert: tls.cert }, (req, res) => {
        req.resume();
        req.on('end', () => res.end('trusted'));
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    it('reaches it with the CA, small bodies and large (the early-answer client)', async () => {
      const client = new HttpClient({ ca: caOf({ CA_FILE: tls.caFile })! });
      try {
        expect((await client.send({ method: 'GET', url, headers: {} })).text).toBe('trusted');
        const large = await client.send({ method: 'POST', url, headers: {}, body: 'x'.repeat(300 * 1024) });
        expect([large.status, large.text]).toEqual([200, 'trusted']);
      } finally {
        await client.close();
      }
    });

    it('is refused without it, small bodies and large, the error pointing at CA_FILE', async () => {
      const client = new HttpClient();
      try {
        for (const body of [undefined, 'x'.repeat(300 * 1024)]) {
          const err = await client.send({ method: body ? 'POST' : 'GET', url, headers: {}, ...(body ? { body } : {}) }).then(() => undefined, (e: unknown) => e);
          expect(err).toBeInstanceOf(TransportError);
          expect((err as Error).message).toMatch(/CA_FILE names the CA to trust/);
        }
      } finally {
        await client.close();
      }
    });

    it('hands Chromium the server key it verified against the CA, and none for another CA or plain http', async () => {
      const leafKey = createHash('sha256').update(new X509Certificate(tls.cert).publicKey.export({ type: 'spki', format: 'der' })).digest('base64');
      expect(await verifiedServerKeys([url, url.replace(/\/$/, '/other')], tls.ca)).toEqual([leafKey]);
      const other = await tlsMaterial('127.0.0.1', { dir: join(dir, 'other-ca') });
      expect(await verifiedServerKeys([url], other.ca)).toEqual([]);
      expect(await verifiedServerKeys(['http://127.0.0.1:1'], tls.ca)).toEqual([]);
      // Chromium refuses the server on its own and with another CA, and loads it with the CA that signed it.
      for (const [trust, expected] of [[undefined, 'ERR_CERT_AUTHORITY_INVALID'], [other.ca, 'ERR_CERT_AUTHORITY_INVALID'], [tls.ca, 200]] as const) {
        const browser = await SharedBrowser.launch(trust ? { trust: { ca: trust, origins: [url] } } : {});
        try {
          const page = await (await browser.newContext()).newPage();
          const loaded = await page.goto(url).then((r) => r?.status(), (e: Error) => e.message.split('\n')[0]);
          expect(loaded).toEqual(typeof expected === 'number' ? expected : expect.stringContaining(expected));
        } finally {
          await browser.close();
        }
      }
    }, 60_000);

    it('lets the page\'s documents, fetched in the kit\'s process, trust the CA for that server while the browser is open, and only then', async () => {
      const viaNode = () => new Promise<string>((resolve) => {
        httpsGet(url, { agent: new HttpsAgent() }, (res) => { res.resume(); resolve(String(res.statusCode)); }).on('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? e.message));
      });
      expect(await viaNode()).toBe('UNABLE_TO_VERIFY_LEAF_SIGNATURE');
      const other = await tlsMaterial('127.0.0.1', { dir: join(dir, 'other-ca') });
      const browser = await SharedBrowser.launch({ trust: { ca: tls.ca, origins: [url] } });
      const untrusting = await SharedBrowser.launch({ trust: { ca: other.ca, origins: [url] } });
      try {
        // Playwright's request client, as route.fetch uses it (src/browser/shared-context.ts), in this process.
        const context = await browser.newContext();
        const answer = await context.request.get(url);
        expect([answer.status(), await answer.text()]).toEqual([200, 'trusted']);
        // Still checked: a browser given another CA verified nothing and eases nothing.
        await untrusting.close();
        expect(await viaNode()).toBe('200');
      } finally {
        await browser.close();
        await untrusting.close();
      }
      expect(await viaNode()).toBe('UNABLE_TO_VERIFY_LEAF_SIGNATURE');
    }, 60_000);

    it('is refused with another CA', async () => {
      const other = await tlsMaterial('127.0.0.1', { dir: join(dir, 'other-ca') });
      const client = new HttpClient({ ca: other.ca });
      try {
        await expect(client.send({ method: 'GET', url, headers: {} })).rejects.toThrow(/certificate/);
      } finally {
        await client.close();
      }
    });
  });
});

describe('a remote run against `conformance emulator --tls`', () => {
  it('trusts the printed CA_FILE with no NODE_EXTRA_CA_CERTS', async () => {
    const tlsDir = join(dir, 'emulator-tls');
    await mkdir(tlsDir, { recursive: true });
    const env = { PATH: process.env.PATH, CI: 'true' };
    const emulator = await tlsEmulatorProcess(['--tls-dir', tlsDir, '--port', '0'], env);
    try {
      const { stdout } = emulator;
      expect(stdout).toContain(`CA_FILE=${join(tlsDir, 'ca.pem')}\n`);
      const envFile = join(dir, 'emulator.env');
      await writeFile(envFile, stdout);
      const pageRules = ['oauth.page.login-required', 'oauth.page.shows-integration'];
      const only = ['api.bearer.*', ...pageRules].join(',');
      const out = join(dir, 'reports');
      const statuses = async (): Promise<Map<string, { status: string; detail: string }>> => {
        const report = JSON.parse(await readFile(join(out, 'report.json'), 'utf8')) as { results: { id: string; status: string; detail: string }[] };
        return new Map(report.results.filter((r) => r.id.startsWith('api.bearer.') || pageRules.includes(r.id)).map((r) => [r.id, r]));
      };
      const trusted = await conformance(['run', '--env-file', envFile, '--only', only, '--profile', 'quick', '--out', out], { env });
      expect(trusted.code, trusted.stderr).toBe(0);
      const first = await statuses();
      const api = [...first].filter(([id]) => id.startsWith('api.bearer.'));
      expect(api.length).toBeGreaterThan(0);
      // Judged, every one (an informational rule reports what it saw): no TLS error left a rule errored or skipped.
      expect(api.filter(([, r]) => !['passed', 'informational'].includes(r.status)).map(([id, r]) => `${id}: ${r.status}`)).toEqual([]);
      // The page rules run too: Chromium trusts the server key the kit verified against CA_FILE, and the page's
      // documents, fetched in the kit's process, that server's certificate through CA_FILE (src/browser/process-trust.ts).
      expect(pageRules.map((id) => `${id}: ${first.get(id)?.status}`)).toEqual(pageRules.map((id) => `${id}: passed`));
      // The same run without the CA_FILE line is refused by the TLS check: the trust came from CA_FILE.
      await writeFile(envFile, stdout.replace(/^CA_FILE=.*\n/m, ''));
      const untrusted = await conformance(['run', '--env-file', envFile, '--only', only, '--profile', 'quick', '--out', out], { env });
      expect(untrusted.code).not.toBe(0);
      expect(untrusted.stdout + untrusted.stderr).toMatch(/CA_FILE names the CA to trust/);
    } finally {
      await emulator.stop();
    }
  }, 300_000);
});
