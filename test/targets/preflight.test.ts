/**
 * The preflight of a remote run (src/targets/preflight.ts): against a correct emulator it passes and changes nothing;
 * a page server is not the service (exit 3, naming the URL); a secret the target refuses is a setting (exit 2, naming
 * the key).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { ConfigError, UnreachableError } from '../../src/errors.js';
import { targetFromEnv } from '../../src/targets/from-env.js';
import { HttpClient } from '../../src/targets/http.js';
import { preflight } from '../../src/targets/preflight.js';
import { emulatorSettings } from '../../src/needs/emulator-settings.js';

let emulator: RunningEmulator;
let settings: Record<string, string>;
let page: Server;
let pageUrl: string;
const client = new HttpClient();

beforeAll(async () => {
  emulator = await startEmulator();
  settings = await emulatorSettings(emulator);
  page = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>Welcome</body></html>'));
  await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve));
  pageUrl = `http://127.0.0.1:${(page.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await client.close();
  page?.close();
  await emulator?.close();
});

/** What the emulator describes of itself, but the time. */
const overview = async () => {
  const { now: _now, ...rest } = (await (await fetch(`${emulator.url}/_control`)).json()) as Record<string, unknown>;
  return rest;
};
const target = (env: Record<string, string>) => targetFromEnv({ ...settings, ...env, RATE_LIMIT_RPS: '0' }, 'remote');

async function failure(env: Record<string, string>): Promise<Error> {
  return preflight(target(env), client).then(() => { throw new Error('the preflight passed'); }, (err: Error) => err);
}

describe('preflight', () => {
  it('passes against the emulator with its printed settings, every URL and channel checked', async () => {
    const result = await preflight(target({}), client);
    expect(result.checked.join('\n')).toMatch(/CLIENT_SECRET/);
    expect(result.checked.join('\n')).toMatch(/CHANNEL_SECRET signs/);
    expect(result.checked.join('\n')).toMatch(/LONG_LIVED_TOKEN reads the account/);
    expect(result.requests).toBeLessThan(15);
  });

  it('a page served at BASE_URL is not the service: UnreachableError naming BASE_URL', async () => {
    const { CONTROL_URL: _control, ...withoutControl } = settings;
    const err = await preflight(targetFromEnv({ ...withoutControl, BASE_URL: pageUrl, RATE_LIMIT_RPS: '0' }, 'remote'), client).catch((e: Error) => e);
    expect(err).toBeInstanceOf(UnreachableError);
    expect((err as Error).message).toContain(`BASE_URL ${pageUrl}`);
    expect((err as Error).message).toMatch(/text\/html/);
  });

  it('a page served at CHAT_URL is not the chat interface: UnreachableError naming CHAT_URL', async () => {
    const err = await failure({ CHAT_URL: pageUrl });
    expect(err).toBeInstanceOf(UnreachableError);
    expect(err.message).toContain(`CHAT_URL ${pageUrl}`);
  });

  it('nothing listening: UnreachableError naming the URL', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise((resolve) => closed.close(resolve));
    const { CONTROL_URL: _control, ...withoutControl } = settings;
    const err = await preflight(targetFromEnv({ ...withoutControl, BASE_URL: url, RATE_LIMIT_RPS: '0' }, 'remote'), client).catch((e: Error) => e);
    expect(err).toBeInstanceOf(UnreachableError);
    expect((err as Error).message).toContain(`BASE_URL ${url}`);
  });

  it.each([
    ['CLIENT_SECRET', 'a'.repeat(40)],
    ['CHANNEL_SECRET', 'b'.repeat(40)],
    ['CHANNEL_SECRET_2', 'c'.repeat(40)],
    ['LONG_LIVED_TOKEN', 'not-a-token'],
  ])('a wrong %s: ConfigError naming it, and the emulator as it was', async (key, value) => {
    const before = await overview();
    const err = await failure({ [key]: value });
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigError).key).toBe(key);
    expect(err.message).not.toContain(value);
    expect(await overview()).toEqual(before);
    // The right settings still pass: nothing the preflight sent changed a secret or consumed a credential.
    await expect(preflight(target({}), client)).resolves.toBeDefined();
  });

  it('an unknown CHANNEL_ID: ConfigError naming it', async () => {
    const err = await failure({ CHANNEL_ID: 'no-such-channel' });
    expect((err as ConfigError).key).toBe('CHANNEL_ID');
  });
});
