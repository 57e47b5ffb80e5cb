/**
 * The flags `run` and `certify` share (docs/design.md §3), and their checked form: every value validated, the
 * message naming the flag or environment key at fault.
 */
import { resolve } from 'node:path';
import { Option, type Command } from 'commander';
import { allRules } from '../../specs/index.js';
import type { Report } from '../model/result.js';
import { readReport } from '../report/json.js';
import { parseBudget } from '../runner/budget.js';
import { randomSeed } from '../runner/seed.js';
import { parseShard, selection, selector, type Shard } from '../runner/select.js';
import type { ReportPaths } from '../report/write.js';
import { collect, given, oneOf } from './args.js';
import { isVariationName } from '../emulator/variations.js';
import { ConfigError, UsageError } from '../errors.js';
import { integerSetting, loadEnv } from './settings.js';

/**
 * Cases per property rule in each profile; `--runs` overrides. `quick` is the CI gate (a bounded request count);
 * `full` is certification; `soak` is the quick gate plus what needs time to pass on a target whose clock the kit
 * cannot move (no control API): those rules wait in real time (the 20-minute code lifetime: about 21 minutes), in
 * parallel with the rest of the suite.
 */
export const PROFILE_RUNS = { quick: 5, full: 100, soak: 5 } as const;
export const PROFILES = Object.keys(PROFILE_RUNS) as readonly Profile[];
/** The most cases per property `--runs` takes: a full profile's hundred times a hundred, far past any useful run. */
export const MAX_RUNS = 10_000;
export type Profile = keyof typeof PROFILE_RUNS;

/** The parsed flags, as commander names them (camelCase). */
export interface RunFlags {
  readonly target?: string;
  readonly shape?: string;
  readonly profile?: string;
  readonly only?: string;
  readonly exclude?: string;
  readonly seed?: string;
  readonly runs?: string;
  readonly strict?: boolean;
  readonly allowUnjudged?: boolean;
  readonly baseline?: string;
  readonly out?: string;
  readonly junit?: string;
  readonly json?: string;
  readonly html?: string;
  readonly summary?: string;
  readonly envFile?: string;
  readonly shard?: string;
  readonly dryRun?: boolean;
  readonly budget?: string;
  readonly wait?: boolean;
  readonly variation?: readonly string[];
}

interface RunFlag {
  readonly key: keyof RunFlags;
  readonly flags: string;
  readonly help: string;
  readonly choices?: readonly string[];
  /** Given again and again, each value added to a list (`--variation a --variation b`). */
  readonly repeatable?: boolean;
  /** Certification runs every rule with the full profile: these flags are refused there, with the reason. */
  readonly notForCertify?: string;
}

