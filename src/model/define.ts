/**
 * Builders that keep spec files declarative: a rule is its metadata plus what to send and which named checks
 * judge the answer. Rules with several steps use `rule` with a small run function built from src/steps.
 */
import type fc from 'fast-check';
import type { Check } from '../checks/status.js';
import type { RuleContext } from '../runner/context.js';
import type { HttpResponse } from '../targets/http.js';
import type { Outcome } from './outcome.js';
import type { Capability, Level, Rule } from './rule.js';

export interface RuleMeta {
  readonly id: string;
  readonly section: string;
  readonly level: Level;
  readonly requires?: readonly Capability[];
  readonly title: string;
  readonly reading?: string;
  readonly exclusive?: boolean;
  readonly covers?: readonly string[];
  readonly creates?: string;
}

type Checks<A extends unknown[]> = readonly Check[] | ((...args: A) => readonly Check[] | Promise<readonly Check[]>);

async function resolveChecks<A extends unknown[]>(checks: Checks<A>, ...args: A): Promise<readonly Check[]> {
  return typeof checks === 'function' ? checks(...args) : checks;
}

export function rule(meta: RuleMeta, run: (t: RuleContext) => Promise<Outcome>): Rule {
  return { ...meta, requires: meta.requires ?? [], run };
}

/** One request, judged by checks. */
export function exchangeRule(meta: RuleMeta, spec: { send: (t: RuleContext) => Promise<HttpResponse>; expect: Checks<[RuleContext]> }): Rule {
  return rule(meta, async (t) => {
    const res = await spec.send(t);
    return t.outcome(t.check(res, await resolveChecks(spec.expect, t)));
  });
}

/** Generated cases, each one request judged by checks; a failing case is shrunk to a minimal counterexample. */
export function propertyRule<T>(
  meta: RuleMeta,
  spec: {
    cases: (t: RuleContext) => fc.Arbitrary<T>;
    send: (t: RuleContext, value: T) => Promise<HttpResponse>;
    expect: Checks<[RuleContext, T]>;
  },
): Rule {
  return rule(meta, (t) =>
    t.property(spec.cases(t), async (value) => {
      const res = await spec.send(t, value);
      return t.check(res, await resolveChecks(spec.expect, t, value));
    }),
  );
}
