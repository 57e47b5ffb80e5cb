/**
 * Which places of the protocol each rule reaches (src/protocol/places.ts), read from a traced run against the embedded
 * emulator: every request the run's client sends is attributed to the rule in scope (src/runner/rule-scope.ts) and
 * mapped to the places it reached. Rules do not declare where they send; what they send is the one truth of it.
 */
import type { HttpRequest, HttpResponse } from '../model/http.js';
import type { Rule } from '../model/rule.js';
import { placesOf } from '../protocol/places.js';
import { startEmbeddedTarget } from '../targets/embedded.js';
import { HttpClient } from '../targets/http.js';
import { executeRun } from './execute.js';
import { ruleInScope } from './rule-scope.js';

/** Rule id → the places its requests reached, both sorted, for a stable generated file. */
export type Reach = Record<string, readonly string[]>;

class TracingClient extends HttpClient {
  readonly reached = new Map<string, Set<string>>();

  override async send(req: HttpRequest): Promise<HttpResponse> {
    const rule = ruleInScope();
    const res = await super.send(req);
    if (rule !== undefined) {
      const places = placesOf(req, res);
      if (places.length > 0) {
        const set = this.reached.get(rule) ?? new Set<string>();
        for (const p of places) set.add(p);
        this.reached.set(rule, set);
      }
    }
    return res;
  }
}

/** Runs `rules` once against a fresh embedded emulator with `runs` cases per property and returns what each reached. */
export async function traceReach(rules: readonly Rule[], options: { seed: number; runs: number }): Promise<Reach> {
  const target = await startEmbeddedTarget({ seed: options.seed });
  const client = new TracingClient();
  try {
    await executeRun({ target: target.config, rules, seed: options.seed, runs: options.runs, client });
  } finally {
    await client.close();
    await target.close();
  }
  return Object.fromEntries([...client.reached].sort(([a], [b]) => a.localeCompare(b)).map(([id, set]) => [id, [...set].sort()]));
}
