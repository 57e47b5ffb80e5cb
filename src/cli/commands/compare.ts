/**
 * `conformance compare`: the suite (or a selection) run with one seed against two servers, answer by answer: a
 * release against the one before it, a sandbox against a staging account. Noise is learned from a second run
 * against the primary (Diffy's secondary); compare.json and compare.html say what differs, where and how often.
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parse } from 'dotenv';
import { allRules } from '../../../specs/index.js';
import { compareTargets, type TargetSource } from '../../compare/compare.js';
import { embeddedSource, remoteSource } from '../../compare/sources.js';
import { DIFFERENCE_CLASSES, type ComparisonReport, type DifferenceClass } from '../../compare/types.js';
import { isFaultName } from '../../emulator/faults.js';
import { isVariationName } from '../../emulator/variations.js';
import { ConfigError } from '../../errors.js';
import { writeComparisonReports } from '../../report/comparison.js';
import { randomSeed } from '../../runner/seed.js';
import { selector } from '../../runner/select.js';
import { collect, oneOf } from '../args.js';
import { defineCommand } from '../command.js';
import { PROFILE_RUNS } from '../run-options.js';
import { integerSetting } from '../settings.js';

interface CompareFlags {
  readonly primary?: string;
  readonly candidate?: string;
  readonly secondary?: string;
  readonly noiseRuns?: string;
  readonly profile?: string;
  readonly only?: string;
  readonly seed?: string;
  readonly runs?: string;
  readonly out?: string;
  readonly failOn?: string;
  readonly fault?: readonly string[];
  readonly variation?: readonly string[];
}

const EMULATOR = 'emulator';

export const compareCommand = defineCommand<CompareFlags>({
  name: 'compare',
  summary: 'run the suite against two servers and report where their answers differ',
  description: 'Runs the suite (or --only / --profile) with one seed against the primary twice (the first run is the '
    + 'secondary: what differs between those two runs is noise) and against the candidate; pairs the exchanges by '
    + 'rule, endpoint and occurrence and compares status, the headers the spec names, the JSON structure and, where both '
    + 'were sent the same input, the values (ids, tokens and timestamps never). Each server is `emulator` (the embedded '
    + 'emulator, a fresh instance per run) or an env file describing a remote server (read alone, not mixed with the '
    + 'process environment; its RATE_LIMIT_RPS and TOKEN_STORE work as in `run`). Writes compare.json and compare.html '
    + 'into --out, verdict changes first and the differences the spec allows (both answers satisfy the rule that judges '
    + 'them) apart. Exit 1 on a verdict change (any rule whose verdict differs), unless --fail-on none, and on a '
    + 'difference of a --fail-on class; 0 otherwise; 2 on a usage or configuration error, 3 when a server cannot be '
    + 'reached.',
  examples: [
    ['conformance compare --primary .env.release-41 --candidate .env.release-42', 'a release against the one before it'],
    ['conformance compare --primary .env.staging --candidate emulator --only 4.3', 'does the sandbox answer like the staging account'],
    ['conformance compare --primary emulator --candidate emulator --variation lists-id-descending', 'what an allowed variation changes'],
    ['conformance compare --primary .env.a --candidate .env.b --fail-on status,shape', 'a CI gate on status codes and shapes only'],
  ],
  flags: (command) => command
    .option('--primary <server>', '`emulator` or an env file: the reference server (required)')
    .option('--candidate <server>', '`emulator` or an env file: the server compared with it (required)')
    .option('--secondary <server>', 'the server whose differences from the primary are noise (default: the primary again)')
    .option('--noise-runs <n>', 'secondary runs that learn the noise (default: 1)')
    .option('--profile <name>', `cases per property: quick ${PROFILE_RUNS.quick}, full ${PROFILE_RUNS.full} (default: quick; three runs are made)`)
    .option('--only <selection>', 'comma-separated rule id globs or section prefixes; see `conformance rules`')
    .option('--seed <n>', 'the seed of all runs (default: CONFORMANCE_SEED, else random, printed)')
    .option('--runs <n>', 'cases per property rule, overriding the profile')
    .option('--out <dir>', 'where compare.json and compare.html go (default: reports)')
    .option('--fail-on <classes>', `exit 1 on: any (every difference, those the spec allows too), none, or a comma-separated list of ${DIFFERENCE_CLASSES.join(', ')} (differences of those classes that change a verdict or lie in a broken rule); a verdict change fails unless none (default: any)`)
    .option('--fault <name>', 'switch on a fault in the candidate, when it is the emulator; repeatable', collect)
    .option('--variation <name>', 'switch on an allowed variation in the candidate, when it is the emulator; repeatable', collect),
  action: async (flags) => {
    const s = compareOptions(flags);
    const rules = allRules();
    const selected = selector(s.only);
    const plan = { rules, selected };
    const source = (flag: string, value: string, role: string, switches: { faults?: readonly string[]; variations?: readonly string[] } = {}): TargetSource =>
      value === EMULATOR ? embeddedSource({ seed: s.seed, ...switches }) : remoteFrom(flag, value, role, plan);
    const primary = source('--primary', s.primary, 'primary');
    const candidate = source('--candidate', s.candidate, 'candidate', { faults: s.faults, variations: s.variations });
    const secondary = s.secondary === undefined ? undefined : source('--secondary', s.secondary, 'secondary');
    process.stderr.write(`conformance compare: ${rules.filter(selected).length} rules, seed ${s.seed}, ${s.runs} cases per property; ${s.noiseRuns + 2} runs\n`);
    const report = await compareTargets({
      primary, candidate, ...(secondary ? { secondary } : {}), noiseRuns: s.noiseRuns, rules, seed: s.seed, runs: s.runs,
      ...(s.only ? { only: s.only } : {}),
      options: { profile: s.profile, fail_on: s.failOn.classes.join(',') || 'none', ...(s.failOn.classes.length > 0 && !s.failOn.allowed ? { fail_on_allowed: false } : {}) },
      log: (line) => process.stderr.write(`conformance compare: ${line}\n`),
    });
    const written = await writeComparisonReports(report, s.outDir);
    const failed = failing(report, s.failOn);
    process.stdout.write(`${summaryLine(report)}\nreports: ${written.html}\n`);
    const changed = failed.filter((d) => d.class === 'verdict');
    for (const d of changed.slice(0, 20)) process.stderr.write(`verdict change: ${d.rule} ${d.verdicts.primary} → ${d.verdicts.candidate}\n`);
    if (changed.length > 20) process.stderr.write(`verdict change: … ${changed.length - 20} more (compare.html)\n`);
    return failed.length > 0 ? 1 : 0;
  },
});

interface CompareSettings {
  readonly primary: string;
  readonly candidate: string;
  readonly secondary?: string;
  readonly noiseRuns: number;
  readonly profile: keyof typeof PROFILE_RUNS;
  readonly only?: string;
  readonly seed: number;
  readonly runs: number;
  readonly outDir: string;
  readonly failOn: FailOn;
  readonly faults: readonly string[];
  readonly variations: readonly string[];
}

function server(flag: string, value: string | undefined): string {
  if (value === undefined) throw new ConfigError(flag, 'is required: `emulator` or the env file of a server');
  if (value !== EMULATOR && !existsSync(value)) throw new ConfigError(flag, `names neither \`emulator\` nor an existing env file: ${value}`);
  return value;
}

function compareOptions(flags: CompareFlags): CompareSettings {
  const primary = server('--primary', flags.primary);
  const candidate = server('--candidate', flags.candidate);
  const secondary = flags.secondary === undefined ? undefined : server('--secondary', flags.secondary);
  const profile = oneOf('--profile', flags.profile, ['quick', 'full'] as const, 'quick');
  if (flags.only !== undefined && !allRules().some(selector(flags.only))) throw new ConfigError('--only', `matches no rule: "${flags.only}" (see \`conformance rules\`)`);
  const faults = flags.fault ?? [];
  const variations = flags.variation ?? [];
  if ((faults.length > 0 || variations.length > 0) && candidate !== EMULATOR) throw new ConfigError(faults.length > 0 ? '--fault' : '--variation', 'switches the embedded emulator: it needs --candidate emulator');
  const badFaults = faults.filter((f) => !isFaultName(f));
  if (badFaults.length > 0) throw new ConfigError('--fault', `names no fault: ${badFaults.join(', ')} (see \`conformance faults\`)`);
  const badVariations = variations.filter((v) => !isVariationName(v));
  if (badVariations.length > 0) throw new ConfigError('--variation', `names no variation: ${badVariations.join(', ')} (see \`conformance variations\`)`);
  return {
    primary, candidate, ...(secondary ? { secondary } : {}),
    noiseRuns: integerSetting('--noise-runs', flags.noiseRuns, { min: 1 }) ?? 1,
    profile,
    ...(flags.only ? { only: flags.only } : {}),
    seed: integerSetting('--seed', flags.seed, { min: 0 }) ?? integerSetting('CONFORMANCE_SEED', process.env.CONFORMANCE_SEED, { min: 0 }) ?? randomSeed(),
    runs: integerSetting('--runs', flags.runs, { min: 1 }) ?? PROFILE_RUNS[profile],
    outDir: resolve(flags.out ?? 'reports'),
    failOn: failOnClasses(flags.failOn),
    faults, variations,
  };
}

/** What the gate fails on: differences of these classes, and (`any`) also those the spec allows. */
export interface FailOn {
  readonly classes: readonly DifferenceClass[];
  readonly allowed: boolean;
}