const RUN_FLAGS: readonly RunFlag[] = [
  { key: 'target', flags: '--target <kind>', choices: ['emulator', 'remote'], help: 'the embedded emulator, or the remote server the environment describes (BASE_URL, CLIENT_ID, …; see env.example); default: CONFORMANCE_TARGET, else emulator' },
  { key: 'shape', flags: '--shape <shape>', choices: ['one-origin', 'deployed'], help: 'the embedded emulator\'s shape: one-origin (default: every interface on one address, the faster run) or deployed (each account at its own host, the chat interface at its own; docs/emulator.md "Shapes"); only with --target emulator' },
  { key: 'profile', flags: '--profile <name>', choices: ['quick', 'full', 'soak'], help: `cases per property: quick ${PROFILE_RUNS.quick} (the CI gate), full ${PROFILE_RUNS.full} (certification), soak ${PROFILE_RUNS.soak} plus the lifetimes checked in real time without a control API (about 22 minutes); default: full`, notForCertify: 'certification always uses the full profile' },
  { key: 'only', flags: '--only <selection>', help: 'comma-separated rule id globs (oauth.token.*) or section prefixes (4.2); see `conformance rules`', notForCertify: 'a certificate covers every rule' },
  { key: 'exclude', flags: '--exclude <selection>', help: 'leave these rules out (the syntax of --only: id globs or section prefixes); they are not run and not counted', notForCertify: 'a certificate covers every rule' },
  { key: 'seed', flags: '--seed <n>', help: 'the same seed generates the same requests; default: CONFORMANCE_SEED, else random (printed)' },
  { key: 'runs', flags: '--runs <n>', help: `cases per property rule, overriding the profile (1 to ${MAX_RUNS})` },
  { key: 'strict', flags: '--strict', help: 'a failed `should` rule also fails the run (exit 1)' },
  { key: 'allowUnjudged', flags: '--allow-unjudged', help: 'hide unjudged rules from the exit code: a `must` rule that errored, or was skipped because the target refused a step it needed, no longer makes the run exit 4 (they are still listed)', notForCertify: 'a certificate needs every rule judged' },
  { key: 'baseline', flags: '--baseline <report.json>', help: 'exit 1 only on regressions against this earlier report; lists fixes and new rules' },
  { key: 'out', flags: '--out <dir>', help: 'where the reports go (default: reports)' },
  { key: 'junit', flags: '--junit <path>', help: 'write junit.xml here instead (default: <out>/junit.xml)' },
  { key: 'json', flags: '--json <path>', help: 'write report.json here instead (default: <out>/report.json)' },
  { key: 'html', flags: '--html <path>', help: 'write report.html here instead (default: <out>/report.html)' },
  { key: 'summary', flags: '--summary <path>', help: 'write summary.md here instead (default: <out>/summary.md; e.g. "$GITHUB_STEP_SUMMARY")' },
  { key: 'envFile', flags: '--env-file <path>', help: 'settings file (default: .env when present); the process environment wins. Through npx on Node 20 write `npx -- conformance …`: npx\'s own Node reads --env-file (README)' },
  { key: 'shard', flags: '--shard <i/n>', help: 'run the i-th of n shares of the rules; join the reports with `conformance merge`', notForCertify: 'certify a sharded run with --from <merged report.json>' },
  { key: 'budget', flags: '--budget <requests|duration>', help: 'the CI gate within a budget: 2000 (requests) or 300s / 5m (at RATE_LIMIT_RPS); takes the rules that catch the most per request, by the request counts of --baseline\'s report, else of the last run (kept in CONFORMANCE_CACHE_DIR, default ~/.cache/conformance-kit), and names the ones left out', notForCertify: 'a certificate covers every rule' },
  { key: 'wait', flags: '--wait', help: 'when another run holds the target (its control API\'s run lock), wait for it to end instead of stopping with exit 2' },
  { key: 'variation', flags: '--variation <name>', repeatable: true, help: 'switch on an allowed variation of the embedded emulator (a behaviour the spec allows, see `conformance variations`), repeatable; only with --target emulator', notForCertify: 'a certificate is of the target as it is' },
  { key: 'dryRun', flags: '--dry-run', help: 'list what the run would create on the target and every rule it would skip with why, and send nothing', notForCertify: 'a certificate needs a real run' },
];

/** Declares the run flags on `run`, or on `certify`, where the ones that do not apply are hidden and refused. */
export function addRunFlags(command: Command, use: 'run' | 'certify'): void {
  for (const flag of RUN_FLAGS) {
    const option = new Option(flag.flags, flag.help);
    if (flag.choices) option.choices(flag.choices);
    if (flag.repeatable) option.argParser(collect);
    if (use === 'certify' && flag.notForCertify) option.hideHelp();
    command.addOption(option);
  }
}

/** Certify refuses, naming the flag and why, the run flags that do not apply to it (and with --from, all but --out). */
export function refuseForCertify(command: Command, options: { from: boolean }): void {
  for (const flag of RUN_FLAGS) {
    if (!given(command, flag.key)) continue;
    const name = flag.flags.split(' ')[0]!;
    if (options.from && flag.key !== 'out') throw new UsageError(`${name} does not apply with --from: the merged report is certified as it is`);
    if (flag.key === 'profile' && command.getOptionValue('profile') === 'full') continue;
    if (flag.notForCertify) throw new UsageError(`${name} does not apply to certify: ${flag.notForCertify}`);
  }
}

export interface RunCommandOptions {
  readonly kind: 'emulator' | 'remote';
  /** The embedded emulator's shape (src/emulator/shape.ts). */
  readonly shape: 'one-origin' | 'deployed';
  /** Allowed variations the embedded emulator starts with (--variation; src/emulator/variations.ts). */
  readonly variations: readonly string[];
  readonly profile: Profile;
  readonly seed: number;
  readonly runs: number;
  readonly outDir: string;
  readonly strict: boolean;
  readonly allowUnjudged: boolean;
  readonly only?: string;
  readonly exclude?: string;
  readonly shard?: Shard;
  readonly baseline?: Report;
  /** Where each report goes, when not in outDir (--junit, --json, --html, --summary). */
  readonly reportPaths: ReportPaths;
  /** At most this many requests (--budget, a duration already turned into requests at the rate limit). */
  readonly budget?: number;
  readonly dryRun: boolean;
  /** --wait: wait for a run holding the target's lock to end (src/targets/run-lock.ts). */
  readonly wait: boolean;
  /** A person at the terminal can be asked to act (operator steps): stdin and stderr are terminals and CI is not set. */
  readonly interactive: boolean;
  readonly env: ReturnType<typeof loadEnv>;
}

