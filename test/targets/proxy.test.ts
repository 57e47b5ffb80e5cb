/**
 * Proxies (issue 37 §6): HTTPS_PROXY, HTTP_PROXY and NO_PROXY as curl reads them, by the kit's client (undici's
 * EnvHttpProxyAgent), its early-answer client (node:http, for large bodies) and a remote run end to end, through a
 * forward proxy written here that records what it carried.
 */
import { createServer, request as httpRequest, type Server } from 'node:http';
import { connect as netConnect, type AddressInfo } from 'node:net';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { ConfigError } from '../../src/errors.js';
import { emulatorSettings } from '../../src/needs/emulator-settings.js';
import { proxyOf, targetFromEnv } from '../../src/targets/from-env.js';
import { EARLY_ANSWER_BYTES, HttpClient } from '../../src/targets/http.js';
import { proxyFor } from '../../src/targets/proxy.js';
import { browserProxy } from '../../src/browser/launch.js';
import { conformance } from '../cli/helpers.js';

/** A forward proxy (absolute URLs on the request line) and CONNECT tunnel, recording every request it carried. */
async function recordingProxy(): Promise<{ url: string; seen: string[]; server: Server }> {
  const seen: string[] = [];
  const server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    const target = new URL(req.url!);
    const { 'proxy-connection': _p, ...headers } = req.headers;
    const upstream = httpRequest({ host: target.hostname, port: target.port, method: req.method, path: target.pathname + target.search, headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => { res.writeHead(502).end(); });
    req.pipe(upstream);
  });
  server.on('connect', (req, socket, head) => {
    seen.push(`CONNECT ${req.url}`);
    const [host, port] = req.url!.split(':');
    const upstream = netConnect(Number(port), host!, () => {
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(socket);
      socket.pipe(upstream);
    });
    upstream.on('error', () => socket.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, server };
}

describe('which proxy a URL takes', () => {
  const p = { httpsProxy: 'http://secure:1', httpProxy: 'http://plain:2', noProxy: 'localhost, .internal.example,db.example:8443' };
  it.each([
    ['https://api.example/x', 'http://secure:1/'],
    ['http://api.example/x', 'http://plain:2/'],
    ['http://localhost:4010/', undefined],
    ['https://a.internal.example/', undefined],
    ['https://internal.example/', undefined],
    ['https://db.example:8443/', undefined],
    ['https://db.example/', 'http://secure:1/'],
  ])('%s → %s', (url, via) => {
    expect(proxyFor(new URL(url), p)?.href).toBe(via);
  });
  it('NO_PROXY=* reaches everything directly; https without HTTPS_PROXY takes HTTP_PROXY, as undici does', () => {
    expect(proxyFor(new URL('https://x.example'), { httpProxy: 'http://p:1', noProxy: '*' })).toBeUndefined();
    expect(proxyFor(new URL('https://x.example'), { httpProxy: 'http://p:1' })?.href).toBe('http://p:1/');
  });
  it('reads the lower-case forms first, as curl does, and names a bad key', () => {
    expect(proxyOf({ HTTPS_PROXY: 'http://upper:1', https_proxy: 'http://lower:2', NO_PROXY: 'a', no_proxy: 'b' })).toEqual({ httpsProxy: 'http://lower:2', noProxy: 'b' });
    expect(proxyOf({ HTTP_PROXY: 'proxy.example:3128' })).toEqual({ httpProxy: 'http://proxy.example:3128' });
    expect(() => proxyOf({ HTTPS_PROXY: 'socks5://p:1' })).toThrow(ConfigError);
    expect(() => proxyOf({ HTTPS_PROXY: 'socks5://p:1' })).toThrow(/^HTTPS_PROXY /);
  });
  it('the browser gets one proxy, its credentials apart', () => {
    expect(browserProxy({ httpsProxy: 'http://u%40x:p@proxy:3128', noProxy: 'localhost' })).toEqual({ server: 'http://proxy:3128', bypass: 'localhost', username: 'u@x', password: 'p' });
  });
});

describe('through a local proxy', () => {
  let emulator: RunningEmulator;
  let proxy: Awaited<ReturnType<typeof recordingProxy>>;
  beforeAll(async () => {
    emulator = await startEmulator();
    proxy = await recordingProxy();
  });
  afterAll(async () => {
    proxy?.server.closeAllConnections();
    proxy?.server.close();
    await emulator?.close();
  });

  it('the client sends small and large bodies through HTTP_PROXY, and NO_PROXY hosts directly', async () => {
    const client = new HttpClient({ proxy: { httpProxy: proxy.url } });
    try {
      proxy.seen.length = 0;
      const small = await client.send({ method: 'GET', url: `${emulator.url}/_control/clock` });
      expect(small.status).toBe(200);
      const large = await client.send({ method: 'POST', url: `${emulator.url}/oauth2/access_token`, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ pad: 'x'.repeat(EARLY_ANSWER_BYTES) }) });
      expect(large.status).toBeGreaterThanOrEqual(400);
      expect(proxy.seen).toEqual([`GET ${emulator.url}/_control/clock`, `POST ${emulator.url}/oauth2/access_token`]);
    } finally {
      await client.close();
    }
    const direct = new HttpClient({ proxy: { httpProxy: proxy.url, noProxy: '127.0.0.1' } });
    try {
      proxy.seen.length = 0;
      expect((await direct.send({ method: 'GET', url: `${emulator.url}/_control/clock` })).status).toBe(200);
      expect(proxy.seen).toEqual([]);
    } finally {
      await direct.close();
    }
  });

  it('a remote run with HTTP_PROXY set sends its requests through the proxy', async () => {
    const settings = await emulatorSettings(emulator);
    expect(targetFromEnv({ ...settings, HTTP_PROXY: proxy.url }, 'remote').proxy).toEqual({ httpProxy: proxy.url });
    proxy.seen.length = 0;
    const out = await mkdtemp(join(tmpdir(), 'conformance-proxy-'));
    const r = await conformance(['run', '--target', 'remote', '--only', 'oauth.token.code.wrong', '--seed', '3', '--runs', '1', '--out', out], { env: { ...settings, HTTP_PROXY: proxy.url } });
    expect(r.code, r.stderr).toBe(0);
    expect(proxy.seen).toContain(`POST ${settings.BASE_URL}/oauth2/access_token`);
    expect(proxy.seen).toContain(`POST ${settings.CONTROL_URL}/lock`);
  });
});
