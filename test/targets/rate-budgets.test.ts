/**
 * The kit's rate budgets, one per interface of the service (issue 29): the account API with OAuth at RATE_LIMIT_RPS,
 * the chat interface at CHAT_RATE_LIMIT_RPS, the control API unlimited. Measured at a server that logs every arrival:
 * no interface ever gets more than its limit in any one-second window, both run side by side, a 429 from the chat
 * interface pauses chat requests alone, and a 429 that outlasts every retry ends the rule `errored`, never judged.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { status } from '../../src/checks/status.js';
import { exchangeRule } from '../../src/model/define.js';
import { defineSpec } from '../../src/model/rule.js';
import type { TargetConfig } from '../../src/model/target.js';
import { clientFor } from '../../src/runner/execute.js';
import { runRule } from '../../src/runner/run-rule.js';
import { Masker } from '../../src/secrets/mask.js';
import { targetFromEnv } from '../../src/targets/from-env.js';
import { HttpClient } from '../../src/targets/http.js';
import { rateBudgets } from '../../src/targets/rate-limit.js';

const CHAT = '/v2/origin/custom/channel-1/new_message';
let server: Server;
let base = '';
/** Arrival times (ms) per interface, as the server saw them. */
let arrivals: Record<'api' | 'chat' | 'control', number[]>;
/** Answers of the chat path that are 429s before the first 200. */
let chat429s = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    const url = req.url ?? '';
    const which = url.startsWith('/_control') ? 'control' : url.startsWith('/v2/origin/custom/') ? 'chat' : 'api';
    arrivals[which].push(performance.now());
    if (url === '/api/v4/always-limited') { res.writeHead(429, { 'retry-after': '0' }).end(); return; }
    if (which === 'chat' && chat429s > 0) {
      chat429s -= 1;
      res.writeHead(429, { 'retry-after': '2' }).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  arrivals = { api: [], chat: [], control: [] };
  chat429s = 0;
});

function maxPerSecond(times: readonly number[]): number {
  const sorted = [...times].sort((a, b) => a - b);
  let best = 0;
  for (let lo = 0, hi = 0; hi < sorted.length; hi += 1) {
    while (sorted[hi]! - sorted[lo]! >= 1000) lo += 1;
    best = Math.max(best, hi - lo + 1);
  }
  return best;
}

const remote = (env: Record<string, string>): TargetConfig => targetFromEnv({
  BASE_URL: base, CONTROL_URL: `${base}/_control`, CLIENT_ID: 'id', CLIENT_SECRET: 'secret', REDIRECT_URI: 'https://integration.example/cb', ...env,
}, 'remote');