/** Checks every flag and the environment keys they fall back on; throws a ConfigError naming the first bad one. */
export async function runCommandOptions(flags: RunFlags, forced: { profile?: Profile } = {}): Promise<RunCommandOptions> {
  const env = loadEnv(flags.envFile);
  const profile = forced.profile ?? oneOf('--profile', flags.profile, PROFILES, 'full');
  const only = flags.only;
  if (only !== undefined && !allRules().some(selector(only))) throw new ConfigError('--only', `matches no rule: "${only}" (see \`conformance rules\`)`);
  const exclude = flags.exclude;
  if (exclude !== undefined && !allRules().some(selector(exclude))) throw new ConfigError('--exclude', `matches no rule: "${exclude}" (see \`conformance rules\`)`);
  if (exclude !== undefined && !allRules().some(selection({ ...(only ? { only } : {}), exclude }))) throw new ConfigError('--exclude', `leaves no rule to run${only ? ` of --only ${only}` : ''}: "${exclude}"`);
  const kind = flags.target !== undefined
    ? oneOf('--target', flags.target, ['emulator', 'remote'] as const, 'emulator')
    : oneOf('CONFORMANCE_TARGET', env.CONFORMANCE_TARGET, ['emulator', 'remote'] as const, 'emulator');
  const shape = oneOf('--shape', flags.shape, ['one-origin', 'deployed'] as const, 'one-origin');
  if (flags.shape !== undefined && kind === 'remote') throw new ConfigError('--shape', 'is the embedded emulator\'s; a remote target is shaped as it is (start `conformance emulator --shape ...` for a remote emulator)');
  const variations = flags.variation ?? [];
  if (variations.length > 0 && kind === 'remote') throw new ConfigError('--variation', 'switches the embedded emulator: a remote target behaves as it does (start `conformance emulator --variation ...` for a remote emulator)');
  const unknown = variations.filter((v) => !isVariationName(v));
  if (unknown.length > 0) throw new ConfigError('--variation', `names no variation: ${unknown.join(', ')} (see \`conformance variations\`)`);
  const shard = parseShard(flags.shard);
  const budget = budgetSetting(flags.budget, kind === 'remote' ? env.RATE_LIMIT_RPS : undefined);
  return {
    kind,
    shape,
    variations,
    profile,
    seed: integerSetting('--seed', flags.seed, { min: 0 }) ?? integerSetting('CONFORMANCE_SEED', env.CONFORMANCE_SEED, { min: 0 }) ?? randomSeed(),
    runs: integerSetting('--runs', flags.runs, { min: 1, max: MAX_RUNS }) ?? PROFILE_RUNS[profile],
    outDir: resolve(flags.out ?? 'reports'),
    reportPaths: reportPaths(flags),
    strict: flags.strict ?? false,
    allowUnjudged: flags.allowUnjudged ?? false,
    ...(only ? { only } : {}),
    ...(exclude ? { exclude } : {}),
    ...(shard ? { shard } : {}),
    ...(budget !== undefined ? { budget } : {}),
    ...(flags.baseline !== undefined ? { baseline: await loadReport(flags.baseline, '--baseline') } : {}),
    dryRun: flags.dryRun ?? false,
    wait: flags.wait ?? false,
    interactive: Boolean(process.stdin.isTTY && process.stderr.isTTY) && !env.CI,
    env,
  };
}

/** The report paths the flags name, absolute (the others go into --out). */
export function reportPaths(flags: Pick<RunFlags, 'junit' | 'json' | 'html' | 'summary'>): ReportPaths {
  const paths: { -readonly [K in keyof ReportPaths]: string } = {};
  for (const key of ['junit', 'json', 'html', 'summary'] as const) {
    const path = flags[key];
    if (path === undefined) continue;
    if (path.trim() === '') throw new ConfigError(`--${key}`, 'needs a file path, got an empty one');
    paths[key] = resolve(path);
  }
  return paths;
}

function budgetSetting(raw: string | undefined, rps: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  try {
    return parseBudget(raw, rps && Number(rps) > 0 ? Number(rps) : undefined);
  } catch (err) {
    throw new ConfigError('--budget', (err as Error).message);
  }
}

/** Reads a report a flag names; a ConfigError naming the flag when it cannot. */
export async function loadReport(path: string, flag: string): Promise<Report> {
  try {
    return await readReport(path);
  } catch (err) {
    throw new ConfigError(flag, `cannot be read: ${(err as Error).message}`);
  }
}
