/**
 * Which places of the protocol each rule reaches (`placesOf`: src/protocol/places.ts), read from a traced run against the embedded
 * emulator: every request the run's client sends is attributed to the rule in scope (src/runner/rule-scope.ts) and
 * mapped to the places it reached. Rules do not declare where they send; what they send is the one truth of it.
 */
import type { HttpRequest, HttpResponse } from '../model/http.js';
import type { Rule } from '../model/rule.js';
import { startEmbeddedTarget } from '../targets/embedded.js';
import { HttpClient } from '../targets/http.js';
import { executeRun } from './execute.js';
import { currentRuleId } from './rule-scope.js';

/** Which places one exchange reached (src/protocol/places.ts `placesOf`; the runner knows no protocol). */
export type PlacesOf = (req: HttpRequest, res: HttpResponse) => readonly string[];

class TracingClient extends HttpClient {
  readonly reached = new Map<string, Set<string>>();

  constructor(private readonly placesOf: PlacesOf) {
    super();
  }

  override async send(req: HttpRequest): Promise<HttpResponse> {
    const rule = currentRuleId();
    const res = await super.send(req);
    if (rule !== undefined) {
      const places = this.placesOf(req, res);
      if (places.length > 0) {
        const set = this.reached.get(rule) ?? new Set<string>();
        for (const p of places) set.add(p);
        this.reached.set(rule, set);
      }
    }
    return res;
  }
}

/** Runs `rules` once against a fresh embedded emulator with `runs` cases per property: rule id → the places it reached, both sorted (a stable generated file). */
export async function traceReach(rules: readonly Rule[], options: { seed: number; runs: number; placesOf: PlacesOf }): Promise<Record<string, readonly string[]>> {
  const target = await startEmbeddedTarget({ seed: options.seed });
  const client = new TracingClient(options.placesOf);
  try {
    await executeRun({ target: target.config, rules, seed: options.seed, runs: options.runs, client });
  } finally {
    await client.close();
    await target.close();
  }
  return Object.fromEntries([...client.reached].sort(([a], [b]) => a.localeCompare(b)).map(([id, set]) => [id, [...set].sort()]));
}
