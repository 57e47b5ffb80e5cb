/**
 * HOST_RESOLVE (src/host-resolve.ts): the pairs it takes, the names each covers, what it refuses (exit 2 naming the
 * key), and that the kit's client reaches a name no DNS knows through it.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/errors.js';
import { chromiumHostRules, hostLookup, parseHostRules, ruleAddress } from '../../src/host-resolve.js';
import { hostRulesOf } from '../../src/targets/from-env.js';
import { HttpClient } from '../../src/targets/http.js';

describe('HOST_RESOLVE', () => {
  it('maps a name, and with *. a domain and every name under it, to an address', () => {
    const rules = parseHostRules(' *.Sandbox.localhost=127.0.0.1, api.example.test=[::1] ');
    expect(rules).toEqual([{ name: '*.sandbox.localhost', address: '127.0.0.1' }, { name: 'api.example.test', address: '::1' }]);
    expect(ruleAddress(rules, 'acme.sandbox.localhost')).toBe('127.0.0.1');
    expect(ruleAddress(rules, 'SANDBOX.localhost')).toBe('127.0.0.1');
    expect(ruleAddress(rules, 'a.b.sandbox.localhost')).toBe('127.0.0.1');
    expect(ruleAddress(rules, 'xsandbox.localhost')).toBeUndefined();
    expect(ruleAddress(rules, 'api.example.test')).toBe('::1');
    expect(ruleAddress(rules, 'www.example.test')).toBeUndefined();
    expect(chromiumHostRules(rules)).toBe('MAP *.sandbox.localhost 127.0.0.1, MAP sandbox.localhost 127.0.0.1, MAP api.example.test [::1]');
  });

  it.each([
    ['sandbox.localhost', /is not <name>=<address>/],
    ['*.sandbox.localhost=localhost', /is not an IP address/],
    ['http://x.test=127.0.0.1', /is not a host name/],
    ['a.*.test=127.0.0.1', /is not a host name/],
  ])('refuses %s, naming HOST_RESOLVE', (value, message) => {
    let err: unknown;
    try { hostRulesOf({ HOST_RESOLVE: value }); } catch (e) { err = e; }
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigError).key).toBe('HOST_RESOLVE');
    expect((err as Error).message).toMatch(message);
  });

  it('leaves names it does not cover to DNS', async () => {
    const lookup = hostLookup(parseHostRules('*.sandbox.localhost=127.0.0.2'));
    const address = await new Promise<string>((resolve, reject) => lookup('localhost', {}, (err, a) => (err ? reject(err) : resolve(a as string))));
    expect(['127.0.0.1', '::1']).toContain(address);
  });

  it('takes the kit\'s client, small bodies and large, to a name no DNS knows', async () => {
    const server = createServer((req, res) => {
      req.resume();
      req.on('end', () => res.end(`${req.headers.host}`));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const client = new HttpClient({ lookup: hostLookup(parseHostRules('*.nowhere.invalid=127.0.0.1')) });
    try {
      const small = await client.send({ method: 'GET', url: `http://acme.nowhere.invalid:${port}/`, headers: {} });
      expect(small.text).toBe(`acme.nowhere.invalid:${port}`);
      const large = await client.send({ method: 'POST', url: `http://acme.nowhere.invalid:${port}/`, headers: {}, body: 'x'.repeat(300 * 1024) });
      expect(large.status).toBe(200);
    } finally {
      await client.close();
      server.close();
    }
  });
});
