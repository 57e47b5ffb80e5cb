/**
 * The CI gate and certification: shards joined by merge equal one run; a baseline turns failures into regressions;
 * a certificate is refused when something fails and detects any edit; a dry run sends nothing.
 */
import { mkdtemp, readFile, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import type { Report } from '../../src/model/result.js';
import type { Certificate } from '../../src/report/certificate.js';
import { conformance } from './helpers.js';

const readJson = async <T>(path: string) => JSON.parse(await readFile(path, 'utf8')) as T;
const verdicts = (r: Report) => Object.fromEntries(r.results.map((x) => [x.id, x.status]));
const ONLY = '2.3,3.1,5.1,oauth.token.code.*';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'conformance-gate-'));
});

describe('shards and merge', () => {
  it('runs each rule in exactly one shard, and the merged report equals an unsharded run', async () => {
    const common = ['--only', ONLY, '--seed', '11', '--runs', '3'];
    const [whole, s1, s2] = await Promise.all([
      conformance(['run', ...common, '--out', join(dir, 'whole')]),
      conformance(['run', ...common, '--shard', '1/2', '--out', join(dir, 's1')]),
      conformance(['run', ...common, '--shard', '2/2', '--out', join(dir, 's2')]),
    ]);
    expect([whole.code, s1.code, s2.code]).toEqual([0, 0, 0]);
    const a = await readJson<Report>(join(dir, 's1', 'report.json'));
    const b = await readJson<Report>(join(dir, 's2', 'report.json'));
    const ranIn = (r: Report) => r.results.filter((x) => !x.detail.startsWith('runs in another shard') && x.status !== 'skipped').map((x) => x.id);
    expect(ranIn(a).filter((id) => ranIn(b).includes(id))).toEqual([]);
    expect(ranIn(a).length).toBeGreaterThan(3);
    expect(ranIn(b).length).toBeGreaterThan(3);

    const merged = await conformance(['merge', join(dir, 's1', 'report.json'), join(dir, 's2', 'report.json'), '--out', join(dir, 'merged')]);
    expect(merged.code, merged.stderr).toBe(0);
    const mergedReport = await readJson<Report>(join(dir, 'merged', 'report.json'));
    const wholeReport = await readJson<Report>(join(dir, 'whole', 'report.json'));
    expect(verdicts(mergedReport)).toEqual(verdicts(wholeReport));
    // The statement table is recomputed from the merged results: the whole run's, not either shard's.
    const table = (r: Report) => r.statements!.map((st) => `${st.id} ${st.judgement} ${st.cause ?? ''}`);
    const counts = (r: Report) => r.statements!.reduce<Record<string, number>>((n, st) => ({ ...n, [st.judgement]: (n[st.judgement] ?? 0) + 1 }), {});
    expect(table(mergedReport)).toEqual(table(wholeReport));
    expect(counts(mergedReport)).toEqual(counts(wholeReport));
    for (const shardReport of [a, b]) expect(counts(shardReport).full ?? 0).toBeLessThan(counts(mergedReport).full ?? 0);

    // A merged run of --only, or one shard alone, is not the whole suite: no certificate, one line naming why, exit 2.
    const partial = await conformance(['certify', '--from', join(dir, 'merged', 'report.json'), '--out', join(dir, 'merged')]);
    expect(partial.code, partial.stderr).toBe(2);
    expect(partial.stderr).toContain('--from: no certificate: the report is of a run of --only');
    expect(partial.stderr.trim().split('\n')).toHaveLength(1);
    const one = await conformance(['certify', '--from', join(dir, 's1', 'report.json'), '--out', join(dir, 'one')]);
    expect(one.code).toBe(2);
    await expect(readFile(join(dir, 'merged', 'certificate.json'))).rejects.toThrow();
  });

  it('refuses the same shard twice', async () => {
    const twice = await conformance(['merge', join(dir, 's1', 'report.json'), join(dir, 's1', 'report.json'), '--out', join(dir, 'twice')]);
    expect(twice.code).toBe(2);
    expect(twice.stderr).toContain('shard 1/2 is given twice');
  });

  it('refuses a malformed shard and reports that do not belong together', async () => {
    const bad = await conformance(['run', '--shard', '3/2']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--shard');
    const other = await conformance(['run', '--only', '5.1', '--seed', '12', '--out', join(dir, 'seed12')]);
    expect(other.code).toBe(0);
    const mixed = await conformance(['merge', join(dir, 's1', 'report.json'), join(dir, 'seed12', 'report.json'), '--out', join(dir, 'mixed')]);
    expect(mixed.code).toBe(2);
  });
});

describe('against a faulty target', () => {
  let faulty: RunningEmulator;
  beforeAll(async () => {
    faulty = await startEmulator({ faults: ['token-type-mac'] });
  });
  afterAll(() => faulty?.close());

  it('exits 1 on a regression against a baseline, 0 when only known failures remain', async () => {
    const healthy = join(dir, 'whole', 'report.json');
    const env = faulty.env();
    const regress = await conformance(['run', '--target', 'remote', '--only', ONLY, '--seed', '11', '--runs', '3', '--baseline', healthy, '--out', join(dir, 'regress')], { env });
    expect(regress.code).toBe(1);
    expect(regress.stderr).toContain('regression: oauth.token-response.token-type');
    const report = await readJson<Report>(join(dir, 'regress', 'report.json'));
    // The fault breaks token_type in every token answer: the code grant's and the refresh grant's.
    expect([...(report.baseline?.regressions ?? [])].sort()).toEqual(['oauth.refresh.answer', 'oauth.token-response.token-type']);
    // What CI shows: the regressions head summary.md and report.html, and are failures of their own type in junit.xml.
    const summary = await readFile(join(dir, 'regress', 'summary.md'), 'utf8');
    expect(summary.split('\n')[0]).toMatch(/^# ❌ .*: 2 regressions against the baseline/);
    expect(summary.indexOf('## Regressions against the baseline (2)')).toBeLessThan(summary.indexOf('| verdict | count |'));
    const html = await readFile(join(dir, 'regress', 'report.html'), 'utf8');
    expect(html.indexOf('Regressions against the baseline (2)')).toBeLessThan(html.indexOf('<details class="rule"'));
    const junit = await readFile(join(dir, 'regress', 'junit.xml'), 'utf8');
    expect(junit.match(/<failure [^>]*type="regression"/g)).toHaveLength(2);

    // The faulty run as its own baseline: the failure is known, nothing regressed.
    const again = await conformance(['run', '--target', 'remote', '--only', ONLY, '--seed', '11', '--runs', '3', '--baseline', join(dir, 'regress', 'report.json'), '--out', join(dir, 'again')], { env });
    expect(again.code, again.stderr).toBe(0);
  });

  it('refuses a certificate when a rule fails', async () => {
    const r = await conformance(['certify', '--target', 'remote', '--only', ONLY, '--runs', '3', '--out', join(dir, 'refused')], { env: faulty.env() });
    expect(r.code).toBe(2); // --only does not apply to certification
    const full = await conformance(['certify', '--target', 'remote', '--runs', '2', '--seed', '5', '--out', join(dir, 'refused')], { env: faulty.env() });
    expect(full.code).toBe(1);
    expect(full.stderr).toContain('no certificate');
    await expect(readFile(join(dir, 'refused', 'certificate.json'))).rejects.toThrow();
  });
});

describe('certificates', () => {
  it('are issued signed on a clean run and detect any edit, another key, and another report', async () => {
    const out = join(dir, 'cert');
    const keys = await conformance(['keygen', '--out', join(dir, 'release')]);
    expect(keys.code, keys.stderr).toBe(0);
    expect((await stat(join(dir, 'release.key.pem'))).mode & 0o777).toBe(0o600);
    expect((await conformance(['keygen', '--out', join(dir, 'release')])).code).toBe(2); // never overwrites a key
    const pub = join(dir, 'release.pub.pem');
    const r = await conformance(['certify', '--runs', '2', '--seed', '9', '--key', join(dir, 'release.key.pem'), '--out', out]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('signed by key');
    const cert = join(out, 'certificate.json');
    const report = join(out, 'report.json');
    const valid = await conformance(['verify-certificate', cert, '--public-key', pub, '--report', report]);
    expect(valid.code, valid.stderr).toBe(0);
    expect(valid.stdout).toMatch(/^valid \(signed by key [0-9a-f]{16}…\).*matches the report\n$/);
    const keyless = await conformance(['verify-certificate', cert]);
    expect(keyless.code).toBe(0);
    expect(keyless.stderr).toContain('integrity only, not origin');

    expect((await conformance(['keygen', '--out', join(dir, 'other')])).code).toBe(0);
    const otherKey = await conformance(['verify-certificate', cert, '--public-key', join(dir, 'other.pub.pem')]);
    expect(otherKey.code).toBe(1);
    expect(otherKey.stderr).toContain('signed with another key');

    const text = await readFile(cert, 'utf8');
    const edited = join(out, 'edited.json');
    await writeFile(edited, text.replace(/"seed": 9/, '"seed": 8'));
    const v1 = await conformance(['verify-certificate', edited]);
    expect(v1.code).toBe(1);
    expect(v1.stderr).toContain('the certificate was edited');
    const v1k = await conformance(['verify-certificate', edited, '--public-key', pub]);
    expect(v1k.code).toBe(1);
    expect(v1k.stderr).toContain('the signature does not match');

    const r2 = await readJson<Report>(report);
    const forged = join(out, 'forged-report.json');
    await writeFile(forged, JSON.stringify({ ...r2, results: r2.results.map((x, i) => (i === 0 ? { ...x, status: 'skipped' } : x)) }));
    const v2 = await conformance(['verify-certificate', cert, '--public-key', pub, '--report', forged]);
    expect(v2.code).toBe(1);
    expect(v2.stderr).toContain('the results differ');

    // The account the target said it is: read in the run, bound by the certificate, checked against the report.
    const certified = await readJson<Certificate>(cert);
    const [account] = certified.target.accounts!;
    expect(account).toMatchObject({ base_url: r2.target.base_url, credential: 'oauth-access', id: expect.any(Number), subdomain: expect.stringMatching(/^emu/) });
    expect(certified.target.accounts).toEqual(r2.target.accounts);
    expect(valid.stdout).toContain(`account ${account!.id} (${account!.subdomain}) with oauth-access`);
    const otherAccount = join(out, 'other-account-report.json');
    await writeFile(otherAccount, JSON.stringify({ ...r2, target: { ...r2.target, accounts: [{ ...account, id: account!.id as number + 1 }] } }));
    const v3 = await conformance(['verify-certificate', cert, '--public-key', pub, '--report', otherAccount]);
    expect(v3.code).toBe(1);
    expect(v3.stderr).toContain('the report\'s target says it is another account');
    const relabelled = join(out, 'relabelled.json');
    await writeFile(relabelled, text.replace(`"subdomain": "${account!.subdomain}"`, '"subdomain": "production"'));
    const v4 = await conformance(['verify-certificate', relabelled, '--public-key', pub]);
    expect(v4.code).toBe(1);
    expect(v4.stderr).toContain('the signature does not match');
  });
});

describe('--dry-run', () => {
  it('lists what would be created and sends nothing, even to a target that does not answer', async () => {
    const r = await conformance(['run', '--target', 'remote', '--dry-run'], {
      env: { BASE_URL: 'http://127.0.0.1:9', CLIENT_ID: 'x', CLIENT_SECRET: 'y', REDIRECT_URI: 'https://r.example/cb' },
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('nothing is sent');
    expect(r.stdout).toMatch(/\d+ rules only read/);
  });
});
