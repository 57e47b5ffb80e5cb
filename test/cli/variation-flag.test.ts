/**
 * `conformance run --variation <name>`: the embedded emulator with an allowed variation on (docs/variations.md), for
 * runs that show the kit does not fail a server the spec allows. Under the history that shows a write late and under
 * a 429 answered to every hundredth request (the page's navigations included), the rules those reach pass (issue 39);
 * an unknown name, or a remote target, is a usage error.
 */
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Report } from '../../src/model/result.js';
import { conformance } from './helpers.js';

const untrue = (r: Report) => r.results.filter((x) => x.status === 'failed' || x.status === 'errored').map((x) => `${x.id}: ${x.status} ${x.detail ?? ''}`);

describe('run --variation', () => {
  it('refuses a name that is no variation, and a remote target', async () => {
    const [unknown, remote] = await Promise.all([
      conformance(['run', '--variation', 'no-such-variation', '--dry-run']),
      conformance(['run', '--target', 'remote', '--variation', 'chat-history-lags', '--dry-run'], { env: { BASE_URL: 'http://127.0.0.1:9', CLIENT_ID: 'x', CLIENT_SECRET: 'y' } }),
    ]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('--variation');
    expect(unknown.stderr).toContain('no-such-variation');
    expect(remote.code).toBe(2);
    expect(remote.stderr).toContain('--variation');
  });

  it('passes the chat model, edits and imports under chat-history-lags, and the page and token rules under every-hundredth-429', async () => {
    const base = await mkdtemp(join(tmpdir(), 'conformance-variation-'));
    const run = (variation: string, only: string) => conformance(['run', '--variation', variation, '--only', only, '--profile', 'quick', '--seed', '5', '--out', join(base, variation)]);
    const [lags, limited] = await Promise.all([
      run('chat-history-lags', 'chat.model.*,chat.edit.*,chat.import.*'),
      run('every-hundredth-429', 'oauth.page.*,oauth.token.*'),
    ]);
    for (const [name, r] of [['chat-history-lags', lags], ['every-hundredth-429', limited]] as const) {
      expect(r.stderr).toContain(`allowed variation ${name}`);
      const report = JSON.parse(await readFile(join(base, name, 'report.json'), 'utf8')) as Report;
      expect(report.results.filter((x) => x.status !== 'skipped').length).toBeGreaterThan(3);
      expect(untrue(report), name).toEqual([]);
      expect(r.code, r.stderr).toBe(0);
    }
  }, 600_000);
});
