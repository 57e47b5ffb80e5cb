/**
 * A remote run with RATE_LIMIT_RPS: the browser's requests to the target (page, login, decide, logo) are kept to the
 * limit in the access-granting page's own budget, measured at the emulator.
 */
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { startEmulator } from '../../src/emulator/index.js';
import type { Report } from '../../src/model/result.js';
import { conformance } from '../cli/helpers.js';

it('keeps the page rules within RATE_LIMIT_RPS=5 at the emulator', async () => {
  const emulator = await startEmulator();
  try {
    await fetch(`${emulator.url}/_control/traffic`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ reset: true }) });
    const out = await mkdtemp(join(tmpdir(), 'conformance-browser-rate-'));
    const r = await conformance(['run', '--target', 'remote', '--only', 'oauth.page.*', '--seed', '3', '--out', out], {
      env: { ...emulator.env(), RATE_LIMIT_RPS: '5' },
    });
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(await readFile(join(out, 'report.json'), 'utf8')) as Report;
    expect(report.results.filter((x) => x.status !== 'skipped').map((x) => `${x.id}: ${x.status}`)).toEqual(
      report.results.filter((x) => x.id.startsWith('oauth.page.')).map((x) => `${x.id}: ${x.level === 'info' ? 'informational' : 'passed'}`));
    // The page is an interface of its own, kept to the limit like the others (the control API has no ceiling: no part of the service).
    type Counts = { requests: number; max_per_second: number };
    const seen = ((await (await fetch(`${emulator.url}/_control/traffic`)).json()) as { by_interface: { page: Counts } }).by_interface.page;
    expect(seen.requests).toBeGreaterThan(20);
    expect(seen.max_per_second).toBeLessThanOrEqual(5);
  } finally {
    await emulator.close();
  }
}, 150_000);
