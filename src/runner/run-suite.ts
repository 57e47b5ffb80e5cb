/**
 * Runs a set of rules against one target: unselected rules and rules whose capability is missing are
 * skipped with their reason; the others run a few at a time, and `exclusive` ones alone at the end
 * (they move the target's clock or change its keys).
 */
import type { RuleResult } from '../model/result.js';
import type { Rule } from '../model/rule.js';
import type { RuleEnvironment } from './run-rule.js';
import { runRule, skippedResult } from './run-rule.js';
import type { Selector } from './select.js';

export interface SuiteOptions {
  readonly rules: readonly Rule[];
  readonly select: Selector;
  /** Why an unselected rule is skipped, e.g. "not selected by --only 4.1". */
  readonly unselectedReason: string;
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
    if (options.select(rule)) selected.push(rule);
    else record(skippedResult(rule, options.unselectedReason));
  }
  const shared = selected.filter((r) => !r.exclusive);
  const exclusive = selected.filter((r) => r.exclusive);

  let next = 0;
  const worker = async () => {
    while (next < shared.length) {
      const rule = shared[next++]!;
      record(await runRule(rule, env));
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(options.concurrency, shared.length)) }, worker));
  for (const rule of exclusive) record(await runRule(rule, env));

  // Report order is rule order, whatever order they finished in.
  return options.rules.map((r) => results.get(r.id)!);
}
