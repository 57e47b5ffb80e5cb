/**
 * A remote run at RATE_LIMIT_RPS=5 and CHAT_RATE_LIMIT_RPS=4 never puts more than 5 requests to the account API and
 * OAuth, nor more than 4 to the chat interface, into any 1-second window, measured at the emulator per interface, and
 * runs both at once; and a server that answers 429 is waited for, not failed.
 */
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import type { Report } from '../../src/model/result.js';
import { conformance } from './helpers.js';

let emulator: RunningEmulator | undefined;
afterEach(() => emulator?.close());

interface Counts { requests: number; max_per_second: number }
async function traffic(url: string, body?: unknown): Promise<Counts & { by_interface: Record<'api' | 'chat' | 'control', Counts> }> {
  const res = await fetch(`${url}/_control/traffic`, body === undefined ? {} : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return (await res.json()) as Counts & { by_interface: Record<'api' | 'chat' | 'control', Counts> };
}

describe('rate limit of remote runs', () => {
  it('keeps every 1-second window of each interface within its own limit, both used at once', async () => {
    emulator = await startEmulator();
    await traffic(emulator.url, { reset: true });
    const out = await mkdtemp(join(tmpdir(), 'conformance-rate-'));
    const r = await conformance(['run', '--target', 'remote', '--only', 'oauth.token.*.missing,oauth.token.code.wrong,chat.http.connect.malformed-json,chat.http.message.malformed-json,chat.http.status.malformed-json', '--runs', '6', '--seed', '3', '--out', out], {
      env: { ...emulator.env(), RATE_LIMIT_RPS: '5', CHAT_RATE_LIMIT_RPS: '4' },
    });
    expect(r.code, r.stderr).toBe(0);
    const { by_interface: seen, max_per_second: together } = await traffic(emulator.url);
    expect(seen.api.requests).toBeGreaterThan(12);
    expect(seen.chat.requests).toBeGreaterThan(12);
    expect(seen.api.max_per_second).toBeLessThanOrEqual(5);
    expect(seen.chat.max_per_second).toBeLessThanOrEqual(4);
    // Each limit is used, not undershot, and the two run side by side rather than taking turns under one budget.
    expect(seen.api.max_per_second).toBeGreaterThanOrEqual(4);
    expect(seen.chat.max_per_second).toBeGreaterThanOrEqual(3);
    expect(together - seen.control.max_per_second).toBeGreaterThan(5);
  });

  it('waits out 429 answers with Retry-After instead of failing rules', async () => {
    emulator = await startEmulator();
    await traffic(emulator.url, { limit_rps: 4 });
    const out = await mkdtemp(join(tmpdir(), 'conformance-429-'));
    // The client's ceiling is above the server's, as when the live limit is lower than configured.
    const r = await conformance(['run', '--target', 'remote', '--only', 'oauth.token-response.*', '--seed', '3', '--out', out], {
      env: { ...emulator.env(), RATE_LIMIT_RPS: '8' },
    });
    const report = JSON.parse(await readFile(join(out, 'report.json'), 'utf8')) as Report;
    expect(r.code, r.stderr).toBe(0);
    const ran = report.results.filter((x) => x.status !== 'skipped');
    expect(ran.length).toBeGreaterThan(3);
    expect(ran.filter((x) => x.status !== 'passed').map((x) => `${x.id}: ${x.detail}`)).toEqual([]);
    expect((await traffic(emulator.url)).requests).toBeGreaterThan(ran.length * 2); // some answers were 429s
  });
});
