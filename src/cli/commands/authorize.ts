/**
 * `conformance authorize`: obtains the first token pair of a remote target the way a person grants access.
 * It prints the access-granting URL with a fresh random `state`, listens where the Redirect URI leads, checks
 * that `state` comes back unchanged, exchanges the code and stores the pair durably (token store, mode 0600).
 * Nothing secret is printed: tokens appear masked.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { resolve } from 'node:path';
import { maskSecret } from '../../secrets/mask.js';
import { codeGrant, tokenPairOf, tokenRequest, type TokenEndpoint } from '../../protocol/oauth.js';
import { caOf, hostRulesOf, httpUrl } from '../../targets/from-env.js';
import { hostLookup } from '../../host-resolve.js';
import { HttpClient } from '../../targets/http.js';
import { TokenStore } from '../../secrets/token-store.js';
import { defineCommand } from '../command.js';
import { AuthorizeError, ConfigError } from '../../errors.js';
import { integerSetting, loadEnv } from '../settings.js';

export const DEFAULT_TOKEN_STORE = '.tokens.json';

interface AuthorizeFlags {
  readonly envFile?: string;
  readonly listen?: string;
  readonly tokenStore?: string;
  readonly timeout?: string;
}

export const authorizeCommand = defineCommand<AuthorizeFlags>({
  name: 'authorize',
  summary: 'grant access once, store the token pair',
  description: 'Prints the access-granting URL with a fresh state, listens where REDIRECT_URI leads (or on --listen '
    + 'when that address is forwarded), checks state, exchanges the code and stores the token pair in the token store '
    + '(mode 0600). Reads BASE_URL, AUTH_URL, CLIENT_ID, CLIENT_SECRET and REDIRECT_URI (and HOST_RESOLVE, CA_FILE) from the environment or .env.',
  examples: [
    ['conformance authorize', 'REDIRECT_URI leads to this machine'],
    ['conformance authorize --listen 127.0.0.1:8080', 'a tunnel forwards REDIRECT_URI to port 8080'],
  ],
  flags: (command) => command
    .option('--listen <host:port>', 'where to receive the redirect (default: the host and port of REDIRECT_URI)')
    .option('--token-store <path>', `where to store the token pair (default: TOKEN_STORE, else ${DEFAULT_TOKEN_STORE})`)
    .option('--timeout <seconds>', 'how long to wait for the redirect (default: 600)')
    .option('--env-file <path>', 'settings file (default: .env when present)'),
  action: authorize,
});

async function authorize(values: AuthorizeFlags): Promise<number> {
  const env = loadEnv(values.envFile);
  const baseUrl = httpUrl(env, 'BASE_URL', { required: true })!;
  const authUrl = httpUrl(env, 'AUTH_URL', { required: false }) ?? baseUrl;
  const redirectUri = httpUrl(env, 'REDIRECT_URI', { required: true })!;
  const clientId = env.CLIENT_ID?.trim();
  const clientSecret = env.CLIENT_SECRET?.trim();
  if (!clientId) throw new ConfigError('CLIENT_ID', 'is not set');
  if (!clientSecret) throw new ConfigError('CLIENT_SECRET', 'is not set');
  const redirect = new URL(redirectUri);
  const listen = listenAddress(values.listen, redirect);
  const timeoutS = integerSetting('--timeout', values.timeout, { min: 1 }) ?? 600;
  // Checked before the wait for the redirect, not after it.
  const rules = hostRulesOf(env);
  const ca = caOf(env);
  const store = new TokenStore(resolve(values.tokenStore ?? env.TOKEN_STORE ?? DEFAULT_TOKEN_STORE));

  const state = randomBytes(16).toString('hex');
  const grantUrl = `${authUrl}/oauth?${new URLSearchParams({ client_id: clientId, state, mode: 'popup' })}`;
  const code = await captureCode({ listen, path: redirect.pathname, state, timeoutS, announce: () => {
    process.stdout.write(`Open this address, log in and press Allow:\n${grantUrl}\n`);
    process.stderr.write(`waiting for the redirect on http://${listen.host}:${listen.port}${redirect.pathname} (${timeoutS} s)…\n`);
  } });

  const client = new HttpClient({ ...(rules.length > 0 ? { lookup: hostLookup(rules) } : {}), ...(ca ? { ca } : {}) });
  try {
    const target: TokenEndpoint = { baseUrl, credentials: { clientId, clientSecret, redirectUri } };
    const res = await client.send(tokenRequest(target, codeGrant(target, code)));
    const pair = tokenPairOf(res.text);
    if (res.status !== 200 || !pair) {
      process.stderr.write(`conformance authorize: the code exchange answered ${res.status}; no tokens stored\n`);
      return 1;
    }
    const now = Math.floor(Date.now() / 1000);
    const expiresIn = typeof pair.expires_in === 'number' ? pair.expires_in : 0;
    store.write({ access_token: pair.access_token, refresh_token: pair.refresh_token, expires_at: now + expiresIn, obtained_at: now });
    process.stdout.write(`tokens stored in ${store.path} (access ${maskSecret(pair.access_token)}, refresh ${maskSecret(pair.refresh_token)})\n`);
    return 0;
  } finally {
    await client.close();
  }
}

function listenAddress(flag: string | undefined, redirect: URL): { host: string; port: number } {
  if (flag) {
    const m = /^([\w.-]+|\[[\da-f:]+\]):(\d{1,5})$/i.exec(flag);
    if (!m) throw new ConfigError('--listen', `must be host:port, got "${flag}"`);
    return { host: m[1]!.replace(/^\[|\]$/g, ''), port: Number(m[2]) };
  }
  if (!['localhost', '127.0.0.1', '[::1]'].includes(redirect.hostname) || redirect.protocol !== 'http:') {
    throw new ConfigError('REDIRECT_URI', `leads to ${redirect.origin}, not to this machine: pass --listen host:port where that address is forwarded`);
  }
  return { host: redirect.hostname.replace(/^\[|\]$/g, ''), port: Number(redirect.port || 80) };
}


/** Serves the redirect once: the code when `state` matches, a clear refusal otherwise. */
function captureCode(o: { listen: { host: string; port: number }; path: string; state: string; timeoutS: number; announce: () => void }): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    const finish = (err: Error | undefined, code?: string) => {
      clearTimeout(timer);
      server.close();
      server.closeAllConnections();
      if (err) reject(err);
      else resolvePromise(code!);
    };
    const server = createServer((req: IncomingMessage, res: ServerResponse) => {
      const url = new URL(req.url ?? '/', 'http://redirect');
      if (url.pathname !== o.path) {
        res.writeHead(404).end();
        return;
      }
      const reply = (status: number, text: string) => res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' }).end(text);
      const q = url.searchParams;
      if (q.get('state') !== o.state) {
        reply(400, 'state does not match: this redirect was not asked for by this authorization');
        return finish(new AuthorizeError('the redirect came back with another state than was sent (possible forgery); nothing exchanged'));
      }
      if (q.get('error')) {
        reply(200, 'access was denied; you can close this window');
        return finish(new AuthorizeError(`access was not granted: ${q.get('error')}`));
      }
      const code = q.get('code');
      if (!code) {
        reply(400, 'no code in the redirect');
        return finish(new AuthorizeError('the redirect carried no code'));
      }
      reply(200, 'access granted; you can close this window');
      finish(undefined, code);
    });
    const timer = setTimeout(() => finish(new AuthorizeError(`no redirect arrived within ${o.timeoutS} s`)), o.timeoutS * 1000);
    server.on('error', (err) => finish(new ConfigError('--listen', `cannot listen on ${o.listen.host}:${o.listen.port}: ${err.message}`)));
    server.listen(o.listen.port, o.listen.host, o.announce);
  });
}
