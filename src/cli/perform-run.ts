/**
 * One run of the suite as `run` and `certify` perform it: the target (embedded emulator or remote), Chromium for the
 * browser rules when they are selected, progress on stderr, the reports, the summary line on stdout.
 */
import { configurationLine, configurationOf } from '../configurations/detect.js';
import { versionRefusalOf } from '../configurations/version-refusal.js';
import { CREDENTIAL_WORDS, type CredentialKind } from '../needs/credentials.js';
import { allRules } from '../../specs/index.js';
import type { Report } from '../model/result.js';
import { writeReports } from '../report/write.js';
import { FAILING_FAULTS } from '../emulator/faults.js';
import { VARIATION_TABLE } from '../emulator/variations.js';
import type { Rule } from '../model/rule.js';
import { compareWithBaseline, type Comparison } from '../report/baseline.js';
import { planBudget, type BudgetPlan } from '../runner/budget.js';
import { clientFor, executeRun, maskerFor, newRunId } from '../runner/execute.js';
import { countsKey, keepDurations, keepRequestCounts, lastDurations, lastRequestCounts } from '../runner/durations.js';
import { inRuleOrder, runOrder, selection as selectionOf, skipReason } from '../runner/select.js';
import { RunInterrupted, watchSignals, type Interruption } from '../runner/interrupt.js';
import type { TargetConfig } from '../model/target.js';
import { planSupply, type SupplyPlan } from '../needs/plan.js';
import { startEmbeddedTarget } from '../targets/embedded.js';
import { targetFromEnv } from '../targets/from-env.js';
import { assertReachable } from '../targets/reachability.js';
import { takeRunLock, type HeldLock } from '../targets/run-lock.js';
import { machineProbe, prepareBrowser, type ChromiumProbe } from './chromium-setup.js';
import { loadPlaywright } from '../browser/launch.js';
import { Progress } from './progress.js';
import type { RunCommandOptions } from './run-options.js';
import { specSha256 } from '../report/certificate.js';
import { withRunStatements } from './run-statements.js';

export interface PerformedRun {
  readonly report: Report;
  readonly comparison?: Comparison;
  readonly html: string;
  readonly summary: string;
}

/**
 * The rules a --budget leaves out, by the request counts of the baseline report, else of the last run against this kind
 * of target (src/runner/durations.ts keeps them outside node_modules); none when no count is known yet, which the run says.
 */
function budgetFor(s: RunCommandOptions, requests: number, selected: readonly Rule[]): BudgetPlan | undefined {
  // The baseline's counts win over the last run's: the user named that report, and its counts travel with it.
  const costs = new Map([...lastRequestCounts(countsKey(s.kind, s.runs)), ...(s.baseline?.results ?? []).flatMap((r) => (r.request_count === undefined || r.status === 'skipped' ? [] : [[r.id, r.request_count] as const]))]);
  if (costs.size === 0) {
    process.stderr.write(`conformance: --budget ${requests}: no request counts are known yet (run once without it, or give --baseline), so every selected rule runs\n`);
    return undefined;
  }
  const faults = FAILING_FAULTS.map((f) => f.caughtBy);
  const plan = planBudget({ rules: selected, costs, faults, requests });
  process.stderr.write(`conformance: --budget ${requests} requests: ${plan.leftOut.size} of ${selected.length} rules left out, about ${plan.expectedRequests} requests expected (the report names what was left out)\n`);
  return plan;
}

/** The target, and its sandbox, with no cap on the windows an effect is watched for. */
function withFullWindows(c: TargetConfig): TargetConfig {
  const full = <T extends object>(x: T): T => ({ ...x, effectWindowMs: Number.POSITIVE_INFINITY });
  return { ...full(c), ...(c.sandbox ? { sandbox: full(c.sandbox) } : {}) };
}

/** Runs the suite as the options say and writes the reports; returns the report and its comparison with the baseline. */
export async function performRun(s: RunCommandOptions, probe: ChromiumProbe = machineProbe): Promise<PerformedRun> {
  // From here to the written reports, SIGINT and SIGTERM stop the run rather than end the process (src/runner/interrupt.ts).
  const signals = watchSignals();
  try {
    return await performWatchedRun(s, probe, signals.interruption);
  } finally {
    signals.dispose();
  }
}

