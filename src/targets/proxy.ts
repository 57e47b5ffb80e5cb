/**
 * Which proxy a request goes through (HTTPS_PROXY, HTTP_PROXY, NO_PROXY; ../model/target.ts ProxySettings), for the
 * requests the kit does not send with undici (whose EnvHttpProxyAgent decides for its own): the large bodies sent
 * with node:http (./http.ts) and the browser. Decided as undici's EnvHttpProxyAgent decides, so every request of a run
 * takes the same way: https URLs take HTTPS_PROXY, else HTTP_PROXY; http URLs HTTP_PROXY; NO_PROXY names hosts
 * (`name`, `.domain` or `*.domain` for the names under it, `:port` for one port) or `*` for all, reached directly.
 */
import { request as httpRequest } from 'node:http';
import type { Socket } from 'node:net';
import type { ProxySettings } from '../model/target.js';

/** The proxy for `url`, or undefined to reach it directly. */
export function proxyFor(url: URL, proxy: ProxySettings | undefined): URL | undefined {
  if (!proxy) return undefined;
  const via = url.protocol === 'https:' ? proxy.httpsProxy ?? proxy.httpProxy : proxy.httpProxy;
  if (!via || bypassed(url, proxy.noProxy ?? '')) return undefined;
  return new URL(via);
}

function bypassed(url: URL, noProxy: string): boolean {
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  for (const raw of noProxy.split(/[,\s]+/).filter(Boolean)) {
    if (raw === '*') return true;
    const m = /^(.*?)(?::(\d+))?$/.exec(raw.toLowerCase())!;
    const name = m[1]!.replace(/^\*?\./, '').replace(/^\[|\]$/g, '');
    if (m[2] !== undefined && m[2] !== port) continue;
    if (host === name || host.endsWith(`.${name}`)) return true;
  }
  return false;
}

/** The Proxy-Authorization a proxy URL's credentials give, as curl sends them (Basic). */
export function proxyAuthorization(proxy: URL): Record<string, string> {
  if (!proxy.username) return {};
  const credentials = `${decodeURIComponent(proxy.username)}:${decodeURIComponent(proxy.password)}`;
  return { 'proxy-authorization': `Basic ${Buffer.from(credentials).toString('base64')}` };
}

/** A tunnel through `proxy` to `target` (HTTP CONNECT), as the socket to speak TLS over. */
export function tunnel(proxy: URL, target: URL, timeoutMs: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const authority = `${target.hostname}:${target.port || '443'}`;
    const req = httpRequest({ host: proxy.hostname, port: proxy.port || 80, method: 'CONNECT', path: authority, headers: { host: authority, ...proxyAuthorization(proxy) }, timeout: timeoutMs });
    req.on('connect', (res, socket) => {
      if (res.statusCode === 200) return resolve(socket);
      socket.destroy();
      reject(Object.assign(new Error(`the proxy ${proxy.host} refused the tunnel to ${authority} (${res.statusCode})`), { code: 'ECONNREFUSED' }));
    });
    req.on('timeout', () => req.destroy(Object.assign(new Error('timed out'), { code: 'ETIMEDOUT' })));
    req.on('error', reject);
    req.end();
  });
}
