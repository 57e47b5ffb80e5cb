/**
 * Certificates as a release manager relies on them: signed with an Ed25519 key (node's or openssl's), any edited field
 * and any other key fail verification; an unsigned one says it proves integrity only; a report that is not a whole run
 * of this kit is refused at issue, with the reason.
 */
import { execFileSync } from 'node:child_process';
import { createHash, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { allRules } from '../../specs/index.js';
import { summarize, type Report, type RuleResult } from '../../src/model/result.js';
import { KIT_PACKAGE } from '../../src/paths.js';
import {
  canonicalJson, issueCertificate, partialRunReason, privateKeyFrom, publicKeyFrom, UNSIGNED_NOTE, verifyCertificate, type Certificate,
} from '../../src/report/certificate.js';
import { mergeReports } from '../../src/report/merge.js';
import { withRunStatements } from '../../src/cli/run-statements.js';
import { conformance } from '../cli/helpers.js';

const rules = allRules();
const result = (r: (typeof rules)[number], extra: Partial<RuleResult> = {}): RuleResult => ({
  id: r.id, section: r.section, level: r.level, requires: r.requires, title: r.title, duration_ms: 3, detail: '',
  status: r.level === 'info' ? 'informational' : 'passed', ...extra,
});

function wholeRun(extra: Partial<Report> = {}, results: RuleResult[] = rules.map((r) => result(r))): Report {
  return {
    suite: { name: KIT_PACKAGE.name, version: KIT_PACKAGE.version },
    target: {
      kind: 'remote', base_url: 'https://release-42.example', auth_url: 'https://auth.example', chat_url: 'https://chat.example',
      control_url: 'https://release-42.example/_control', base_url_2: 'https://second-42.example',
      accounts: [
        { base_url: 'https://release-42.example', credential: 'oauth-access', id: 31, subdomain: 'release42' },
        { base_url: 'https://release-42.example', credential: 'restricted-user', id: 31, subdomain: 'release42' },
      ],
    },
    seed: 9, started_at: '2026-12-01T10:00:00.000Z', finished_at: '2026-12-01T10:20:00.000Z',
    summary: summarize(results), results, options: { runs: 100, profile: 'full', strict: false },
    configuration: { name: 'full-settings' },
    statements: [{ id: 's-4.1-1', section: '4.1', judgement: 'full', rules: [rules[0]!.id] }, { id: 's-9-1', section: '9', judgement: 'untestable', rules: [], reason: 'prose' }],
    ...extra,
  };
}

/** A run split in `n` shards as `run --shard i/n` reports it: the rules of other shards skipped as never run there. */
function shard(i: number, n: number, base: Report = wholeRun()): Report {
  const ids = rules.map((r) => r.id).sort();
  const mine = new Set(ids.filter((_, k) => k % n === i - 1));
  const results = base.results.map((r) => (mine.has(r.id) ? r : { ...r, status: 'skipped' as const, detail: `runs in another shard than ${i}/${n}` }));
  return { ...base, results, summary: summarize(results), options: { ...base.options, shard: `${i}/${n}` } };
}

const pair = () => generateKeyPairSync('ed25519');
const pem = (k: KeyObject, type: 'pkcs8' | 'spki') => k.export({ type, format: 'pem' }) as string;

/** Every path to a leaf of a JSON value, with a setter that changes the leaf to another value of its kind. */
function leaves(value: unknown, path: (string | number)[] = []): (string | number)[][] {
  if (Array.isArray(value)) return value.flatMap((v, i) => leaves(v, [...path, i]));
  if (value !== null && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => leaves(v, [...path, k]));
  return [path];
}
function edited<T>(value: T, path: (string | number)[]): T {
  const copy = JSON.parse(JSON.stringify(value)) as Record<string | number, unknown>;
  let at = copy;
  for (const k of path.slice(0, -1)) at = at[k] as Record<string | number, unknown>;
  const last = path.at(-1)!;
  const old = at[last];
  at[last] = typeof old === 'number' ? old + 1 : typeof old === 'boolean' ? !old : old === null ? 'x' : typeof old === 'string' && /^[A-Za-z0-9+/=]+$/.test(old) && old.length > 40 ? `${old.startsWith('A') ? 'B' : 'A'}${old.slice(1)}` : `${String(old)}x`;
  return copy as T;
}

describe('a signed certificate', () => {
  const { privateKey, publicKey } = pair();
  const report = wholeRun();
  const certificate = issueCertificate(report, { rules, key: privateFrom(privateKey) });

  function privateFrom(k: KeyObject) {
    return privateKeyFrom(pem(k, 'pkcs8'), '--key');
  }

  it('binds the kit, its rules, the spec, the target, configuration, profile, seed, every verdict and the statements', () => {
    expect(certificate.signed).toBe(true);
    expect(certificate.signature).toMatchObject({ algorithm: 'Ed25519', public_key_sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(certificate.kit).toMatchObject({ name: KIT_PACKAGE.name, version: KIT_PACKAGE.version, rules: rules.length, rules_sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(certificate.spec_sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(certificate.target).toEqual(report.target);
    expect(certificate.configuration).toEqual({ name: 'full-settings' });
    expect([certificate.profile, certificate.runs, certificate.seed]).toEqual(['full', 100, 9]);
    expect(Object.keys(certificate.verdicts)).toHaveLength(rules.length);
    expect(certificate.statements).toMatchObject({ count: 2, by_judgement: { full: 1, untestable: 1 } });
    const v = verifyCertificate(certificate, { publicKey: publicKeyFrom(pem(publicKey, 'spki'), '--public-key'), report });
    expect(v).toMatchObject({ ok: true, origin: true, problems: [] });
  });

  it('fails verification when any field is edited, re-hashed or not', () => {
    const paths = leaves(certificate);
    expect(paths.length).toBeGreaterThan(rules.length + 20);
    // The account the target said it is is among the fields: its id, subdomain, bearer and address.
    for (const field of ['id', 'subdomain', 'credential', 'base_url']) expect(paths.map((p) => p.join('.'))).toContain(`target.accounts.0.${field}`);
    // And every configured origin.
    for (const field of ['base_url', 'auth_url', 'chat_url', 'control_url', 'base_url_2']) expect(paths.map((p) => p.join('.'))).toContain(`target.${field}`);
    const passed = paths.filter((p) => verifyCertificate(edited(certificate, p), { publicKey }).ok).map((p) => p.join('.'));
    expect(passed).toEqual([]);
    // Relabelled for another target and re-hashed: integrity holds, the signature does not.
    const relabelled = { ...certificate, target: { ...certificate.target, base_url: 'https://other-release.example' } };
    const { certificate_sha256: _h, signature: _s, ...body } = relabelled;
    const rehashed: Certificate = { ...relabelled, certificate_sha256: createHash('sha256').update(canonicalJson(body)).digest('hex') };
    expect(verifyCertificate(rehashed).ok).toBe(true);
    expect(verifyCertificate(rehashed, { publicKey }).problems).toEqual([expect.stringContaining('the signature does not match')]);
    // Relabelled for another account behind the same address and re-hashed: the signature does not hold either.
    const otherAccount = { ...certificate, target: { ...certificate.target, accounts: [{ ...certificate.target.accounts![0]!, id: 32, subdomain: 'other' }] } };
    const { certificate_sha256: _h2, signature: _s2, ...otherBody } = otherAccount;
    const reaccounted: Certificate = { ...otherAccount, certificate_sha256: createHash('sha256').update(canonicalJson(otherBody)).digest('hex') };
    expect(verifyCertificate(reaccounted).ok).toBe(true);
    expect(verifyCertificate(reaccounted, { publicKey }).problems).toEqual([expect.stringContaining('the signature does not match')]);
    // A field added is an edit too, the account's as any other.
    expect(verifyCertificate({ ...certificate, note: 'x' } as Certificate, { publicKey }).ok).toBe(false);
    expect(verifyCertificate({ ...certificate, target: { ...certificate.target, accounts: [...certificate.target.accounts!, { base_url: 'https://x.example', credential: 'long-lived', id: 1 }] } }, { publicKey }).ok).toBe(false);
    // The signature taken off: it no longer proves origin, and says so.
    const { signature: _sig, ...stripped } = certificate;
    expect(verifyCertificate(stripped as Certificate, { publicKey }).problems).toEqual(['the certificate is not signed: its origin cannot be checked']);
  });

  it('fails verification with another key', () => {
    const other = pair().publicKey;
    expect(verifyCertificate(certificate, { publicKey: other }).problems).toEqual([expect.stringContaining('signed with another key')]);
    // The key id edited to the other key's: the signature itself does not verify.
    const forged = { ...certificate, signature: { ...certificate.signature!, public_key_sha256: (issueCertificate(report, { rules, key: pair().privateKey }).signature!.public_key_sha256) } };
    expect(verifyCertificate(forged, { publicKey: other }).ok).toBe(false);
  });

  it('does not match another report: target, account, verdict, seed, configuration, statements', () => {
    const account = report.target.accounts![0]!;
    const changes: Partial<Report>[] = [
      { target: { ...report.target, base_url: 'https://emulator.example' } },
      { target: { ...report.target, base_url_2: 'https://third.example' } },
      { target: { ...report.target, control_url: undefined } },
      { target: { ...report.target, accounts: [{ ...account, id: 32 }, report.target.accounts![1]!] } },
      { target: { ...report.target, accounts: [{ ...account, subdomain: 'other' }, report.target.accounts![1]!] } },
      { target: { ...report.target, accounts: [account] } },
      { target: { ...report.target, accounts: undefined } },
      { seed: 10 },
      { configuration: { name: 'minimal' } },
      { statements: [] },
      { results: report.results.map((r, i) => (i === 0 ? { ...r, status: 'skipped' } : r)) },
    ];
    for (const change of changes) expect(verifyCertificate(certificate, { publicKey, report: { ...report, ...change } }).ok, JSON.stringify(change).slice(0, 200)).toBe(false);
    expect(verifyCertificate(certificate, { publicKey, report: { ...report, target: { ...report.target, accounts: [{ ...account, id: 32 }] } } }).problems)
      .toEqual([expect.stringMatching(/^the report's target says it is another account than the certificate's \(32 \(release42\) with oauth-access vs 31 \(release42\) with oauth-access, 31/)]);
  });

  it.skipIf(!hasOpenssl())('signs with a key openssl genpkey wrote, and verifies with the public key openssl derived', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cert-openssl-'));
    execFileSync('openssl', ['genpkey', '-algorithm', 'ed25519', '-out', join(dir, 'k.pem')]);
    execFileSync('openssl', ['pkey', '-in', join(dir, 'k.pem'), '-pubout', '-out', join(dir, 'p.pem')]);
    const signed = issueCertificate(report, { rules, key: privateKeyFrom(readFileSync(join(dir, 'k.pem'), 'utf8'), '--key') });
    expect(verifyCertificate(signed, { publicKey: publicKeyFrom(readFileSync(join(dir, 'p.pem'), 'utf8'), '--public-key') }).origin).toBe(true);
  });

  it('refuses a key that is not Ed25519, naming the flag', () => {
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey;
    expect(() => privateKeyFrom(pem(rsa, 'pkcs8'), '--key')).toThrow(/^--key is a rsa key/);
    expect(() => privateKeyFrom('not a key', '--key')).toThrow(/^--key is not a private key in PEM/);
  });
});

describe('an unsigned certificate', () => {
  it('says it is unsigned, and verifies as integrity only, not origin', () => {
    const c = issueCertificate(wholeRun(), { rules });
    expect(c.signed).toBe(false);
    expect(c.signature).toBeUndefined();
    const v = verifyCertificate(c);
    expect(v).toMatchObject({ ok: true, origin: false });
    expect(v.notes).toContain(UNSIGNED_NOTE);
    expect(UNSIGNED_NOTE).toContain('integrity only, not origin');
    expect(verifyCertificate(edited(c, ['seed'])).problems).toEqual(['the certificate was edited: its SHA-256 does not match its content']);
  });
});

describe('no certificate for a partial run', () => {
  const refusals: [string, Report, RegExp][] = [
    ['--only', wholeRun({ options: { runs: 100, profile: 'full', only: '4.1' } }), /--only 4\.1/],
    ['--exclude', wholeRun({ options: { runs: 100, profile: 'full', exclude: 'chat.*' } }), /--exclude chat\.\*/],
    ['one shard', shard(1, 2), /a single shard \(1\/2\)/],
    ['the quick profile', wholeRun({ options: { runs: 5, profile: 'quick' } }), /quick profile/],
    ['another kit version', wholeRun({ suite: { name: KIT_PACKAGE.name, version: '0.0.0-other' } }), /made by .* 0\.0\.0-other, not by this kit/],
    ['another spec version', wholeRun({ options: { runs: 100, profile: 'full', spec_sha256: '0'.repeat(64) } }), /against another version of the spec/],
    ['an interrupted run', wholeRun({ incomplete: true, interruption: { signal: 'SIGTERM', at: '2026-12-01T10:05:00Z', not_run: [], abandoned: [] } }), /interrupted \(SIGTERM/],
    ['shards given twice', wholeRun({ options: { runs: 100, profile: 'full', shards: ['1/2', '1/2'] } }), /shard 1\/2 more than once/],
    ['shards that do not cover the suite', wholeRun({ options: { runs: 100, profile: 'full', shards: ['1/3', '2/3'] } }), /lacks shard 3\/3/],
    ['rules that never ran', wholeRun({}, rules.slice(1).map((r) => result(r))), /1 of \d+ rules never ran/],
    ['a rule with two results', wholeRun({}, [...rules.map((r) => result(r)), result(rules[0]!)]), /more than one result/],
    ['rules of another kit', wholeRun({}, rules.map((r, i) => result(r, i === 0 ? { title: 'renamed' } : {}))), /not this kit's/],
  ];
  for (const [what, report, reason] of refusals) {
    it(`refuses ${what} with one line naming why (exit 2)`, () => {
      expect(partialRunReason(report, rules)).toMatch(reason);
      let error: (Error & { exitCode?: number }) | undefined;
      try {
        issueCertificate(report, { rules });
      } catch (err) {
        error = err as Error & { exitCode?: number };
      }
      expect(error?.message).toMatch(/^no certificate: /);
      expect(error?.message).not.toContain('\n');
      expect(error?.exitCode).toBe(2);
    });
  }

  it('certifies the merged report of every shard of a whole run', () => {
    const merged = mergeReports([shard(1, 3), shard(3, 3), shard(2, 3)]);
    expect(merged.options?.shards).toEqual(['1/3', '2/3', '3/3']);
    expect(partialRunReason(merged, rules)).toBeUndefined();
    expect(issueCertificate(merged, { rules }).summary.skipped).toBe(0);
    // Two of three shards merged: the rules of the third never ran.
    expect(partialRunReason(mergeReports([shard(1, 3), shard(2, 3)]), rules)).toMatch(/lacks shard 3\/3/);
  });

  it('refuses a whole run whose target would not say which account it is (exit 1)', () => {
    const base = wholeRun();
    const unread = wholeRun({ target: { ...base.target, accounts: [{ base_url: base.target.base_url, credential: 'oauth-access', error: 'GET /api/v4/account answered 500 without the account\'s id' }] } });
    expect(() => issueCertificate(unread, { rules })).toThrow(expect.objectContaining({ exitCode: 1, message: expect.stringMatching(/^no certificate: the account the target says it is could not be read with the oauth-access token \(GET/) }));
    const { accounts: _a, ...unasked } = base.target;
    expect(() => issueCertificate(wholeRun({ target: unasked }), { rules })).toThrow(expect.objectContaining({ exitCode: 1, message: expect.stringMatching(/does not say which account the target is/) }));
  });

  it('refuses a whole run in which a rule failed (exit 1)', () => {
    const failing = wholeRun({}, rules.map((r, i) => result(r, i === 0 ? { status: 'failed' } : {})));
    expect(() => issueCertificate(failing, { rules })).toThrow(expect.objectContaining({ exitCode: 1, message: expect.stringMatching(/1 failed/) }));
  });
});

describe('certify --from', () => {
  it('binds the statement table the merged results give, not the one the file carries', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cert-from-'));
    // Merged from shards whose own tables judged only their half, then given one shard's table, as a careless tool would.
    const merged = { ...mergeReports([shard(1, 2), shard(2, 2)]), statements: withRunStatements(shard(1, 2)).statements! };
    writeFileSync(join(dir, 'report.json'), JSON.stringify(merged));
    const r = await conformance(['certify', '--from', join(dir, 'report.json'), '--out', dir]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('note: --from: the report\'s statement table is not the one its results give');
    const certificate = JSON.parse(readFileSync(join(dir, 'certificate.json'), 'utf8')) as Certificate;
    const whole = issueCertificate(withRunStatements(wholeRun()), { rules });
    expect(certificate.statements).toEqual(whole.statements);
    expect(certificate.statements).not.toEqual(issueCertificate(merged, { rules }).statements);
    // Verified against the shard's table, the report no longer matches; against the recomputed one it does.
    expect(verifyCertificate(certificate, { report: merged }).problems).toContain('the report\'s statement table differs from the certificate\'s');
    expect(verifyCertificate(certificate, { report: withRunStatements(merged) }).ok).toBe(true);
  }, 60_000);
});

function hasOpenssl(): boolean {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
