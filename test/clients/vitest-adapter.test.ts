/**
 * `conformance-kit/vitest` (docs/sandbox.md, "Rules as vitest tests"): selected rules run as tests of an integrator's
 * own vitest suite, one per rule, labelled for Allure by section and level through allure-vitest's reporter. The docs'
 * example passes against a healthy sandbox; the same suite against a sandbox with a fault fails exactly the rules that
 * catch it.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { FAULTS } from '../../src/emulator/faults.js';
import { selectRules } from '../../src/vitest-adapter.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const VITEST = fileURLToPath(new URL('../../node_modules/vitest/vitest.mjs', import.meta.url));
const run = promisify(execFile);

interface AllureResult { readonly name: string; readonly status: string; readonly labels: readonly { name: string; value: string }[] }

/** Runs vitest on `root` with its Allure results in a fresh directory; the exit code, the output and the results. */
async function vitestRun(root: string, env: NodeJS.ProcessEnv = process.env): Promise<{ code: number; stdout: string; results: AllureResult[] }> {
  const dir = await mkdtemp(join(tmpdir(), 'conformance-allure-'));
  const options = { cwd: ROOT, env: { ...env, CI: '', ALLURE_RESULTS_DIR: dir }, maxBuffer: 16 * 1024 * 1024 };
  const { code, stdout } = await run(process.execPath, [VITEST, 'run', '--root', root], options)
    .then((r) => ({ code: 0, stdout: r.stdout }), (e: { code: number; stdout: string }) => ({ code: e.code, stdout: e.stdout }));
  const files = (await readdir(dir)).filter((f) => f.endsWith('-result.json'));
  const results = await Promise.all(files.map(async (f) => JSON.parse(await readFile(join(dir, f), 'utf8')) as AllureResult));
  return { code, stdout, results };
}

const label = (r: AllureResult, name: string) => r.labels.find((l) => l.name === name)?.value;

describe('conformance-kit/vitest', () => {
  it('runs the docs example: one passing test per selected rule, labelled by section and level', async () => {
    const rules = selectRules('5.2,api.bearer.*');
    const { code, stdout, results } = await vitestRun('docs/examples/vitest-rules');
    expect(code, stdout.slice(-3000)).toBe(0);
    expect(results).toHaveLength(rules.length);
    for (const rule of rules) {
      const result = results.find((r) => label(r, 'rule') === rule.id);
      expect(result, rule.id).toBeDefined();
      expect(result!.name).toBe(`[§${rule.section} ${rule.level}] ${rule.id}: ${rule.title}`);
      expect([label(result!, 'section'), label(result!, 'level'), label(result!, 'feature')]).toEqual([rule.section, rule.level, `§${rule.section}`]);
      expect(result!.status).toBe('passed');
    }
  }, 300_000);

  it('fails the rules that catch a fault, and passes the others', async () => {
    const { code, results } = await vitestRun('test/fixtures/vitest-rules-faulty');
    expect(code).not.toBe(0);
    const byStatus = (status: string) => results.filter((r) => r.status === status).map((r) => label(r, 'rule'));
    const must = FAULTS.find((f) => f.name === 'chat-signature-not-checked')!.caughtBy.filter((id) => id.startsWith('chat.signature.tampered-'));
    expect(byStatus('failed')).toEqual(expect.arrayContaining(must));
    expect(byStatus('passed')).toContain('chat.signature.valid');
    for (const r of results.filter((x) => x.status === 'failed')) expect([label(r, 'verdict'), label(r, 'level')], label(r, 'rule')).toEqual(['failed', 'must']);
  }, 300_000);

  it('runs against a file\'s own https sandbox in the same process, trusting its CA through CA_FILE alone', async () => {
    const { NODE_EXTRA_CA_CERTS: _extra, ...env } = process.env;
    const rules = selectRules('api.bearer.*');
    const trusted = await vitestRun('test/fixtures/vitest-rules-https', env);
    expect(trusted.code, trusted.stdout.slice(-3000)).toBe(0);
    expect(trusted.results.map((r) => label(r, 'rule')).sort()).toEqual(rules.map((r) => r.id).sort());
    expect(trusted.results.filter((r) => r.status !== 'passed').map((r) => label(r, 'rule'))).toEqual([]);
    // The same settings less CA_FILE: the kit cannot trust the sandbox, so no rule reaches a verdict (Allure: broken).
    const untrusted = await vitestRun('test/fixtures/vitest-rules-https', { ...env, WITHOUT_CA_FILE: '1' });
    expect(untrusted.code).not.toBe(0);
    expect(untrusted.results).toHaveLength(rules.length);
    expect(new Set(untrusted.results.map((r) => r.status))).toEqual(new Set(['broken']));
  }, 300_000);

  it('refuses a selection that names no rule', () => {
    expect(() => selectRules('no.such.rule')).toThrow(/selects no rule/);
  });
});
