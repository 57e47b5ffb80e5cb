/**
 * Certificates (`conformance certify`): issued only when a full run has nothing failed or errored. A certificate
 * names the suite version, the SHA-256 of the spec the suite was built from, the target, the seed, and a SHA-256
 * over the results; its own SHA-256 over all of that makes any edit detectable by `verify-certificate`, and the
 * results hash binds it to its report.json. It proves integrity, not origin: whoever holds the report can issue one.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Report } from '../model/result.js';
import { CertificationRefused } from '../errors.js';
import { SPEC_PATH } from '../paths.js';

export interface Certificate {
  readonly kind: 'conformance-certificate';
  readonly suite: Report['suite'];
  readonly spec_sha256: string;
  readonly target: Pick<Report['target'], 'kind' | 'base_url' | 'chat_url'>;
  readonly seed: number;
  readonly profile: unknown;
  readonly started_at: string;
  readonly finished_at: string;
  readonly issued_at: string;
  readonly summary: Report['summary'];
  readonly results_sha256: string;
  readonly certificate_sha256: string;
}

const sha256 = (text: string | Buffer) => createHash('sha256').update(text).digest('hex');

/** JSON with keys sorted at every level: the same value always hashes the same. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.keys(value).sort().filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

export function specSha256(): string {
  return sha256(readFileSync(SPEC_PATH));
}

/** Over what a verdict is: each rule's id, section, level and status, in id order. */
export function resultsSha256(report: Report): string {
  const rows = [...report.results].sort((a, b) => a.id.localeCompare(b.id)).map((r) => [r.id, r.section, r.level, r.status, r.flaky === true]);
  return sha256(canonicalJson(rows));
}

export function issueCertificate(report: Report, now = new Date()): Certificate {
  const { failed, errored } = report.summary;
  const flaky = report.results.filter((r) => r.flaky).length;
  const blocked = report.results.filter((r) => r.blocked_by !== undefined).length;
  if (failed > 0 || errored > 0 || flaky > 0 || blocked > 0) {
    throw new CertificationRefused(`no certificate: ${failed} failed, ${errored} errored, ${flaky} flaky, ${blocked} skipped behind a refused step (a certificate needs none of them)`);
  }
  const body: Omit<Certificate, 'certificate_sha256'> = {
    kind: 'conformance-certificate',
    suite: report.suite,
    spec_sha256: specSha256(),
    target: { kind: report.target.kind, base_url: report.target.base_url, chat_url: report.target.chat_url },
    seed: report.seed,
    profile: report.options?.profile ?? null,
    started_at: report.started_at,
    finished_at: report.finished_at,
    issued_at: now.toISOString(),
    summary: report.summary,
    results_sha256: resultsSha256(report),
  };
  return { ...body, certificate_sha256: sha256(canonicalJson(body)) };
}

export interface Verification {
  readonly ok: boolean;
  readonly problems: readonly string[];
  readonly notes: readonly string[];
}

export function verifyCertificate(certificate: Certificate, report?: Report): Verification {
  const problems: string[] = [];
  const notes: string[] = [];
  const { certificate_sha256: claimed, ...body } = certificate;
  if (certificate.kind !== 'conformance-certificate') problems.push('not a conformance certificate (kind)');
  if (sha256(canonicalJson(body)) !== claimed) problems.push('the certificate was edited: its SHA-256 does not match its content');
  if (report) {
    if (resultsSha256(report) !== certificate.results_sha256) problems.push('the report does not match the certificate: the results differ');
    if (report.seed !== certificate.seed) problems.push('the report was made with another seed');
  }
  if (certificate.spec_sha256 !== specSha256()) notes.push('the certificate was issued against another version of the spec than this kit holds');
  return { ok: problems.length === 0, problems, notes };
}
