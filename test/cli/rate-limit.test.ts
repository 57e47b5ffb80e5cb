/**
 * A remote run at RATE_LIMIT_RPS=5 never puts more than 5 requests into any 1-second window, measured at the
 * emulator; and a server that answers 429 is waited for, not failed.
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

async function traffic(url: string, body?: unknown): Promise<{ requests: number; max_per_second: number }> {
  const res = await fetch(`${url}/_control/traffic`, body === undefined ? {} : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return (await res.json()) as { requests: number; max_per_second: number };
}

describe('rate limit of remote runs', () => {
  it('keeps every 1-second window at the emulator within RATE_LIMIT_RPS=5', async () => {
    emulator = await startEmulator();
    await traffic(emulator.url, { reset: true });
    const out = await mkdtemp(join(tmpdir(), 'conformance-rate-'));
    const r = await conformance(['run', '--target', 'remote', '--only', 'oauth.token.code.wrong,oauth.token-response.*', '--runs', '6', '--seed', '3', '--out', out], {
      env: { ...emulator.env(), RATE_LIMIT_RPS: '5' },
    });
    expect(r.code, r.stderr).toBe(0);
    const seen = await traffic(emulator.url);
    expect(seen.requests).toBeGreaterThan(20);
    expect(seen.max_per_second).toBeLessThanOrEqual(5);
    expect(seen.max_per_second).toBeGreaterThanOrEqual(4); // the limit is used, not undershot
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
