/**
 * `conformance run`: runs the suite against the embedded emulator or a remote target and writes the reports.
 * `conformance certify`: the same with the full profile, then a certificate when nothing failed or errored.
 */
import { writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { allRules } from '../../../specs/index.js';
import type { Report } from '../../model/result.js';
import type { Rule } from '../../model/rule.js';
import { readReport, writeReports } from '../../report/index.js';
import { compareWithBaseline, type Comparison } from '../../runner/baseline.js';
import { issueCertificate } from '../../runner/certificate.js';
import { clientFor, executeRun } from '../../runner/execute.js';
import { missingCapability } from '../../runner/run-rule.js';
import { randomSeed } from '../../runner/seed.js';
import { parseShard, selector, skipReason, type Shard } from '../../runner/select.js';
import type { TargetConfig } from '../../targets/config.js';
import { startEmbeddedTarget } from '../../targets/embedded.js';
import { targetFromEnv } from '../../targets/from-env.js';
import { assertReachable } from '../../targets/reachability.js';
import { oneOf, parseFlags } from '../args.js';
import { ConfigError, UsageError } from '../../errors.js';
import { Progress } from '../progress.js';
import { integerSetting, loadEnv } from '../settings.js';

export const RUN_FLAGS = {
  target: { type: 'string' },
  profile: { type: 'string' },
  only: { type: 'string' },
  seed: { type: 'string' },
  runs: { type: 'string' },
  strict: { type: 'boolean' },
  baseline: { type: 'string' },
  out: { type: 'string' },
  'env-file': { type: 'string' },
  shard: { type: 'string' },
  'dry-run': { type: 'boolean' },
} as const;

/**
 * Cases per property rule in each profile; `--runs` overrides. `quick` is the CI gate (a bounded request count,
 * see docs/ci.md); `full` is certification.
 */
export const PROFILE_RUNS = { quick: 5, full: 100 } as const;
export type Profile = keyof typeof PROFILE_RUNS;

interface RunCommandOptions {
  readonly kind: 'emulator' | 'remote';
  readonly profile: Profile;
  readonly seed: number;
  readonly runs: number;
  readonly outDir: string;
  readonly strict: boolean;
  readonly only?: string;
  readonly shard?: Shard;
  readonly baseline?: Report;
  readonly dryRun: boolean;
  readonly env: ReturnType<typeof loadEnv>;
}

async function runCommandOptions(args: string[], command: string, forced: { profile?: Profile } = {}): Promise<RunCommandOptions> {
  const { values, positionals } = parseFlags(args, RUN_FLAGS, command);
  if (positionals.length > 0) throw new UsageError(`conformance ${command}: unexpected argument "${positionals[0]}"`);
  const env = loadEnv(values['env-file']);
  const profile = forced.profile ?? oneOf('--profile', values.profile, ['quick', 'full'] as const, 'full');
  if (forced.profile && values.profile && values.profile !== forced.profile) throw new UsageError(`conformance ${command} always uses --profile ${forced.profile}`);
  const only = values.only;
  if (only && !allRules().some(selector(only))) throw new ConfigError('--only', `matches no rule: "${only}" (see \`conformance rules\`)`);
  return {
    kind: oneOf('--target', values.target ?? env.CONFORMANCE_TARGET, ['emulator', 'remote'] as const, 'emulator'),
    profile,
    seed: integerSetting('--seed', values.seed, { min: 0 }) ?? integerSetting('CONFORMANCE_SEED', env.CONFORMANCE_SEED, { min: 0 }) ?? randomSeed(),
    runs: integerSetting('--runs', values.runs, { min: 1 }) ?? PROFILE_RUNS[profile],
    outDir: resolve(values.out ?? 'reports'),
    strict: values.strict ?? false,
    ...(only ? { only } : {}),
    ...(values.shard ? { shard: parseShard(values.shard) } : {}),
    ...(values.baseline ? { baseline: await loadBaseline(values.baseline) } : {}),
    dryRun: values['dry-run'] ?? false,
    env,
  };
}

/** Runs the suite as the settings say and writes the reports; returns the report and its comparison with the baseline. */
async function performRun(s: RunCommandOptions): Promise<{ report: Report; comparison?: Comparison; html: string; summary: string }> {
  const rules = allRules();
  let target: TargetConfig;
  let stopEmulator = async () => {};
  if (s.kind === 'remote') {
    target = targetFromEnv(s.env, 'remote');
  } else {
    const embedded = await startEmbeddedTarget();
    target = embedded.config;
    stopEmulator = embedded.close;
  }
  // One client for the whole run, so its rate limit covers every request, the reachability probe included.
  const client = clientFor(target);
  const progress = new Progress(rules.length);
  let report: Report;
  try {
    if (s.kind === 'remote') await assertReachable(target, client);
    process.stderr.write(`conformance: ${rules.length} rules against the ${s.kind === 'emulator' ? 'embedded emulator' : `remote target ${target.baseUrl}`}, seed ${s.seed}, ${s.runs} cases per property${s.shard ? `, shard ${s.shard.index}/${s.shard.count}` : ''}\n`);
    report = await executeRun({
      target, client, rules, seed: s.seed, runs: s.runs,
      ...(s.only ? { only: s.only } : {}),
      ...(s.shard ? { shard: s.shard } : {}),
      options: { profile: s.profile, strict: s.strict },
      onResult: progress.onResult,
    });
  } finally {
    progress.end();
    await client.close();
    await stopEmulator();
  }
  const comparison = s.baseline ? compareWithBaseline(s.baseline, report) : undefined;
  if (comparison) {
    report = { ...report, baseline: { regressions: comparison.regressions.map((r) => r.id), fixes: comparison.fixes.map((r) => r.id), added: comparison.added.map((r) => r.id) } };
  }
  const written = await writeReports(report, { outDir: s.outDir });
  const sum = report.summary;
  process.stdout.write(
    `passed ${sum.passed}, failed ${sum.failed}, non_strict ${sum.non_strict}, informational ${sum.informational}, skipped ${sum.skipped}, errored ${sum.errored}` +
      ` (${report.request_count ?? 0} requests, seed ${s.seed})\nreports: ${written.html}\n`,
  );
  if (sum.errored > 0) process.stderr.write(`warning: ${sum.errored} rule(s) could not reach a verdict (errored); see ${written.summary}\n`);
  return { report, ...(comparison ? { comparison } : {}), html: written.html, summary: written.summary };
}

export async function runCommand(args: string[]): Promise<number> {
  const s = await runCommandOptions(args, 'run');
  if (s.dryRun) return dryRun(s);
  const { report, comparison } = await performRun(s);
  return exitCode(report, { strict: s.strict, ...(comparison ? { comparison } : {}) });
}

export async function certifyCommand(args: string[]): Promise<number> {
  const fromIndex = args.indexOf('--from');
  let report: Report;
  let outDir: string;
  if (fromIndex >= 0) {
    // Certifies a merged report of a sharded full run (docs/ci.md) instead of running again.
    const { values } = parseFlags(args, { from: { type: 'string' }, out: { type: 'string' } }, 'certify');
    report = await loadBaseline(values.from!, '--from');
    if (report.options?.profile !== 'full') throw new ConfigError('--from', `names a report of profile ${String(report.options?.profile)}; certification needs the full profile`);
    outDir = resolve(values.out ?? 'reports');
  } else {
    const s = await runCommandOptions(args, 'certify', { profile: 'full' });
    if (s.only || s.shard) throw new UsageError('conformance certify runs every rule: --only and --shard do not apply');
    ({ report } = await performRun(s));
    outDir = s.outDir;
  }
  const certificate = issueCertificate(report);
  const path = join(outDir, 'certificate.json');
  await writeFile(path, `${JSON.stringify(certificate, null, 2)}\n`);
  process.stdout.write(`certificate: ${path} (results ${certificate.results_sha256.slice(0, 12)}…, spec ${certificate.spec_sha256.slice(0, 12)}…)\n`);
  return 0;
}

/** `--dry-run`: what a run would create on the target, without sending anything. */
function dryRun(s: RunCommandOptions): number {
  const rules = allRules();
  const skip = skipReason({ ...(s.only ? { only: s.only } : {}), ...(s.shard ? { shard: s.shard } : {}) }, rules);
  const target = s.kind === 'remote' ? targetFromEnv(s.env, 'remote') : undefined;
  const runs = (r: Rule) => skip(r) === undefined && (!target || missingCapability(r, target) === undefined);
  const writers = rules.filter((r) => runs(r) && r.requires.includes('write'));
  const readers = rules.filter((r) => runs(r) && !r.requires.includes('write'));
  process.stdout.write(`dry run against ${target ? target.baseUrl : 'the embedded emulator'}: nothing is sent.\n`);
  process.stdout.write(`${readers.length} rules only read. ${writers.length} rules create data, every id carrying the run id (run-${s.seed.toString(36)}-<time>):\n`);
  for (const r of writers) process.stdout.write(`  ${r.id}: ${r.creates ?? 'records on the target'}\n`);
  return 0;
}

async function loadBaseline(path: string, flag = '--baseline'): Promise<Report> {
  try {
    return await readReport(path);
  } catch (err) {
    throw new ConfigError(flag, `cannot be read: ${(err as Error).message}`);
  }
}

/** docs/design.md §3: 0 when no `must` rule failed (with --strict, no `should` either); with a baseline, only regressions count. */
export function exitCode(report: Report, options: { strict: boolean; comparison?: Comparison }): number {
  const counts = (level: string) => level === 'must' || (options.strict && level === 'should');
  if (options.comparison) {
    const { regressions, fixes, added } = options.comparison;
    for (const r of regressions) process.stderr.write(`regression: ${r.id} (${r.level}) now fails: ${r.detail.slice(0, 160)}\n`);
    if (fixes.length > 0) process.stderr.write(`fixed since the baseline: ${fixes.map((r) => r.id).join(', ')}\n`);
    if (added.length > 0) process.stderr.write(`new rules since the baseline: ${added.length}\n`);
    return regressions.some((r) => counts(r.level)) ? 1 : 0;
  }
  return report.results.some((r) => r.status === 'failed' && counts(r.level)) ? 1 : 0;
}
