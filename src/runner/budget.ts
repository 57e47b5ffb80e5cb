/**
 * `--budget`: a CI gate that must fit in a number of requests (at 7 a second, requests are a staging run's time)
 * chooses the rules that catch the most per request, and says which it left out. A rule's cost is the requests it
 * sent in its last run; its worth is what it catches: each fault proven to fail it (docs/faults.md) counts in full when
 * the rule alone catches it and shared with the other rules that catch it, and a rule's level adds a little (a `must`
 * rule guards a stated behaviour even where no fault breaks it). Rules are taken by worth per request, best first,
 * while they fit; a rule whose cost is not known yet is taken (its cost is learnt for the next run).
 */

export interface BudgetRule {
  readonly id: string;
  readonly level: 'must' | 'should' | 'info';
}

export interface BudgetInput {
  readonly rules: readonly BudgetRule[];
  /** Requests each rule sent last time, by id. */
  readonly costs: ReadonlyMap<string, number>;
  /** The rule ids each fault is proven to fail. */
  readonly faults: readonly (readonly string[])[];
  /** At most this many requests. */
  readonly requests: number;
}

export interface BudgetPlan {
  /** Why each left-out rule was left out, by id. */
  readonly leftOut: ReadonlyMap<string, string>;
  /** The requests the kept rules sent last time (rules of unknown cost count 0). */
  readonly expectedRequests: number;
}

const LEVEL_WORTH = { must: 1, should: 0.5, info: 0 } as const;

/** What each rule catches: its share of every fault that fails it, plus its level's worth. */
export function worthOf(rules: readonly BudgetRule[], faults: readonly (readonly string[])[]): Map<string, number> {
  const worth = new Map<string, number>(rules.map((r) => [r.id, LEVEL_WORTH[r.level]]));
  for (const caughtBy of faults) {
    const catching = caughtBy.filter((id) => worth.has(id));
    for (const id of catching) worth.set(id, worth.get(id)! + 1 / catching.length);
  }
  return worth;
}

export function planBudget(input: BudgetInput): BudgetPlan {
  const worth = worthOf(input.rules, input.faults);
  const cost = (id: string) => input.costs.get(id);
  // Free and unknown-cost rules first (they cost nothing or are learnt now), then by worth per request.
  const ranked = [...input.rules].sort((a, b) => {
    const ca = cost(a.id) ?? 0;
    const cb = cost(b.id) ?? 0;
    if (ca === 0 || cb === 0) return ca - cb;
    return worth.get(b.id)! / cb - worth.get(a.id)! / ca;
  });
  let spent = 0;
  const leftOut = new Map<string, string>();
  for (const r of ranked) {
    const c = cost(r.id) ?? 0;
    if (spent + c <= input.requests) {
      spent += c;
      continue;
    }
    leftOut.set(r.id, `left out by --budget ${input.requests} requests: about ${c} requests for a worth of ${worth.get(r.id)!.toFixed(2)} (faults it catches, shared with the rules that also catch them)`);
  }
  return { leftOut, expectedRequests: spent };
}

/** `2000` (requests), `300s` or `5m` (time at the rate limit); throws a message for a value that is neither. */
export function parseBudget(raw: string, rateLimitRps: number | undefined): number {
  const m = /^(\d+)(s|m)?$/.exec(raw.trim());
  if (!m) throw new Error(`must be a number of requests (2000) or a duration (300s, 5m), got "${raw}"`);
  const n = Number(m[1]);
  if (n < 1) throw new Error(`must be at least 1, got "${raw}"`);
  if (!m[2]) return n;
  if (!rateLimitRps) throw new Error(`a duration needs RATE_LIMIT_RPS, to turn time into requests (or give a number of requests), got "${raw}"`);
  return Math.floor(n * (m[2] === 'm' ? 60 : 1) * rateLimitRps);
}
