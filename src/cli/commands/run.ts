/**
 * `conformance run`: runs the suite against the embedded emulator or a remote target and writes the reports.
 */
import { resolve } from 'node:path';
import { allRules } from '../../../specs/index.js';
import type { Report } from '../../model/result.js';
import { readReport, writeReports } from '../../report/index.js';
import { compareWithBaseline } from '../../runner/baseline.js';
import { clientFor, executeRun } from '../../runner/execute.js';
import { randomSeed } from '../../runner/seed.js';
import { selector } from '../../runner/select.js';
import type { TargetConfig } from '../../target/config.js';
import { startEmbeddedTarget } from '../../target/embedded.js';
import { targetFromEnv } from '../../target/from-env.js';
import { assertReachable } from '../../target/reachability.js';
import { oneOf, parseFlags } from '../args.js';
import { ConfigError, UsageError } from '../errors.js';
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
} as const;

/** Cases per property rule in each profile; `--runs` overrides. */
const PROFILE_RUNS = { quick: 20, full: 100 } as const;

export async function runCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseFlags(args, RUN_FLAGS, 'run');
  if (positionals.length > 0) throw new UsageError(`conformance run: unexpected argument "${positionals[0]}"`);
  const env = loadEnv(values['env-file']);
  const kind = oneOf('--target', values.target ?? env.CONFORMANCE_TARGET, ['emulator', 'remote'] as const, 'emulator');
  const profile = oneOf('--profile', values.profile, ['quick', 'full'] as const, 'full');
  const seed = integerSetting('--seed', values.seed, { min: 0 }) ?? integerSetting('CONFORMANCE_SEED', env.CONFORMANCE_SEED, { min: 0 }) ?? randomSeed();
  const runs = integerSetting('--runs', values.runs, { min: 1 }) ?? PROFILE_RUNS[profile];
  const outDir = resolve(values.out ?? 'reports');
  const strict = values.strict ?? false;
  const baseline = values.baseline ? await loadBaseline(values.baseline) : undefined;

  const rules = allRules();
  if (values.only && !rules.some(selector(values.only))) throw new ConfigError('--only', `matches no rule: "${values.only}" (see \`conformance rules\`)`);

  let target: TargetConfig;
  let stopEmulator = async () => {};
  if (kind === 'remote') {
    target = targetFromEnv(env, 'remote');
  } else {
    const embedded = await startEmbeddedTarget();
    target = embedded.config;
    stopEmulator = embedded.close;
  }
  // One client for the whole run, so its rate limit covers every request, the reachability probe included.
  const client = clientFor(target);
  const close = async () => {
    await client.close();
    await stopEmulator();
  };
  if (kind === 'remote') {
    try {
      await assertReachable(target, client);
    } catch (err) {
      await close();
      throw err;
    }
  }

  process.stderr.write(`conformance: ${rules.length} rules against the ${kind === 'emulator' ? 'embedded emulator' : `remote target ${target.baseUrl}`}, seed ${seed}, ${runs} cases per property\n`);
  const progress = new Progress(rules.length);
  let report: Report;
  try {
    report = await executeRun({ target, client, rules, seed, runs, ...(values.only ? { only: values.only } : {}), options: { profile, strict }, onResult: progress.onResult });
  } finally {
    progress.end();
    await close();
  }

  const written = await writeReports(report, { outDir });
  const s = report.summary;
  process.stdout.write(
    `passed ${s.passed}, failed ${s.failed}, non_strict ${s.non_strict}, informational ${s.informational}, skipped ${s.skipped}, errored ${s.errored}` +
      ` (${report.request_count ?? 0} requests, seed ${seed})\nreports: ${written.html}\n`,
  );
  if (s.errored > 0) process.stderr.write(`warning: ${s.errored} rule(s) could not reach a verdict (errored); see ${written.summary}\n`);
  return exitCode(report, { strict, baseline });
}

async function loadBaseline(path: string): Promise<Report> {
  try {
    return await readReport(path);
  } catch (err) {
    throw new ConfigError('--baseline', `cannot be read: ${(err as Error).message}`);
  }
}

/** DESIGN.md §3: 0 when no `must` rule failed (with --strict, no `should` either); with a baseline, only regressions count. */
export function exitCode(report: Report, options: { strict: boolean; baseline?: Report }): number {
  const counts = (level: string) => level === 'must' || (options.strict && level === 'should');
  if (options.baseline) {
    const { regressions, fixes } = compareWithBaseline(options.baseline, report);
    for (const r of regressions) process.stderr.write(`regression: ${r.id} (${r.level}) now fails: ${r.detail.slice(0, 160)}\n`);
    if (fixes.length > 0) process.stderr.write(`fixed since the baseline: ${fixes.map((r) => r.id).join(', ')}\n`);
    return regressions.some((r) => counts(r.level)) ? 1 : 0;
  }
  return report.results.some((r) => r.status === 'failed' && counts(r.level)) ? 1 : 0;
}