async function performWatchedRun(s: RunCommandOptions, probe: ChromiumProbe, interruption: Interruption): Promise<PerformedRun> {
  const rules = allRules();
  let target: TargetConfig;
  let reconfigure: () => TargetConfig;
  let stopEmulator = async () => {};
  if (s.kind === 'remote') {
    reconfigure = () => targetFromEnv(s.env, 'remote');
  } else {
    // Playwright loads while the emulator starts (src/browser/launch.ts), when a selected rule drives the browser.
    const chosen = selectionOf({ ...(s.only ? { only: s.only } : {}), ...(s.exclude ? { exclude: s.exclude } : {}) });
    if (rules.some((r) => r.requires.includes('browser') && chosen(r))) loadPlaywright().catch(() => undefined);
    const embedded = await startEmbeddedTarget({ shape: s.shape, variations: s.variations });
    // A variation whose effects come late is judged against the windows a real service gets, not the embedded
    // emulator's 1 s cap (as test/variations/ runs it).
    const full = VARIATION_TABLE.some((v) => s.variations.includes(v.name) && v.run?.fullWindows);
    reconfigure = full ? () => withFullWindows(embedded.reconfigure()) : embedded.reconfigure;
    if (s.variations.length > 0) process.stderr.write(`conformance: the embedded emulator with the allowed variation${s.variations.length > 1 ? 's' : ''} ${s.variations.join(', ')}
`);
    stopEmulator = embedded.close;
  }
  let report: Report;
  try {
    const chosen = { ...(s.only ? { only: s.only } : {}), ...(s.exclude ? { exclude: s.exclude } : {}) };
    const selection = skipReason({ ...chosen, ...(s.shard ? { shard: s.shard } : {}) }, rules);
    const budget = s.budget === undefined ? undefined : budgetFor(s, s.budget, rules.filter((r) => selection(r) === undefined));
    const skip = budget ? skipReason({ ...chosen, ...(s.shard ? { shard: s.shard } : {}), leftOut: budget.leftOut }, rules) : selection;
    // The rules of the run: those --only and --exclude leave out are not part of it (not counted, not "skipped").
    const selected = rules.filter(selectionOf(chosen));
    const plan = (t: TargetConfig): SupplyPlan => planSupply(t, { interactive: s.interactive, soak: s.profile === 'soak', rules, selected: (r) => skip(r) === undefined });
    const first = plan(reconfigure());
    const browserRules = rules.filter((r) => skip(r) === undefined && first.usesBrowser(r)).length;
    const supply = plan(await prepareBrowser({ target: first.target, browserRules, probe, reconfigure, log: (line) => process.stderr.write(`${line}\n`) }));
    target = supply.target;
    // One client for the whole run, so its rate limit covers every request, the reachability probe included.
    const client = clientFor(target);
    const masker = maskerFor(target);
    let progress: Progress | undefined;
    let lock: HeldLock | undefined;
    const runId = newRunId(s.seed);
    try {
      if (s.kind === 'remote') {
        // One run at a time: the embedded emulator is the run's own, a remote one with a control API is locked, before
        // the preflight too (another run regenerating the secret would make this one's read as refused).
        if (target.controlUrl) lock = await takeRunLock({ controlUrl: target.controlUrl, client, runId, wait: s.wait, log: (line) => process.stderr.write(`conformance: ${line}\n`) });
        // Before any rule: the URLs speak the protocol and the credentials work (exit 3 or 2 at once, nothing changed).
        const checked = await assertReachable(target, client);
        process.stderr.write(`conformance: preflight: ${checked.requests} requests, the target answers as the service and accepts the settings (${checked.checked.length} checks)\n`);
      }
      process.stderr.write(`conformance: ${selected.length === rules.length ? `${rules.length} rules` : `${selected.length} of ${rules.length} rules (--only/--exclude)`} against the ${s.kind === 'emulator' ? 'embedded emulator' : `remote target ${target.baseUrl}`}, seed ${s.seed}, ${s.runs} cases per property${s.shard ? `, shard ${s.shard.index}/${s.shard.count}` : ''}\n`);
      process.stderr.write(`conformance: ${configurationLine(configurationOf(supply), (k) => CREDENTIAL_WORDS[k as CredentialKind] ?? k)}\n`);
      if (s.kind === 'remote' && target.effectWindowMs) process.stderr.write(`conformance: asynchronous effects watched for at most ${target.effectWindowMs} ms (EFFECT_WINDOW_MS)\n`);
      for (const line of supply.openingLines()) process.stderr.write(`conformance: ${line}\n`);
      const asksOperator = target.interactive === true && rules.some((r) => skip(r) === undefined && supply.asksOperator(r));
      // After the last line written around it: a bar on a terminal owns the line it draws on (plain lines when the
      // operator may be asked something, so that the bar does not draw over the question).
      const counts = lastRequestCounts(countsKey(target.kind, s.runs));
      const expectedRequests = new Map(rules.filter((r) => skip(r) === undefined && counts.has(r.id)).map((r) => [r.id, counts.get(r.id)!]));
      progress = new Progress({
        total: selected.length, masker, expectedRequests,
        ...(target.rateLimitRps ? { rateLimitRps: target.rateLimitRps } : {}),
        ...(asksOperator ? { ci: true } : {}),
      });
      // Under a rate budget a rule takes its requests over the rate, whatever it took when it last ran (mostly waiting
      // for slots, then): the rules of most requests start first, so that none of them is left alone at the end.
      const ordered = runOrder(rules, supply, target.rateLimitRps || target.chatRateLimitRps ? counts : lastDurations(target.kind));
      report = await executeRun({
        target, supply, client, masker, rules: ordered, seed: s.seed, runs: s.runs, runId,
        ...chosen,
        ...(s.shard ? { shard: s.shard } : {}),
        ...(budget ? { leftOut: budget.leftOut } : {}),
        options: {
          profile: s.profile, strict: s.strict,
          // The spec this kit was built from: a certificate issued later from this report checks it is still that one.
          spec_sha256: specSha256(),
          ...(target.effectWindowMs ? { effect_window_ms: target.effectWindowMs } : {}),
          ...(budget ? { budget: { requests: s.budget, expected_requests: budget.expectedRequests, left_out: [...budget.leftOut.keys()] } } : {}),
        },
        onResult: progress.onResult,
        interruption,
        // The account the target says it is, which a certificate of this report binds.
        readAccounts: true,
      });
      const versionLine = versionRefusalOf(report.results);
      if (versionLine) process.stderr.write(`conformance: ${versionLine}\n`);
      keepDurations(target.kind, report.results);
      keepRequestCounts(countsKey(target.kind, s.runs), report.results);
      report = { ...report, results: inRuleOrder(report.results, rules) };
    } finally {
      progress?.end();
      await lock?.release();
      await client.close();
    }
  } finally {
    await stopEmulator();
  }
  const comparison = s.baseline ? compareWithBaseline(s.baseline, report) : undefined;
  if (comparison) {
    report = { ...report, baseline: { regressions: comparison.regressions.map((r) => r.id), fixes: comparison.fixes.map((r) => r.id), added: comparison.added.map((r) => r.id) } };
  }
  report = withRunStatements(report);
  const written = await writeReports(report, { outDir: s.outDir, paths: s.reportPaths });
  const sum = report.summary;
  process.stdout.write(
    `passed ${sum.passed}, failed ${sum.failed}, non_strict ${sum.non_strict}, informational ${sum.informational}, skipped ${sum.skipped}, errored ${sum.errored}` +
      ` (${report.request_count ?? 0} requests, seed ${s.seed})\nreports: ${written.html}\n`,
  );
  if (interruption.signal) throw new RunInterrupted(interruption.signal, s.outDir);
  if (sum.errored > 0) process.stderr.write(`warning: ${sum.errored} rule(s) could not reach a verdict (errored); see ${written.summary}\n`);
  return { report, ...(comparison ? { comparison } : {}), html: written.html, summary: written.summary };
}