describe('rate budgets per interface', () => {
  it('reads CHAT_RATE_LIMIT_RPS, defaulting to RATE_LIMIT_RPS, and names a bad value', () => {
    expect(remote({})).toMatchObject({ rateLimitRps: 7, chatRateLimitRps: 7 });
    expect(remote({ RATE_LIMIT_RPS: '5' })).toMatchObject({ rateLimitRps: 5, chatRateLimitRps: 5 });
    expect(remote({ RATE_LIMIT_RPS: '5', CHAT_RATE_LIMIT_RPS: '3' })).toMatchObject({ rateLimitRps: 5, chatRateLimitRps: 3 });
    expect(remote({ RATE_LIMIT_RPS: '0' }).chatRateLimitRps).toBeUndefined();
    expect(remote({ CHAT_RATE_LIMIT_RPS: '0' })).toMatchObject({ rateLimitRps: 7 });
    expect(remote({ CHAT_RATE_LIMIT_RPS: '0' }).chatRateLimitRps).toBeUndefined();
    expect(() => remote({ CHAT_RATE_LIMIT_RPS: 'fast' })).toThrow(/CHAT_RATE_LIMIT_RPS.*positive number/);
  });

  it('counts the chat interface, the control API and the rest each in its own budget, by path at one address', () => {
    const client = new HttpClient({ budgets: rateBudgets(remote({})) });
    expect(client.budgetOf(`${base}${CHAT}`)).toBe('chat');
    expect(client.budgetOf(`${base}/_control/consent`)).toBe('control');
    expect(client.budgetOf(`${base}/_controlled`)).toBe('api');
    expect(client.budgetOf(`${base}/api/v4/leads`)).toBe('api');
    expect(client.budgetOf(`${base}/oauth2/access_token`)).toBe('api');
    // The access-granting page is an interface of its own (`{auth_url}`, www on the live service).
    for (const path of ['/oauth', '/oauth?client_id=x', '/oauth/login', '/oauth/logo/x.png']) expect(client.budgetOf(`${base}${path}`), path).toBe('page');
    expect(client.budgetOf(`${base}/oauthx`)).toBe('api');
    return client.close();
  });

  it('never puts more than its limit into any one-second window of either interface, and runs both side by side', async () => {
    const client = clientFor(remote({ RATE_LIMIT_RPS: '5', CHAT_RATE_LIMIT_RPS: '4' }));
    try {
      await Promise.all([
        ...Array.from({ length: 12 }, () => client.send({ method: 'GET', url: `${base}/api/v4/account` })),
        ...Array.from({ length: 10 }, () => client.send({ method: 'POST', url: `${base}${CHAT}`, body: '{}' })),
        ...Array.from({ length: 20 }, () => client.send({ method: 'GET', url: `${base}/_control/clock` })),
      ]);
    } finally {
      await client.close();
    }
    expect(maxPerSecond(arrivals.api)).toBe(5);
    expect(maxPerSecond(arrivals.chat)).toBe(4);
    // The control API is no part of the service: nothing holds it back.
    expect(maxPerSecond(arrivals.control)).toBe(20);
    // Side by side: some second held more than either budget allows alone, which one budget for both never lets
    // happen (shown by the arrivals, not by how long the run took, which depends on the machine).
    expect(maxPerSecond([...arrivals.api, ...arrivals.chat])).toBeGreaterThan(5);
  });

  it('pauses the chat interface alone after its 429: the API lane goes on', async () => {
    const client = clientFor(remote({ RATE_LIMIT_RPS: '5' }));
    chat429s = 1;
    try {
      const chat = client.send({ method: 'POST', url: `${base}${CHAT}`, body: '{}' }).then(() => performance.now());
      await new Promise((r) => setTimeout(r, 100)); // the 429 (Retry-After: 2) has arrived
      const started = performance.now();
      for (let i = 0; i < 3; i += 1) expect((await client.send({ method: 'GET', url: `${base}/api/v4/account` })).status).toBe(200);
      const apiDone = performance.now();
      const chatDone = await chat;
      // The API's requests did not wait for the chat interface's pause (they end before its retry does), which lasted
      // at least most of its Retry-After: 2 (a lower bound, which a loaded machine only makes longer).
      expect(apiDone).toBeLessThan(chatDone);
      expect(chatDone - started).toBeGreaterThan(1_500);
      expect(arrivals.chat).toHaveLength(2);
    } finally {
      await client.close();
    }
  });

  it('ends a rule errored, showing the 429, when its request is still limited after every retry', async () => {
    const client = clientFor(remote({ RATE_LIMIT_RPS: '50' }));
    const rule = defineSpec({ section: '8', title: 'rate test', level: 'must', rules: [exchangeRule(
      { id: 'rate.exhausted', title: 'a rule whose request is always answered 429' },
      { send: (t) => t.send({ method: 'GET', url: `${t.target.baseUrl}/api/v4/always-limited` }), expect: [status(200)] },
    )] }).rules[0]!;
    try {
      const result = await runRule(rule, { target: remote({}), client, control: undefined, masker: new Masker(), seed: 1, runs: 1, runId: 'run-rate' });
      expect(result.status).toBe('errored');
      expect(result.detail).toMatch(/rate limited: still answered 429 after 6 attempts/);
      expect(result.exchanges?.at(-1)?.response?.status).toBe(429);
      expect(arrivals.api).toHaveLength(6);
    } finally {
      await client.close();
    }
  });
});