/**
 * `any` (the default: every difference, those the spec allows too), `none` (nothing: the exit code says only whether
 * the comparison ran), or a list of difference classes (a difference of one of them that changes a verdict or lies in
 * a broken rule).
 */
export function failOnClasses(raw: string | undefined): FailOn {
  if (raw === undefined || raw === 'any') return { classes: DIFFERENCE_CLASSES, allowed: true };
  if (raw === 'none') return { classes: [], allowed: false };
  const names = raw.split(',').map((x) => x.trim()).filter(Boolean);
  const unknown = names.filter((n) => !(DIFFERENCE_CLASSES as readonly string[]).includes(n));
  if (unknown.length > 0 || names.length === 0) throw new ConfigError('--fail-on', `must be any, none or a list of ${DIFFERENCE_CLASSES.join(', ')}; got "${raw}"`);
  return { classes: names as DifferenceClass[], allowed: false };
}

/**
 * The differences that fail the gate: a verdict change always (unless `none`), whatever classes were named, since a
 * rule that went from passed to failed is what a gate is for; else a difference of a named class, unless the spec
 * allows it and `any` was not asked.
 */
export function failing(report: ComparisonReport, failOn: FailOn): ComparisonReport['differences'] {
  if (failOn.classes.length === 0) return [];
  return report.differences.filter((d) => d.class === 'verdict'
    || (failOn.classes.includes(d.class) && (failOn.allowed || d.standing !== 'allowed by the spec')));
}

