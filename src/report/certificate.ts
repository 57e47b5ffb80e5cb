/**
 * Certificates (`conformance certify`): issued only for a whole run (every rule of this kit, the full profile, not
 * interrupted, not one shard) in which nothing failed, errored or was flaky. A certificate binds what a reader relies
 * on: the kit (version and a digest of its rules), the spec's SHA-256, the target (every origin the report names and
 * the account it says it is), the configuration, profile, cases and seed, every rule with its verdict, and the
 * statement table of the run. Its SHA-256 over all of that detects an edit; that proves integrity, not origin, since
 * anyone holding the report can recompute it. Signed (`--key`, Ed25519 over the canonical JSON of every field but the
 * signature's value), it proves origin too: `verify-certificate --public-key` fails on any edited field and on another
 * key.
 */
import { createHash, createPrivateKey, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { neverRan, type Report, type RuleResult } from '../model/result.js';
import type { Rule } from '../model/rule.js';
import { CertificationRefused, ConfigError, PartialRunRefused } from '../errors.js';
import { KIT_PACKAGE, SPEC_PATH } from '../paths.js';

/** Bumped when a field changes meaning; `verify-certificate` refuses a form it does not know. */
export const CERTIFICATE_FORMAT = 2;
export const UNSIGNED_NOTE = 'integrity only, not origin: this certificate is unsigned, so anyone holding the report could have issued it';

export interface CertificateSignature {
  readonly algorithm: 'Ed25519';
  /** SHA-256 of the signing key's public half (SPKI DER), hex: which key to verify with. */
  readonly public_key_sha256: string;
  /** base64 Ed25519 signature over the canonical JSON of the certificate with `signature.value` left out. */
  readonly value: string;
}

export interface Certificate {
  readonly kind: 'conformance-certificate';
  readonly format: number;
  readonly kit: { readonly name: string; readonly version: string; readonly rules: number; readonly rules_sha256: string };
  readonly spec_sha256: string;
  /**
   * The report's target as it names it: kind, base, auth and chat URLs, the control URL when it has one, and
   * `accounts`, the account the target said it is (id and subdomain, GET /api/v4/account) with each bearer of the run.
   */
  readonly target: Report['target'];
  readonly configuration: Report['configuration'] | null;
  readonly profile: unknown;
  readonly runs: unknown;
  readonly seed: number;
  readonly started_at: string;
  readonly finished_at: string;
  readonly issued_at: string;
  readonly summary: Report['summary'];
  /** Every rule with its verdict, by id. */
  readonly verdicts: Readonly<Record<string, string>>;
  readonly results_sha256: string;
  /** The run's statement table: its digest and how many statements were judged how; null when the report has none. */
  readonly statements: { readonly sha256: string; readonly count: number; readonly by_judgement: Readonly<Record<string, number>> } | null;
  readonly certificate_sha256: string;
  /** Absent: unsigned (integrity only, not origin). */
  readonly signature?: CertificateSignature;
  /** Said in the certificate itself, so that a reader of the file alone knows what it proves. */
  readonly signed: boolean;
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

type RuleIdentity = Pick<Rule, 'id' | 'level' | 'section' | 'title'>;

/** A digest of a set of rules: id, level, section and title of each, in id order. The same kit's rules give the same. */
export function rulesSha256(rules: readonly RuleIdentity[]): string {
  return sha256(canonicalJson([...rules].sort((a, b) => a.id.localeCompare(b.id)).map((r) => [r.id, r.level, r.section, r.title])));
}

/** Over what a verdict is: each rule's id, section, level and status, in id order. */
export function resultsSha256(report: Report): string {
  const rows = [...report.results].sort((a, b) => a.id.localeCompare(b.id)).map((r) => [r.id, r.section, r.level, r.status, r.flaky === true]);
  return sha256(canonicalJson(rows));
}

function statementsOf(report: Report): Certificate['statements'] {
  if (!report.statements) return null;
  const byJudgement: Record<string, number> = {};
  for (const s of report.statements) byJudgement[s.judgement] = (byJudgement[s.judgement] ?? 0) + 1;
  return { sha256: sha256(canonicalJson(report.statements)), count: report.statements.length, by_judgement: byJudgement };
}

const SHARD = /^(\d+)\/(\d+)$/;

/**
 * Why `report` is not a whole run of this kit's suite, in one line, or undefined when it is. A whole run: made by this
 * kit (its version and its very rules), with the full profile, not interrupted, not of --only/--exclude/--budget, not
 * one shard, and, when merged from shards, from every shard of one split exactly once; every rule of the kit has a
 * result, and none was left out.
 */
export function partialRunReason(report: Report, rules: readonly RuleIdentity[]): string | undefined {
  const o = report.options ?? {};
  if (report.incomplete === true) return `the run was interrupted${report.interruption ? ` (${report.interruption.signal} at ${report.interruption.at})` : ''}: the report is marked incomplete`;
  if (report.suite.name !== KIT_PACKAGE.name || report.suite.version !== KIT_PACKAGE.version) {
    return `the report was made by ${report.suite.name} ${report.suite.version}, not by this kit (${KIT_PACKAGE.name} ${KIT_PACKAGE.version})`;
  }
  if (typeof o.spec_sha256 === 'string' && o.spec_sha256 !== specSha256()) return 'the report was made against another version of the spec than this kit holds';
  if (o.profile !== 'full') return `the report is of the ${String(o.profile ?? 'unknown')} profile; a certificate needs the full profile`;
  if (o.only !== undefined) return `the report is of a run of --only ${String(o.only)}; a certificate covers every rule`;
  if (o.exclude !== undefined) return `the report is of a run of --exclude ${String(o.exclude)}; a certificate covers every rule`;
  if (o.budget !== undefined) return 'the report is of a run within a --budget; a certificate covers every rule';
  if (o.shard !== undefined) return `the report is of a single shard (${String(o.shard)}); merge every shard with \`conformance merge\` and certify the merged report`;
  if (o.shards !== undefined) {
    const problem = shardsProblem(o.shards);
    if (problem) return problem;
  }
  const known = new Map(rules.map((r) => [r.id, r]));
  const seen = new Map<string, number>();
  for (const r of report.results) seen.set(r.id, (seen.get(r.id) ?? 0) + 1);
  const twice = [...seen].filter(([, n]) => n > 1).map(([id]) => id);
  if (twice.length > 0) return `${twice.length} rule(s) have more than one result (${listed(twice)}): the report joins runs that overlap`;
  const unknown = report.results.filter((r) => !known.has(r.id)).map((r) => r.id);
  const missing = rules.filter((r) => !seen.has(r.id)).map((r) => r.id);
  const notRun = report.results.filter((r) => neverRan(r)).map((r) => r.id);
  if (missing.length + notRun.length > 0) return `${missing.length + notRun.length} of ${rules.length} rules never ran (${listed([...missing, ...notRun])}); a certificate covers every rule`;
  if (unknown.length > 0 || rulesSha256(report.results) !== rulesSha256(rules)) {
    return `the report's rules are not this kit's (${unknown.length > 0 ? `unknown: ${listed(unknown)}` : 'ids, levels, sections or titles differ'}): made by another version of the kit`;
  }
  return undefined;
}

function listed(ids: readonly string[]): string {
  return ids.length <= 3 ? ids.join(', ') : `${ids.slice(0, 3).join(', ')}, … ${ids.length - 3} more`;
}

/** The `shards` a merged report lists: one split (same n), every index 1..n exactly once. */
function shardsProblem(shards: unknown): string | undefined {
  if (!Array.isArray(shards) || shards.some((s) => typeof s !== 'string' || !SHARD.test(s))) return 'the report\'s shards are not a list of i/n';
  const parsed = (shards as string[]).map((s) => s.match(SHARD)!.slice(1).map(Number) as [number, number]);
  const counts = new Set(parsed.map(([, n]) => n));
  if (counts.size > 1) return `the report joins shards of different splits (${shards.join(', ')})`;
  const n = parsed[0]?.[1] ?? 0;
  const indexes = parsed.map(([i]) => i);
  const dup = indexes.filter((i, k) => indexes.indexOf(i) !== k);
  if (dup.length > 0) return `the report joins shard ${dup[0]}/${n} more than once`;
  const absent = Array.from({ length: n }, (_, k) => k + 1).filter((i) => !indexes.includes(i));
  if (absent.length > 0) return `the report lacks shard ${absent.map((i) => `${i}/${n}`).join(', ')}: the shards do not cover the suite`;
  return undefined;
}

export interface IssueOptions {
  /** The kit's rules (the registry): the certificate covers exactly these. */
  readonly rules: readonly RuleIdentity[];
  /** An Ed25519 private key (PKCS#8 PEM, as `openssl genpkey -algorithm ed25519` writes it): signs the certificate. */
  readonly key?: KeyObject;
  readonly now?: Date;
}

/**
 * The certificate of `report`. Refuses (PartialRunRefused, exit 2) a report that is not a whole run, and
 * (CertificationRefused, exit 1) a whole run in which something failed, errored, was flaky or was blocked.
 */
export function issueCertificate(report: Report, o: IssueOptions): Certificate {
  const partial = partialRunReason(report, o.rules);
  if (partial) throw new PartialRunRefused(`no certificate: ${partial}`);
  const { failed, errored } = report.summary;
  const flaky = report.results.filter((r) => r.flaky).length;
  const blocked = report.results.filter((r) => r.blocked_by !== undefined).length;
  if (failed > 0 || errored > 0 || flaky > 0 || blocked > 0) {
    throw new CertificationRefused(`no certificate: ${failed} failed, ${errored} errored, ${flaky} flaky, ${blocked} skipped behind a refused step (a certificate needs none of them)`);
  }
  // A certificate names whose account the target served: one the target would not say cannot be bound.
  if (report.target.accounts === undefined) throw new CertificationRefused('no certificate: the report does not say which account the target is (target.accounts, which `run` and `certify` of this kit record)');
  const unread = report.target.accounts.find((a) => a.error !== undefined);
  if (unread) throw new CertificationRefused(`no certificate: the account the target says it is could not be read with the ${unread.credential} token (${unread.error})`);
  const content: Omit<Certificate, 'certificate_sha256' | 'signature' | 'signed'> = {
    kind: 'conformance-certificate',
    format: CERTIFICATE_FORMAT,
    kit: { name: KIT_PACKAGE.name, version: KIT_PACKAGE.version, rules: o.rules.length, rules_sha256: rulesSha256(o.rules) },
    spec_sha256: specSha256(),
    target: report.target,
    configuration: report.configuration ?? null,
    profile: report.options?.profile ?? null,
    runs: report.options?.runs ?? null,
    seed: report.seed,
    started_at: report.started_at,
    finished_at: report.finished_at,
    issued_at: (o.now ?? new Date()).toISOString(),
    summary: report.summary,
    verdicts: verdictsOf(report.results),
    results_sha256: resultsSha256(report),
    statements: statementsOf(report),
  };
  const hashed = { ...content, signed: o.key !== undefined };
  const certificate: Certificate = { ...hashed, certificate_sha256: sha256(canonicalJson(hashed)) };
  if (!o.key) return certificate;
  const head = { algorithm: 'Ed25519' as const, public_key_sha256: publicKeySha256(createPublicKey(o.key)) };
  const value = sign(null, Buffer.from(signedText(certificate, head)), o.key).toString('base64');
  return { ...certificate, signature: { ...head, value } };
}

function verdictsOf(results: readonly RuleResult[]): Record<string, string> {
  return Object.fromEntries([...results].sort((a, b) => a.id.localeCompare(b.id)).map((r) => [r.id, r.status]));
}

/** What the signature covers: every field of the certificate, the signature's algorithm and key included, not its value. */
function signedText(certificate: Certificate, head: Omit<CertificateSignature, 'value'>): string {
  const { signature: _signature, ...rest } = certificate;
  return canonicalJson({ ...rest, signature: { algorithm: head.algorithm, public_key_sha256: head.public_key_sha256 } });
}

export function publicKeySha256(key: KeyObject): string {
  return sha256(key.export({ type: 'spki', format: 'der' }));
}

/** An Ed25519 private key from PEM text (PKCS#8, as openssl and `conformance keygen` write it); a ConfigError naming `flag` otherwise. */
export function privateKeyFrom(pem: string, flag: string): KeyObject {
  return ed25519Key(pem, flag, 'private');
}

/** An Ed25519 public key from PEM text (SPKI; a private key's PEM gives its public half); a ConfigError naming `flag` otherwise. */
export function publicKeyFrom(pem: string, flag: string): KeyObject {
  return ed25519Key(pem, flag, 'public');
}

function ed25519Key(pem: string, flag: string, half: 'private' | 'public'): KeyObject {
  let key: KeyObject;
  try {
    key = half === 'private' ? createPrivateKey(pem) : createPublicKey(pem);
  } catch (err) {
    throw new ConfigError(flag, `is not a ${half} key in PEM: ${(err as Error).message}`);
  }
  if (key.asymmetricKeyType !== 'ed25519') throw new ConfigError(flag, `is a ${String(key.asymmetricKeyType)} key; certificates are signed with Ed25519 (\`conformance keygen\`)`);
  return key;
}

export interface Verification {
  readonly ok: boolean;
  /** Signed and verified with the given public key: the certificate's origin is the key's holder. */
  readonly origin: boolean;
  readonly problems: readonly string[];
  readonly notes: readonly string[];
}

/**
 * Checks, in this order: the signature (with `publicKey`: present, made by that key, over these very fields), the
 * content (the certificate's own SHA-256, its form, the kit and spec it names), then, with `report`, that the report
 * is the one certified (verdicts, seed, target, configuration, profile, statements).
 */
export function verifyCertificate(certificate: Certificate, o: { report?: Report; publicKey?: KeyObject } = {}): Verification {
  const problems: string[] = [];
  const notes: string[] = [];
  let origin = false;
  if (o.publicKey) {
    const s = certificate.signature;
    if (!s || typeof s !== 'object' || typeof s.value !== 'string') problems.push('the certificate is not signed: its origin cannot be checked');
    else if (s.algorithm !== 'Ed25519') problems.push(`the certificate is signed with ${String(s.algorithm)}, not Ed25519`);
    else if (s.public_key_sha256 !== publicKeySha256(o.publicKey)) problems.push('the certificate was signed with another key than the one given (or its key id was edited)');
    else if (!verify(null, Buffer.from(signedText(certificate, s)), o.publicKey, Buffer.from(s.value, 'base64'))) problems.push('the signature does not match: the certificate was edited after it was signed, or signed with another key');
    else origin = true;
  } else if (certificate.signature) {
    notes.push('the certificate is signed, but no --public-key was given: its signature was not checked (integrity only, not origin)');
  } else {
    notes.push(UNSIGNED_NOTE);
  }
  if (problems.length > 0) return { ok: false, origin: false, problems, notes };

  const { certificate_sha256: claimed, signature: _signature, ...hashed } = certificate;
  if (certificate.kind !== 'conformance-certificate') problems.push('not a conformance certificate (kind)');
  else if (certificate.format !== CERTIFICATE_FORMAT) problems.push(`a certificate of form ${String(certificate.format)}; this kit reads form ${CERTIFICATE_FORMAT} (issue it again with this kit)`);
  if (sha256(canonicalJson(hashed)) !== claimed) problems.push('the certificate was edited: its SHA-256 does not match its content');
  if (certificate.signed !== (certificate.signature !== undefined)) problems.push(`the certificate says it is ${certificate.signed ? 'signed' : 'unsigned'} but ${certificate.signature ? 'carries' : 'lacks'} a signature`);
  if (problems.length > 0) return { ok: false, origin: false, problems, notes };
  if (certificate.spec_sha256 !== specSha256()) notes.push('the certificate was issued against another version of the spec than this kit holds');
  if (certificate.kit?.version !== KIT_PACKAGE.version) notes.push(`the certificate was issued by kit version ${String(certificate.kit?.version)}; this is ${KIT_PACKAGE.version}`);

  const r = o.report;
  if (r) {
    if (resultsSha256(r) !== certificate.results_sha256 || canonicalJson(verdictsOf(r.results)) !== canonicalJson(certificate.verdicts)) problems.push('the report does not match the certificate: the results differ');
    if (r.seed !== certificate.seed) problems.push('the report was made with another seed');
    const { accounts: reportAccounts, ...reportTarget } = r.target;
    const { accounts: certifiedAccounts, ...certifiedTarget } = certificate.target;
    if (canonicalJson(reportTarget) !== canonicalJson(certifiedTarget)) problems.push('the report was made against another target');
    if (canonicalJson(reportAccounts ?? null) !== canonicalJson(certifiedAccounts ?? null)) problems.push(`the report's target says it is another account than the certificate's (${accountsLine(reportAccounts)} vs ${accountsLine(certifiedAccounts)})`);
    if (canonicalJson(r.configuration ?? null) !== canonicalJson(certificate.configuration)) problems.push('the report was made in another configuration');
    if ((r.options?.profile ?? null) !== certificate.profile || (r.options?.runs ?? null) !== certificate.runs) problems.push('the report was made with another profile or number of cases');
    if (canonicalJson(statementsOf(r)) !== canonicalJson(certificate.statements)) problems.push('the report\'s statement table differs from the certificate\'s');
    if (r.started_at !== certificate.started_at || r.finished_at !== certificate.finished_at) problems.push('the report is of another run (its start or finish differs)');
  }
  return { ok: problems.length === 0, origin, problems, notes };
}

/** The accounts a target said it is, in a few words: `31 (release) with oauth-access`, or `none read`. */
export function accountsLine(accounts: Report['target']['accounts']): string {
  if (!accounts || accounts.length === 0) return 'no account read';
  return accounts.map((a) => (a.error !== undefined ? `none with ${a.credential} (${a.error})` : `${String(a.id)}${a.subdomain ? ` (${a.subdomain})` : ''} with ${a.credential}`)).join(', ');
}
