/**
 * Runs a set of rules against one target: unselected rules and rules whose capability is missing are
 * skipped with their reason; the others run a few at a time, and `exclusive` ones alone at the end
 * (they move the target's clock or change its keys).
 */
import type { RuleResult } from '../model/result.js';
import type { Rule } from '../model/rule.js';
import type { RuleEnvironment } from './run-rule.js';
import { runRule, skippedResult } from './run-rule.js';
import type { SkipReason } from './select.js';

export interface SuiteOptions {
  readonly rules: readonly Rule[];
  /** Why a rule is not run (--only, --shard), or undefined when it runs. */
  readonly skip: SkipReason;
  readonly concurrency: number;
  readonly onResult?: (result: RuleResult) => void;
}

export async function runSuite(env: RuleEnvironment, options: SuiteOptions): Promise<RuleResult[]> {
  const results = new Map<string, RuleResult>();
  const record = (r: RuleResult) => {
    results.set(r.id, r);
    options.onResult?.(r);
  };
  const selected: Rule[] = [];
  for (const rule of options.rules) {
    const reason = options.skip(rule);
    if (reason === undefined) selected.push(rule);
    else record(skippedResult(rule, reason));
  }
  const shared = selected.filter((r) => !r.exclusive);
  const exclusive = selected.filter((r) => r.exclusive);

  let next = 0;
  const worker = async () => {
    while (next < shared.length) {
      const rule = shared[next++]!;
      record(await runWithRetry(rule, env));
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(options.concurrency, shared.length)) }, worker));
  for (const rule of exclusive) record(await runWithRetry(rule, env));

  // Report order is rule order, whatever order they finished in.
  return options.rules.map((r) => results.get(r.id)!);
}

/**
 * A failure is re-run once at once with the same seed; when the re-run does not fail, the failure stands but is
 * marked `flaky` (docs/design.md §6): never hidden, and visible as unstable behaviour of the target.
 */
async function runWithRetry(rule: Rule, env: RuleEnvironment): Promise<RuleResult> {
  const first = await runRule(rule, env);
  if (first.status !== 'failed') return first;
  const again = await runRule(rule, env);
  if (again.status === 'failed') return first;
  return { ...first, flaky: true, detail: `${first.detail} (flaky: an immediate re-run with the same seed was ${again.status})` };
}