/**
 * A server an env file describes, read alone (two servers' settings must not mix through the process environment); a
 * bad setting is named with the flag and the file it came from.
 */
function remoteFrom(flag: string, path: string, role: string, plan: Parameters<typeof remoteSource>[2]): TargetSource {
  try {
    return remoteSource(parse(readFileSync(path)), `${role} ${path}`, plan);
  } catch (err) {
    if (err instanceof ConfigError) throw new ConfigError(flag, `(${path}): ${err.message}`);
    throw err;
  }
}

function summaryLine(r: ComparisonReport): string {
  const classes = DIFFERENCE_CLASSES.filter((c) => r.summary.by_class[c] > 0).map((c) => `${c} ${r.summary.by_class[c]}`);
  const allowed = r.summary.by_standing['allowed by the spec'];
  const meaning = r.summary.differences === 0 ? '' : ` [${r.summary.verdict_changes} verdict change${r.summary.verdict_changes === 1 ? '' : 's'}, ${allowed} allowed by the spec]`;
  return `${r.summary.differences} difference${r.summary.differences === 1 ? '' : 's'}${classes.length > 0 ? ` (${classes.join(', ')})` : ''}${meaning}, `
    + `${r.summary.noise_places} noise place${r.summary.noise_places === 1 ? '' : 's'}; ${r.summary.rules_compared} rules and ${r.summary.exchanges_compared} exchanges compared (seed ${r.seed})`;
}
