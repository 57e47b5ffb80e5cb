/**
 * Runs a set of rules against one target: unselected rules and rules whose capability is missing are skipped with
 * their reason; the others run in lanes that all start at once, each a few rules at a time:
 * - the browser lane: rules that drive the real page in Chromium, which mostly wait on the browser, so they do not
 *   hold the slots of the HTTP rules;
 * - the HTTP lane: everything else that can share the target;
 * - the exclusive lane: rules that move the target's clock or change its keys, one at a time. On a target with a
 *   sandbox (the embedded emulator) they run there, beside the others; elsewhere alone, after the other lanes.
 */
import type { RuleResult } from '../model/result.js';
import type { Rule } from '../model/rule.js';
import { secretCredentials } from '../model/target.js';
import { SupplyPlan } from '../needs/plan.js';
import { ControlClient } from '../targets/control.js';
import { requestPriority } from '../targets/http.js';
import { RunResources } from './resources.js';
import type { RuleEnvironment } from './run-rule.js';
import { runRule, skippedResult } from './run-rule.js';
import { inRuleScope } from '../rule-scope.js';
import type { SkipReason } from './select.js';
import type { Interruption } from './interrupt.js';

export interface SuiteOptions {
  readonly rules: readonly Rule[];
  /** Why a rule is not run (--only, --shard), or undefined when it runs. */
  readonly skip: SkipReason;
  /** Rules of the HTTP lane at a time. */
  readonly concurrency: number;
  /** Rules of the browser lane at a time (default 3: Chromium's processes share the machine with the rest). */
  readonly browserConcurrency?: number;
  /** The chat interface's rules and the others in lanes of their own, `concurrency / 2` each (under rate budgets). */
  readonly laneByInterface?: boolean;
  readonly onResult?: (result: RuleResult) => void;
  /**
   * A signal's request to stop (src/runner/interrupt.ts): no rule starts after it; the rules in flight get its grace,
   * then are abandoned; the rules not started are listed as not run.
   */
  readonly interruption?: Interruption;
}

/** The rules running now, with when each started, to abandon them when a signal's grace runs out. */
type InFlight = Map<Rule, number>;

export async function runSuite(env: RuleEnvironment, options: SuiteOptions): Promise<RuleResult[]> {
  const results = new Map<string, RuleResult>();
  const stop = options.interruption;
  let closed = false;
  const record = (r: RuleResult) => {
    // An abandoned rule that ends after all keeps the result it was given: the report is being written.
    if (closed) return;
    results.set(r.id, r);
    options.onResult?.(r);
  };
  const selected: Rule[] = [];
  for (const rule of options.rules) {
    const reason = options.skip(rule);
    if (reason === undefined) selected.push(rule);
    else record(skippedResult(rule, reason));
  }
  const exclusive = selected.filter((r) => r.exclusive);
  const browser = selected.filter((r) => !r.exclusive && r.requires.includes('browser'));
  const http = selected.filter((r) => !r.exclusive && !r.requires.includes('browser'));

  const sandbox = exclusive.length > 0 ? sandboxEnvironment(env) : undefined;
  const started: Started = { count: 0, inFlight: new Map(), stop };
  // Under rate budgets, the chat interface's rules and the others run in lanes of their own: in one queue, the rules
  // at its head (whichever interface they use) hold every lane while they wait for their budget's slots, and the other
  // budget idles (the chat interface sent a fifth of its rate in the gate's first two minutes).
  const httpLanes = options.laneByInterface
    ? [http.filter((r) => r.id.startsWith('chat.')), http.filter((r) => !r.id.startsWith('chat.'))].map((rules) => lane(rules, Math.ceil(options.concurrency / 2), env, record, started))
    : [lane(http, options.concurrency, env, record, started)];
  const lanes = (async () => {
    await Promise.all([
      lane(browser, options.browserConcurrency ?? 3, env, record, started),
      ...httpLanes,
      ...(sandbox ? [lane(exclusive, 1, sandbox, record, started)] : []),
    ]);
    if (!sandbox) await lane(exclusive, 1, env, record, started);
  })();
  try {
    await (stop ? Promise.race([lanes, stop.stopped.then(() => sleep(stop.graceMs))]) : lanes);
    if (stop?.signal) {
      for (const [rule, at] of started.inFlight) if (!results.has(rule.id)) record(stop.abandoned(rule, at));
      // Not told to onResult: the progress counts the rules that ran.
      for (const rule of selected) if (!results.has(rule.id)) results.set(rule.id, stop.notRun(rule));
      closed = true;
      // A rule abandoned here may still fail later, when what it used is closed: nobody waits for it.
      lanes.catch(() => undefined);
    }
  } finally {
    await sandbox?.resources?.closeAll();
  }

  // Report order is rule order, whatever order they finished in.
  return options.rules.map((r) => results.get(r.id)!);
}

/** What the lanes share: how many rules started (their requests' priority), which run now, and the stop request. */
interface Started {
  count: number;
  readonly inFlight: InFlight;
  readonly stop: Interruption | undefined;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Runs `rules` in order, `width` at a time. Each rule's requests carry the order it started in (`started`, shared by
 * the lanes): under a rate budget the rules started first are served first, so the long rules a lane starts with end
 * early instead of sharing the rate with every lane to the end.
 */
async function lane(rules: readonly Rule[], width: number, env: RuleEnvironment, record: (r: RuleResult) => void, started: Started): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < rules.length && !started.stop?.signal) {
      const rule = rules[next++]!;
      started.inFlight.set(rule, performance.now());
      const result = await requestPriority.run(started.count++, () => runWithRetry(rule, env, started.stop));
      started.inFlight.delete(rule);
      record(result);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(width, rules.length)) }, worker));
}

/**
 * The environment of the target's sandbox: its own control API client and its own run resources (a hook listener
 * registers with the instance it listens for), the run's client, masker and seed. The sandbox's credentials are
 * taught to the masker before any rule can print them.
 */
function sandboxEnvironment(env: RuleEnvironment): RuleEnvironment | undefined {
  const sandbox = env.target.sandbox;
  if (!sandbox) return undefined;
  const c = sandbox.credentials;
  for (const secret of secretCredentials(c)) env.masker.add(secret);
  const control = sandbox.controlUrl ? new ControlClient(sandbox.controlUrl, env.client, env.masker, c.clientId) : undefined;
  return { ...env, target: sandbox, plan: new SupplyPlan(sandbox), control, resources: new RunResources() };
}

/**
 * A failure is re-run once at once with the same seed; when the re-run does not fail, the failure stands but is
 * marked `flaky` (docs/design.md §6): never hidden, and visible as unstable behaviour of the target.
 */
async function runWithRetry(rule: Rule, env: RuleEnvironment, stop?: Interruption): Promise<RuleResult> {
  // Each attempt in a scope of its own: a comparison keeps the exchanges of the first, which the verdict stands on.
  const first = await inRuleScope(rule.id, 0, () => runRule(rule, env));
  if (first.status !== 'failed') return first;
  // Stopping: no re-run starts (it would not end within the grace); the failure stands, saying it was not re-run.
  if (stop?.signal) return { ...first, detail: `${first.detail} (ended after ${stop.signal}: not re-run)` };
  const again = await inRuleScope(rule.id, 1, () => runRule(rule, env));
  if (again.status === 'failed') return first;
  return { ...first, flaky: true, detail: `${first.detail} (flaky: an immediate re-run with the same seed was ${again.status})` };
}
