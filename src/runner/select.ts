/**
 * Which rules a run executes. `--only`: comma-separated id globs (`oauth.token.*`) or section prefixes (`4.1`, `4`).
 * `--shard i/n`: a deterministic share of all rules (round-robin over the ids in sorted order), so n machines
 * together run every rule exactly once and `conformance merge` joins their reports.
 */
import picomatch from 'picomatch';
import type { Rule } from '../model/rule.js';
import type { TargetConfig } from '../model/target.js';
import { ConfigError } from '../errors.js';
import { SupplyPlan } from '../needs/plan.js';
import { longestFirst, type Durations } from './durations.js';

export type Selector = (rule: Rule) => boolean;

/** Why a rule is not run, or undefined when it is. */
export type SkipReason = (rule: Rule) => string | undefined;

export function selector(only: string | undefined): Selector {
  if (!only) return () => true;
  const tests = only.split(',').map((p) => p.trim()).filter(Boolean).map((pattern): Selector => {
    if (/^\d+(\.\d+)*$/.test(pattern)) return (r) => r.section === pattern || r.section.startsWith(`${pattern}.`);
    const isMatch = picomatch(pattern, { dot: true });
    return (r) => isMatch(r.id) || r.id === pattern;
  });
  return (rule) => tests.some((t) => t(rule));
}

export interface Shard {
  readonly index: number;
  readonly count: number;
}

export function parseShard(raw: string | undefined): Shard | undefined {
  if (raw === undefined) return undefined;
  const m = /^(\d+)\/(\d+)$/.exec(raw.trim());
  const index = Number(m?.[1]);
  const count = Number(m?.[2]);
  if (!m || count < 1 || index < 1 || index > count) throw new ConfigError('--shard', `must be i/n with 1 ≤ i ≤ n, got "${raw}"`);
  return { index, count };
}

export function shardSelector(shard: Shard, allIds: readonly string[]): Selector {
  const position = new Map([...allIds].sort().map((id, i) => [id, i]));
  return (rule) => (position.get(rule.id) ?? 0) % shard.count === shard.index - 1;
}

/** The rules `--only` selects and `--exclude` does not leave out (the same syntax); every rule without either. */
export function selection(options: { only?: string; exclude?: string }): Selector {
  const only = selector(options.only);
  const excluded = options.exclude ? selector(options.exclude) : () => false;
  return (rule) => only(rule) && !excluded(rule);
}

/** The skip reason of a run with these options: --only and --exclude first, then --shard, then --budget (src/runner/budget.ts). */
export function skipReason(options: { only?: string; exclude?: string; shard?: Shard; leftOut?: ReadonlyMap<string, string> }, allRules: readonly Rule[]): SkipReason {
  const only = selector(options.only);
  const excluded = options.exclude ? selector(options.exclude) : () => false;
  const inShard = options.shard ? shardSelector(options.shard, allRules.map((r) => r.id)) : () => true;
  return (rule) => {
    if (!only(rule)) return `not selected by --only ${options.only}`;
    if (excluded(rule)) return `not selected by --exclude ${options.exclude}`;
    if (!inShard(rule)) return `runs in another shard than ${options.shard!.index}/${options.shard!.count}`;
    return options.leftOut?.get(rule.id);
  };
}

/**
 * The order a run takes its rules in. Rules that wait in real time (minutes, under --profile soak) go first and are
 * not exclusive (they move no clock), so that their waits overlap the rest of the suite instead of following it;
 * the others go longest first by their `durations` in the last runs (src/runner/durations.ts), those on the
 * settings' second channel made exclusive (every such rule shares CHANNEL_ID_2, where a control API gives each its
 * own: one at a time, no rule's disconnect lands in another's connection). The report keeps rule order whatever the
 * run order (`inRuleOrder`).
 */
export function runOrder(rules: readonly Rule[], supply: SupplyPlan | TargetConfig, durations: Durations = new Map()): Rule[] {
  const plan = supply instanceof SupplyPlan ? supply : new SupplyPlan(supply);
  const arranged = longestFirst(rules, durations).map((r) => (plan.sharesSettingsChannel(r) ? { ...r, exclusive: true } : r));
  const waiting = arranged.filter((r) => plan.waitsInRealTime(r)).map((r): Rule => ({ ...r, exclusive: false }));
  if (waiting.length === 0) return arranged;
  const ids = new Set(waiting.map((r) => r.id));
  return [...waiting, ...arranged.filter((r) => !ids.has(r.id))];
}

/** Results back in the order of the rules. */
export function inRuleOrder<R extends { readonly id: string }>(results: readonly R[], rules: readonly Pick<Rule, 'id'>[]): R[] {
  const position = new Map(rules.map((r, i) => [r.id, i]));
  return [...results].sort((a, b) => (position.get(a.id) ?? Infinity) - (position.get(b.id) ?? Infinity));
}
