/**
 * The servers a comparison runs against: the embedded emulator (a fresh instance for each run, its world made from
 * the comparison's seed, with the faults and variations asked for) or a remote server an env file describes (the
 * same server for each run, reached and supplied as `conformance run` reaches and supplies it: its rate limit, its
 * token store, its supply plan).
 */
import type { Rule } from '../model/rule.js';
import type { TargetConfig } from '../model/target.js';
import { planSupply } from '../needs/plan.js';
import { clientFor } from '../runner/execute.js';
import { startEmbeddedTarget } from '../targets/embedded.js';
import { targetFromEnv, type Env } from '../targets/from-env.js';
import { assertReachable } from '../targets/reachability.js';
import type { TargetSource } from './compare.js';

export interface EmbeddedSourceOptions {
  readonly seed: number;
  readonly faults?: readonly string[];
  readonly variations?: readonly string[];
  /** `main` in tests, as the fault tests run it; the default is the emulator's own worker thread. */
  readonly thread?: 'main' | 'worker';
  /** Lifts the embedded emulator's cap on effect windows (a variation whose effects come late, as test/variations does). */
  readonly fullWindows?: boolean;
  readonly label?: string;
}

export function embeddedSource(o: EmbeddedSourceOptions): TargetSource {
  const switched = [...(o.faults ?? []).map((f) => `fault ${f}`), ...(o.variations ?? []).map((v) => `variation ${v}`)];
  return {
    label: o.label ?? `the embedded emulator${switched.length > 0 ? ` (${switched.join(', ')})` : ''}`,
    start: async () => {
      const target = await startEmbeddedTarget({ seed: o.seed, faults: o.faults ?? [], variations: o.variations ?? [], ...(o.thread ? { thread: o.thread } : {}) });
      const full = <T extends TargetConfig>(c: T): T => (o.fullWindows ? { ...c, effectWindowMs: Number.POSITIVE_INFINITY } : c);
      const { sandbox } = target.config;
      const config: TargetConfig = { ...full(target.config), ...(sandbox ? { sandbox: full(sandbox) } : {}) };
      return { config, close: () => target.close() };
    },
  };
}

/** A remote server: checked once (its settings, that it answers) before the first run; no operator is asked anything. */
export function remoteSource(env: Env, label: string, plan: { readonly rules: readonly Rule[]; readonly selected: (r: Rule) => boolean }): TargetSource {
  const target = targetFromEnv(env, 'remote');
  let reached = false;
  return {
    label: `${label} (${target.baseUrl})`,
    start: async () => {
      if (!reached) {
        const client = clientFor(target);
        try {
          await assertReachable(target, client);
        } finally {
          await client.close();
        }
        reached = true;
      }
      const supply = planSupply(target, { interactive: false, soak: false, rules: plan.rules, selected: plan.selected });
      return { config: supply.target, supply, close: async () => {} };
    },
  };
}
