/**
 * `conformance compare` end to end, as a CI job runs it: the exit code follows --fail-on, compare.json and
 * compare.html are written, a remote server comes from its own env file (here a standalone emulator, as a staging
 * account would), and every mistaken flag is one line naming it with exit 2.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import type { ComparisonReport } from '../../src/compare/types.js';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { emulatorSettings } from '../../src/needs/emulator-settings.js';
import { conformance } from '../cli/helpers.js';

async function cli(...argv: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
  return { code, stdout, stderr };
}

const dir = mkdtempSync(join(tmpdir(), 'compare-cli-'));
const ONLY = ['--only', 'chat.connect.answer', '--seed', '5'];

describe('conformance compare', () => {
  it('exits 1 on a difference of a --fail-on class and writes compare.json and compare.html', async () => {
    const out = join(dir, 'variation');
    const r = await conformance(['compare', '--primary', 'emulator', '--candidate', 'emulator', '--variation', 'json-media-type-no-charset', ...ONLY, '--out', out]);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toMatch(/^1 difference \(header 1\) \[0 verdict changes, 1 allowed by the spec\], 0 noise places; 1 rules and 1 exchanges compared \(seed 5\)\nreports: .*compare\.html\n$/);
    expect(r.stderr).toContain('candidate: the embedded emulator (variation json-media-type-no-charset)');
    const report = JSON.parse(readFileSync(join(out, 'compare.json'), 'utf8')) as ComparisonReport;
    expect(report.differences.map((d) => `${d.class} ${d.place} ${d.primary.value} → ${d.candidate.value}`)).toEqual(['header header content-type application/json; charset=utf-8 → application/json']);
    expect(report.options).toMatchObject({ runs: 5, only: 'chat.connect.answer', profile: 'quick', fail_on: 'verdict,exchange,status,header,shape,length,value,order,timing' });
    expect(readFileSync(join(out, 'compare.html'), 'utf8')).toContain('header content-type');
  }, 90_000);

  it('the release gate: exits 1 on a fault that fails a `must` rule, even when its differences are of no --fail-on class', async () => {
    // token-type-mac changes a value (token_type), not a status, shape or header: the verdict change alone fails the gate.
    const out = join(dir, 'fault');
    const gate = ['--fail-on', 'status,shape,header'];
    const r = await conformance(['compare', '--primary', 'emulator', '--candidate', 'emulator', '--fault', 'token-type-mac', '--only', 'oauth.token-response.token-type', '--seed', '5', ...gate, '--out', out]);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain('verdict change: oauth.token-response.token-type passed → failed');
    const report = JSON.parse(readFileSync(join(out, 'compare.json'), 'utf8')) as ComparisonReport;
    expect(report.differences[0]).toMatchObject({ class: 'verdict', standing: 'changes a verdict', verdicts: { primary: 'passed', candidate: 'failed' } });
    expect(report.differences.some((d) => ['status', 'shape', 'header'].includes(d.class))).toBe(false);
    const html = readFileSync(join(out, 'compare.html'), 'utf8');
    expect(html.indexOf('id="verdict-changes"')).toBeGreaterThan(0);
    expect(html.indexOf('id="verdict-changes"')).toBeLessThan(html.indexOf('id="endpoints"'));
    // --fail-on none: the exit code says only that the comparison ran.
    const none = await conformance(['compare', '--primary', 'emulator', '--candidate', 'emulator', '--fault', 'token-type-mac', '--only', 'oauth.token-response.token-type', '--seed', '5', '--fail-on', 'none', '--out', join(dir, 'fault-none')]);
    expect(none.code, none.stderr).toBe(0);
  }, 300_000); // two comparisons, each two runs: a bound for a loaded machine, not a measure of speed

  it('the release gate: passes an allowed variation that changes no verdict, its differences shown as allowed by the spec', async () => {
    const out = join(dir, 'allowed');
    const r = await conformance(['compare', '--primary', 'emulator', '--candidate', 'emulator', '--variation', 'json-media-type-no-charset', ...ONLY, '--fail-on', 'status,shape,header', '--out', out]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('1 difference (header 1) [0 verdict changes, 1 allowed by the spec]');
    const report = JSON.parse(readFileSync(join(out, 'compare.json'), 'utf8')) as ComparisonReport;
    expect(report.differences.map((d) => `${d.class} ${d.standing}`)).toEqual(['header allowed by the spec']);
    const html = readFileSync(join(out, 'compare.html'), 'utf8');
    expect(html).toContain('id="no-verdict-changes"');
    expect(html.slice(html.indexOf('id="allowed-differences"'))).toContain('header content-type');
  }, 90_000);

  it('exits 0 when the differences are of classes --fail-on leaves out', async () => {
    const r = await conformance(['compare', '--primary', 'emulator', '--candidate', 'emulator', '--variation', 'json-media-type-no-charset', ...ONLY, '--fail-on', 'status,shape', '--out', join(dir, 'lenient')]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('1 difference (header 1)');
  }, 90_000);

  describe('a remote server from its own env file', () => {
    let emulator: RunningEmulator;
    let envFile: string;
    beforeAll(async () => {
      emulator = await startEmulator({ seed: 5 });
      envFile = join(dir, '.env.staging');
      const settings = await emulatorSettings(emulator);
      writeFileSync(envFile, Object.entries(settings).map(([k, v]) => `${k}=${v}`).join('\n'));
    });
    afterAll(() => emulator?.close());

    it('compares it with the embedded emulator, its settings read from the file alone', async () => {
      const out = join(dir, 'remote');
      // BASE_URL in the process environment must not reach either server: each comes from its own file.
      const r = await conformance(['compare', '--primary', envFile, '--candidate', 'emulator', ...ONLY, '--out', out], { env: { BASE_URL: 'http://127.0.0.1:9' } });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/^0 differences, 0 noise places; 1 rules and 1 exchanges compared/);
      const report = JSON.parse(readFileSync(join(out, 'compare.json'), 'utf8')) as ComparisonReport;
      expect(report.primary).toMatchObject({ kind: 'remote', base_url: emulator.url });
      expect(report.candidate.kind).toBe('emulator');
      const text = readFileSync(join(out, 'compare.json'), 'utf8') + readFileSync(join(out, 'compare.html'), 'utf8');
      for (const secret of emulator.issuedSecrets()) expect(text).not.toContain(secret);
    }, 90_000);
  });

  const mistakes: [string[], RegExp][] = [
    [['--candidate', 'emulator'], /^conformance compare: --primary is required: `emulator` or the env file of a server\n$/],
    [['--primary', 'emulator', '--candidate', join(dir, 'missing.env')], /--candidate names neither `emulator` nor an existing env file/],
    [['--primary', 'emulator', '--candidate', 'emulator', '--fail-on', 'colour'], /--fail-on must be any, none or a list of verdict, exchange, status/],
    [['--primary', 'emulator', '--candidate', 'emulator', '--fault', 'no-such-fault'], /--fault names no fault: no-such-fault/],
    [['--primary', 'emulator', '--candidate', 'emulator', '--only', 'no.such.rule'], /--only matches no rule/],
    [['--primary', 'emulator', '--candidate', 'emulator', '--profile', 'soak'], /--profile must be one of quick, full/],
    [['--primary', 'emulator', '--candidate', 'emulator', '--noise-runs', '0'], /--noise-runs must be an integer of at least 1/],
    [['--primary', 'emulator', '--candidate', 'emulator', '--seeed', '1'], /unknown option '--seeed'; did you mean '--seed'\?/],
  ];
  for (const [argv, message] of mistakes) {
    it(`compare ${argv.join(' ')}: exit 2, one line`, async () => {
      const r = await cli('compare', ...argv);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    });
  }

  it('refuses a switch for a candidate that is not the emulator', async () => {
    const env = join(dir, '.env.other');
    writeFileSync(env, 'BASE_URL=http://127.0.0.1:9\n');
    const r = await cli('compare', '--primary', 'emulator', '--candidate', env, '--variation', 'lists-id-descending');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--variation switches the embedded emulator: it needs --candidate emulator');
  });
});
