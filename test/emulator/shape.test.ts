/**
 * The deployed shape (src/emulator/shape.ts): each account at its own host alone, the chat interface at
 * `amojo.<domain>` alone, the root serving the page and the control API only; and the settings and names that say so
 * (env, the control API's base_url, the Allow redirect's referer, the subdomain lookup).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent, fetch as undiciFetch } from 'undici';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { signChatRequest } from '../../src/protocol/chat-signature.js';

interface ControlAccount { id: number; subdomain: string; admin_role: string; base_url: string }

// By port (the default: each account and the chat interface at a port of its own, reached with no resolver) and by
// name (a named account domain: `<subdomain>.<domain>` and `amojo.<domain>` on the instance's port, HOST_RESOLVE).
describe.each([
  { addressing: 'port', options: {} },
  { addressing: 'name', options: { accountDomain: 'sandbox.localhost' } },
] as const)('the deployed shape, accounts addressed by $addressing', ({ addressing, options }) => {
  let emu: RunningEmulator;
  let env: Record<string, string>;
  let agent: Agent;
  let accounts: ControlAccount[];

  const call = async (url: string, init: { method?: string; body?: string; headers?: Record<string, string> } = {}) => {
    const res = await undiciFetch(url, { ...init, dispatcher: agent });
    const text = await res.text();
    let json: any;
    try { json = JSON.parse(text); } catch { json = undefined; }
    return { status: res.status, text, json, contentType: res.headers.get('content-type') ?? '' };
  };
  const json = (url: string, body: unknown) => call(url, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
  const tokenIn = async (account: ControlAccount) => {
    const consent = await json(`${env.CONTROL_URL}/consent`, { client_id: env.CLIENT_ID, decision: 'allow', account_id: account.id });
    const exchange = await json(`${account.base_url}/oauth2/access_token`, {
      client_id: env.CLIENT_ID, client_secret: env.CLIENT_SECRET, grant_type: 'authorization_code', code: consent.json.code, redirect_uri: env.REDIRECT_URI,
    });
    expect(exchange.status).toBe(200);
    return { token: exchange.json.access_token as string, referer: new URL(consent.json.location).searchParams.get('referer') };
  };

  beforeAll(async () => {
    emu = await startEmulator({ shape: 'deployed', ...options });
    env = emu.env();
    agent = new Agent({ connect: { lookup: emu.lookup } });
    accounts = (await call(`${env.CONTROL_URL}/accounts`)).json.accounts;
  });
  afterAll(async () => {
    await agent?.close();
    await emu?.close();
  });

  it.runIf(addressing === 'port')('names each account\'s own port in the settings and the control API, and no HOST_RESOLVE', async () => {
    const ports = new Set([new URL(emu.url).port]);
    for (const a of accounts) {
      expect(a.base_url).toBe(`http://127.0.0.1:${emu.ownPorts[a.subdomain]}`);
      ports.add(new URL(a.base_url).port);
    }
    expect(env.BASE_URL).toBe(accounts[0]!.base_url);
    expect(env.BASE_URL_2).toBe(accounts.find((a, i) => i > 0 && a.admin_role === 'administrator')!.base_url);
    expect(env.CHAT_URL).toBe(`http://127.0.0.1:${emu.ownPorts.chat}`);
    ports.add(new URL(env.CHAT_URL!).port);
    // An origin of its own for the root, each account and the chat interface.
    expect(ports.size).toBe(accounts.length + 2);
    expect(env.AUTH_URL).toBe(emu.url);
    expect(env.HOST_RESOLVE).toBeUndefined();
    // The names stay served on the instance's port, for a client that builds a domain.
    const byName = await call(`http://${accounts[0]!.subdomain}.sandbox.localhost:${new URL(emu.url).port}/api/v4/account`);
    expect(byName.status).toBe(401);
  });

  it.runIf(addressing === 'name')('names each account\'s own host in the settings and the control API, and a HOST_RESOLVE that points them here', () => {
    expect(emu.ownPorts).toEqual({});
    const port = new URL(emu.url).port;
    for (const a of accounts) expect(a.base_url).toBe(`http://${a.subdomain}.sandbox.localhost:${port}`);
    expect(env.BASE_URL).toBe(accounts[0]!.base_url);
    expect(env.BASE_URL_2).toBe(accounts.find((a, i) => i > 0 && a.admin_role === 'administrator')!.base_url);
    expect(env.CHAT_URL).toBe(`http://amojo.sandbox.localhost:${port}`);
    expect(env.AUTH_URL).toBe(emu.url);
    expect(env.HOST_RESOLVE).toBe('*.sandbox.localhost=127.0.0.1');
  });

  it('serves an account\'s token endpoint and API at its host alone, and a token there only', async () => {
    const [main, second] = accounts.filter((a) => a.admin_role === 'administrator');
    const { token, referer } = await tokenIn(main!);
    expect(referer).toBe(new URL(main!.base_url).host);
    const bearer = { authorization: `Bearer ${token}` };
    const own = await call(`${main!.base_url}/api/v4/account`, { headers: bearer });
    expect(own.status).toBe(200);
    expect(own.json.id).toBe(main!.id);
    expect(own.json._links.self.href).toBe(`${main!.base_url}/api/v4/account`);
    expect((await call(`${second!.base_url}/api/v4/account`, { headers: bearer })).status).toBe(401);
    // The root serves no account: neither its API nor its token endpoint, nor the one-origin shape's account paths.
    for (const path of ['/api/v4/account', `/_accounts/${main!.subdomain}/api/v4/account`]) {
      const root = await call(`${emu.url}${path}`, { headers: bearer });
      expect(root.status, path).toBe(404);
      expect(root.contentType).toMatch(/json/);
    }
    expect((await json(`${emu.url}/oauth2/access_token`, { grant_type: 'refresh_token' })).status).toBe(404);
    // An account's host serves no chat route and no control route.
    expect((await call(`${main!.base_url}/_control`)).status).toBe(404);
    expect((await call(`${main!.base_url}/v2/origin/custom/${env.CHANNEL_ID}/connect`, { method: 'POST' })).status).toBe(404);
  });

  it('serves the chat interface at its own host alone', async () => {
    const path = `/v2/origin/custom/${env.CHANNEL_ID}/connect`;
    const body = JSON.stringify({ account_id: env.CHAT_ACCOUNT_ID, title: 'Shape', hook_api_version: 'v2' });
    const headers = { ...signChatRequest({ method: 'POST', url: path, body, secret: env.CHANNEL_SECRET! }) };
    const connected = await call(`${env.CHAT_URL}${path}`, { method: 'POST', body, headers });
    expect(connected.status).toBe(200);
    expect(connected.json.scope_id).toEqual(expect.any(String));
    expect((await call(`${emu.url}${path}`, { method: 'POST', body, headers })).status).toBe(404);
    expect((await call(`${env.CHAT_URL}/api/v4/account`)).status).toBe(404);
  });

  it('answers the subdomain lookup with the account\'s own host', async () => {
    const consent = await json(`${env.CONTROL_URL}/consent`, { client_id: env.CLIENT_ID, decision: 'allow' });
    const pair = await json(`${env.BASE_URL}/oauth2/access_token`, {
      client_id: env.CLIENT_ID, client_secret: env.CLIENT_SECRET, grant_type: 'authorization_code', code: consent.json.code, redirect_uri: env.REDIRECT_URI,
    });
    const lookup = await call(`${env.BASE_URL}/oauth2/account/current/subdomain`, { headers: { 'x-refresh-token': pair.json.refresh_token } });
    expect(lookup.status).toBe(200);
    expect(lookup.json.domain).toBe(new URL(env.BASE_URL!).host);
  });
});

describe('the deployed shape with the chat interface on a port of its own (variation chat-origin-own-port)', () => {
  it('names that port as CHAT_URL, serves the chat interface there and nothing else', async () => {
    const emu = await startEmulator({ shape: 'deployed', variations: ['chat-origin-own-port'] });
    try {
      const env = emu.env();
      const chat = new URL(env.CHAT_URL!);
      expect(chat.hostname).toBe('127.0.0.1');
      expect(chat.port).not.toBe(new URL(emu.url).port);
      const path = `/v2/origin/custom/${env.CHANNEL_ID}/connect`;
      const body = JSON.stringify({ account_id: env.CHAT_ACCOUNT_ID, title: 'Port', hook_api_version: 'v2' });
      const connected = await fetch(`${env.CHAT_URL}${path}`, { method: 'POST', body, headers: signChatRequest({ method: 'POST', url: path, body, secret: env.CHANNEL_SECRET! }) });
      expect(connected.status).toBe(200);
      expect((await fetch(`${env.CHAT_URL}/_control`)).status).toBe(404);
      expect((await fetch(`${env.CHAT_URL}/api/v4/account`)).status).toBe(404);
      // The chat host on the instance's port is then no address of the chat interface.
      const agent = new Agent({ connect: { lookup: emu.lookup } });
      try {
        const chatHost = `http://amojo.sandbox.localhost:${new URL(emu.url).port}`;
        expect((await undiciFetch(`${chatHost}${path}`, { method: 'POST', body, headers: signChatRequest({ method: 'POST', url: path, body, secret: env.CHANNEL_SECRET! }), dispatcher: agent })).status).toBe(404);
      } finally {
        await agent.close();
      }
    } finally {
      await emu.close();
    }
  });
});
