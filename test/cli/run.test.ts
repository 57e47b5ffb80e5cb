/**
 * The command line's errors: exit codes and one clear line. Its whole runs end to end (the README's first command,
 * the five outputs, no secret in any output) are the configuration runs of test/configurations/suite.test.ts.
 */
import { mkdtemp, readFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Report } from '../../src/model/result.js';
import { conformance } from './helpers.js';

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  await new Promise((r) => server.close(r));
  return port;
}

describe('conformance run: errors', () => {
  it('exits 3 with one clear line when the remote target is a closed port', async () => {
    const port = await closedPort();
    const r = await conformance(['run', '--target', 'remote'], {
      env: { BASE_URL: `http://127.0.0.1:${port}`, CLIENT_ID: 'x', CLIENT_SECRET: 'y', REDIRECT_URI: 'https://r.example/cb' },
    });
    expect(r.code).toBe(3);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain(`cannot reach the target at BASE_URL http://127.0.0.1:${port}: connection refused`);
  });

  it('exits 2 naming an unknown flag, in one line', async () => {
    const r = await conformance(['run', '--colour']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe("conformance run: unknown option '--colour'\n");
  });

  it('exits 2 naming a malformed URL setting', async () => {
    const r = await conformance(['run', '--target', 'remote'], { env: { BASE_URL: 'not a url', CLIENT_ID: 'x', CLIENT_SECRET: 'y', REDIRECT_URI: 'https://r.example/cb' } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('BASE_URL is not a valid URL');
  });

  it('exits 2 naming a missing setting, a bad value and a bad env file', async () => {
    const missing = await conformance(['run', '--target', 'remote'], { env: { BASE_URL: 'http://127.0.0.1:1' } });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('CLIENT_ID is not set');
    const seed = await conformance(['run', '--seed', 'abc']);
    expect(seed.code).toBe(2);
    expect(seed.stderr).toContain('--seed must be an integer');
    const target = await conformance(['run'], { env: { CONFORMANCE_TARGET: 'staging' } });
    expect(target.code).toBe(2);
    expect(target.stderr).toContain('CONFORMANCE_TARGET must be one of emulator, remote; got "staging"');
    const file = await conformance(['run', '--env-file', '/nonexistent/.env']);
    expect(file.code).toBe(2);
    expect(file.stderr).toContain('--env-file');
    const only = await conformance(['run', '--only', 'no.such.rule']);
    expect(only.code).toBe(2);
    expect(only.stderr).toContain('--only matches no rule');
  });

  it('exits 2 naming a bad --budget, and runs within one: the rules left out are skipped with why, and the report lists them', async () => {
    const bad = await conformance(['run', '--budget', 'lots']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--budget must be a number of requests');
    const dir = await mkdtemp(join(tmpdir(), 'conformance-budget-'));
    // Each run its own cache folder (where the request counts live, outside node_modules, which `npm ci` wipes).
    const cache = (name: string) => ({ env: { CONFORMANCE_CACHE_DIR: join(dir, `cache-${name}`) } });
    const first = await conformance(['run', '--only', '2.3', '--seed', '5', '--runs', '2', '--out', join(dir, 'first')], cache('kept'));
    expect(first.code).toBe(0);
    // No counts known yet (a fresh CI job without --baseline): every selected rule runs, and the run says why.
    const unknown = await conformance(['run', '--only', '2.3', '--seed', '5', '--runs', '2', '--budget', '4', '--out', join(dir, 'unknown')], cache('empty'));
    expect(unknown.code, unknown.stderr).toBe(0);
    expect(unknown.stderr).toContain('--budget 4: no request counts are known yet (run once without it, or give --baseline)');
    // The counts the first run kept in its cache folder.
    const kept = await conformance(['run', '--only', '2.3', '--seed', '5', '--runs', '2', '--budget', '4', '--out', join(dir, 'kept')], cache('kept'));
    expect(kept.stderr).toMatch(/--budget 4 requests: [1-9]\d* of \d+ rules left out/);
    // From --baseline alone, in a folder that holds none.
    const r = await conformance(['run', '--only', '2.3', '--seed', '5', '--runs', '2', '--budget', '4', '--baseline', join(dir, 'first', 'report.json'), '--out', join(dir, 'budget')], cache('baseline'));
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/--budget 4 requests: [1-9]\d* of \d+ rules left out/);
    const report = JSON.parse(await readFile(join(dir, 'budget', 'report.json'), 'utf8')) as Report;
    const budget = report.options?.budget as { requests: number; left_out: string[] };
    expect(budget.requests).toBe(4);
    expect(budget.left_out.length).toBeGreaterThan(0);
    for (const id of budget.left_out) expect(report.results.find((x) => x.id === id)?.detail).toMatch(/^left out by --budget 4 requests/);
    expect(report.request_count).toBeLessThanOrEqual(4 + 2);
  });

  it('lists rules', async () => {
    const r = await conformance(['rules', '--json']);
    expect(r.code).toBe(0);
    const rules = JSON.parse(r.stdout) as { id: string; section: string }[];
    expect(rules.length).toBeGreaterThan(20);
    expect(rules[0]).toHaveProperty('section');
  });
});
