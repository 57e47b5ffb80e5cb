/**
 * K21: a 429 is never a failure in itself (§8 "Rate limits: not shown"): the kit's client waits it out after its
 * Retry-After even without RATE_LIMIT_RPS, so no check sees it unless it repeats.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RateLimitedError } from '../../src/errors.js';
import { HttpClient } from '../../src/targets/http.js';

let server: Server;
let url: string;
let calls = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    calls += 1;
    if (req.url === '/always') { res.writeHead(429, { 'retry-after': '0' }).end(); return; }
    if (calls % 2 === 1) { res.writeHead(429, { 'retry-after': '0' }).end(); return; }
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('HttpClient and 429 without RATE_LIMIT_RPS', () => {
  it('retries a 429 after its Retry-After and returns the answer that follows', async () => {
    const client = new HttpClient();
    calls = 0;
    const res = await client.send({ method: 'GET', url: `${url}/once`, headers: {} });
    expect(res.status).toBe(200);
    expect(calls).toBe(2);
    await client.close();
  });

  it('gives up after a few retries with RateLimitedError (the rule ends errored), never handing a check the 429', async () => {
    const client = new HttpClient();
    calls = 0;
    await expect(client.send({ method: 'GET', url: `${url}/always`, headers: {} })).rejects.toBeInstanceOf(RateLimitedError);
    expect(calls).toBe(3);
    await client.close();
  });
});
