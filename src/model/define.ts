/**
 * The builders that keep spec files declarative. A rule is its metadata plus what to observe and which named checks
 * judge it; the builder runs it. Which one for which shape (docs/writing-rules.md):
 *
 * - `exchangeRule`: one observation (a request and its answer; or a redirect, a hook) judged by checks;
 * - `propertyRule`: generated cases, each one observation judged by checks, a failing case shrunk;
 * - `sweepRule`: every named case once, then generated ones (`sweepThenProperty`);
 * - `scenarioRule`: a fixture set up once, then labelled steps in order, each one observation judged by checks;
 * - `rule`: a free-form run function, for what none of them fits (counted apart by test/specs/declarative.test.ts).
 *
 * Every builder takes an optional `setup` (a fixture the rule's lambdas share: a chat session, a token pair) and a
 * `label` that prefixes the findings it makes, instead of relabelling them by hand. The lambdas a spec file passes
 * build a request or pick a value; judging is left to the checks.
 */
import type fc from 'fast-check';
import type { Judge } from './check.js';
import type { RuleContext } from './context.js';
import type { HttpResponse } from './http.js';
import type { Finding, Outcome } from './outcome.js';
import { fail, observed, outcomeOf, pass } from './outcome.js';
import type { RuleDraft, RuleMeta } from './rule.js';
import { draft } from './rule.js';
import { inCase } from '../rule-scope.js';

/** Runs `work` as case `name` of the rule when one is given (the places table, src/docs/places.ts), else as it is. */
const asCase = <R>(name: string | undefined, work: () => Promise<R>): Promise<R> => (name === undefined ? work() : inCase(name, work));

/** Judges given as a list, or chosen from what the rule knows by then (a value read from the target). */
export type Judges<S, A extends unknown[]> = readonly Judge<S>[] | ((...args: A) => readonly Judge<S>[] | Promise<readonly Judge<S>[]>);

async function judgesOf<S, A extends unknown[]>(judges: Judges<S, A>, ...args: A): Promise<readonly Judge<S>[]> {
  return typeof judges === 'function' ? judges(...args) : judges;
}

/** A fixture a rule's lambdas share, made once per run of the rule (and undone by `teardown`, whatever happens). */
export interface Fixture<F> {
  readonly setup?: (t: RuleContext) => Promise<F>;
  readonly teardown?: (t: RuleContext, fixture: F) => Promise<void>;
}

async function withFixture<F>(t: RuleContext, spec: Fixture<F>, body: (fixture: F) => Promise<Outcome>): Promise<Outcome> {
  const fixture = (spec.setup ? await spec.setup(t) : undefined) as F;
  try {
    return await body(fixture);
  } finally {
    await spec.teardown?.(t, fixture);
  }
}

/** A free-form rule: `run` does whatever it needs. Prefer a builder; see docs/writing-rules.md. */
export function rule(meta: RuleMeta, run: (t: RuleContext) => Promise<Outcome>): RuleDraft {
  return draft(meta, 'closure', run);
}

export interface ExchangeSpec<S, F> extends Fixture<F> {
  /** Makes the observation: sends the request (or acts and reads the redirect, the hook). */
  readonly send: (t: RuleContext, fixture: F) => Promise<S>;
  readonly expect: Judges<S, [RuleContext, F]>;
  /** Prefixes every finding (`old secret: status 400`). */
  readonly label?: string;
  /** The case of the statement the observation is (a kind of credential): the places table asks each case to reach each place. */
  readonly case?: string;
}

/** One observation, judged by checks. */
export function exchangeRule<S = HttpResponse, F = undefined>(meta: RuleMeta, spec: ExchangeSpec<S, F>): RuleDraft {
  return draft(meta, 'exchange', (t) => withFixture(t, spec, async (f) => {
    const subject = await asCase(spec.case, () => spec.send(t, f));
    const findings = t.check(subject, await judgesOf(spec.expect, t, f));
    return t.outcome(spec.label ? findings.map((x) => relabel(spec.label!, x)) : findings);
  }));
}

export interface PropertySpec<T, S, F> extends Fixture<F> {
  readonly cases: (t: RuleContext, fixture: F) => fc.Arbitrary<T>;
  readonly send: (t: RuleContext, value: T, fixture: F) => Promise<S>;
  readonly expect: Judges<S, [RuleContext, T, F]>;
  /** Names the case in each finding (`missing user.id: status 400 …`). */
  readonly label?: (value: T) => string;
  /**
   * The case of the statement a value is, apart from where it is sent (a kind of credential, not the endpoint): the
   * places table asks each case to reach each place (src/docs/places.ts).
   */
  readonly caseOf?: (value: T) => string;
}

/** Generated cases, each one observation judged by checks; a failing case is shrunk to a minimal counterexample. */
export function propertyRule<T, S = HttpResponse, F = undefined>(meta: RuleMeta, spec: PropertySpec<T, S, F>): RuleDraft {
  return draft(meta, 'property', (t) => withFixture(t, spec, (f) =>
    t.property(spec.cases(t, f), (value) => observeCase(t, spec, value, f))));
}

async function observeCase<T, S, F>(t: RuleContext, spec: Pick<PropertySpec<T, S, F>, 'send' | 'expect' | 'label' | 'caseOf'>, value: T, f: F): Promise<Finding[]> {
  const subject = await asCase(spec.caseOf?.(value), () => spec.send(t, value, f));
  const findings = t.check(subject, await judgesOf(spec.expect, t, value, f));
  return spec.label ? findings.map((x) => relabel(spec.label!(value), x)) : findings;
}

export interface SweepSpec<T> {
  /** Every one of these is checked, every run: no boundary is left to chance. */
  readonly named: readonly T[];
  readonly check: (value: T) => Promise<readonly Finding[]>;
  /** Then generated cases, shrunk on failure; without them, the sweep alone decides. */
  readonly cases?: fc.Arbitrary<T>;
  /** Names the sweep's own finding (`5 named cases held`). */
  readonly what?: string;
  /** Notes kept beside the verdict: the named cases the run could not send, each with why. */
  readonly notes?: readonly Finding[];
}

/** Failing sweep cases shown in an outcome; the rest are counted. */
const SWEEP_SHOWN = 6;

/**
 * A case as a key: equal keys are the same case, which a sweep checks once (a named `null` body listed twice, a generated
 * case the sweep already named). Values the case only refers to (class instances, maps, functions, long arrays: a list's
 * records) count by identity, so the key stays short; undefined when the case cannot be written out (then never shared).
 */
export function caseKey(value: unknown): string | undefined {
  const ids = new Map<unknown, number>();
  const ref = (v: unknown) => {
    if (!ids.has(v)) ids.set(v, ids.size);
    return `\u0000ref${ids.get(v)}`;
  };
  try {
    return JSON.stringify(value, (_key, v: unknown) => {
      if (typeof v === 'function' || typeof v === 'symbol' || typeof v === 'bigint') return ref(v);
      if (v === undefined || v === null || typeof v !== 'object') return v;
      if (Array.isArray(v)) return v.length > 64 ? ref(v) : v;
      const proto = Object.getPrototypeOf(v) as unknown;
      return proto === Object.prototype || proto === null ? v : ref(v);
    });
  } catch {
    return undefined;
  }
}

/**
 * Every named case once (a deterministic sweep), then the property over generated cases (new values, shrunk on failure).
 * The sweep's failures decide the rule when there are any; a non_strict sweep case and every observation (an `info`
 * rule's findings) are kept in the outcome. A case equal to one already checked (caseKey) is not sent again: a named
 * duplicate is dropped, a generated one gets the answer already judged, so each distinct case costs its requests once.
 */
export async function sweepThenProperty<T>(t: RuleContext, spec: SweepSpec<T>): Promise<Outcome> {
  const what = spec.what ?? 'sweep';
  const failed: Finding[] = [];
  const observations: Finding[] = [...(spec.notes ?? [])];
  let nonStrict: Finding | undefined;
  const checked = new Map<string, Promise<readonly Finding[]>>();
  const checkOnce = (c: T): Promise<readonly Finding[]> => {
    const key = caseKey(c);
    if (key === undefined) return spec.check(c);
    let findings = checked.get(key);
    if (!findings) checked.set(key, (findings = spec.check(c)));
    return findings;
  };
  const namedKeys = new Set<string>();
  const named = spec.named.filter((c) => {
    const key = caseKey(c);
    if (key === undefined) return true;
    if (namedKeys.has(key)) return false;
    namedKeys.add(key);
    return true;
  });
  for (const c of named) {
    const findings = await checkOnce(c);
    failed.push(...findings.filter((f) => f.verdict === 'failed'));
    observations.push(...findings.filter((f) => f.verdict === 'informational'));
    nonStrict ??= findings.find((f) => f.verdict === 'non_strict');
  }
  if (failed.length > 0) {
    const more = failed.length - SWEEP_SHOWN;
    return t.outcome([...failed.slice(0, SWEEP_SHOWN), ...(more > 0 ? [fail(what, `and ${more} more failing cases`)] : [])]);
  }
  const sweep = pass(what, `${named.length} named cases held`);
  const kept = [...observations, ...(nonStrict ? [nonStrict] : [])];
  if (!spec.cases) return t.outcome([sweep, ...kept]);
  const prop = await t.property(spec.cases, checkOnce);
  return outcomeOf([sweep, ...prop.findings, ...kept], prop.property);
}

interface SweepBase<T, F> extends Fixture<F> {
  readonly named: readonly T[] | ((t: RuleContext, fixture: F) => readonly T[]);
  readonly cases?: (t: RuleContext, fixture: F) => fc.Arbitrary<T>;
  readonly what?: string;
}

/** Each case is one observation judged by checks chosen for the case (accepted or refused). */
export interface SweepExchangeSpec<T, S, F> extends SweepBase<T, F> {
  readonly send: (t: RuleContext, value: T, fixture: F) => Promise<S>;
  readonly expect: Judges<S, [RuleContext, T, F]>;
  readonly label?: (value: T) => string;
  /** As PropertySpec's: the case of the statement a value is, apart from where it is sent. */
  readonly caseOf?: (value: T) => string;
  /**
   * Why a case cannot be sent in this run (what the target's settings lack), or undefined: such a case is a note
   * beside the verdict, saying why, and the rest of the sweep still runs and decides.
   */
  readonly unsent?: (value: T, fixture: F) => string | undefined;
}

/** Each case is judged by relation checks over several observations (src/checks/filter-meaning.ts). */
export interface SweepJudgeSpec<T, F> extends SweepBase<T, F> {
  readonly judge: (t: RuleContext, value: T, fixture: F) => Promise<readonly Finding[]>;
}

/** Every named case, then generated ones (sweepThenProperty), as a rule. */
export function sweepRule<T, S = HttpResponse, F = undefined>(meta: RuleMeta, spec: SweepExchangeSpec<T, S, F> | SweepJudgeSpec<T, F>): RuleDraft {
  return draft(meta, 'sweep', (t) => withFixture(t, spec, (f) => {
    const named = typeof spec.named === 'function' ? spec.named(t, f) : spec.named;
    const check = 'judge' in spec ? (value: T) => spec.judge(t, value, f) : (value: T) => observeCase(t, spec, value, f);
    const why = (value: T) => ('unsent' in spec ? spec.unsent?.(value, f) : undefined);
    const notes = named.flatMap((value) => {
      const reason = why(value);
      return reason === undefined ? [] : [observed('label' in spec && spec.label ? `${spec.label(value)}: not sent` : 'not sent', reason)];
    });
    const sent = named.filter((value) => why(value) === undefined);
    return sweepThenProperty(t, { named: sent, check, notes, ...(spec.cases ? { cases: spec.cases(t, f) } : {}), ...(spec.what ? { what: spec.what } : {}) });
  }));
}

/** One step of a scenario: an observation and its checks, under a label. */
export interface Step<F> {
  readonly run: (t: RuleContext, fixture: F) => Promise<Finding[]>;
}

/**
 * A step: `observe` makes one observation (it may keep a value on the fixture for later steps), `expect` judges it;
 * the findings carry the label (none when it is empty: the checks' own names say enough).
 */
export function step<F, S = HttpResponse>(label: string, observe: (t: RuleContext, fixture: F) => Promise<S>, expect: Judges<S, [RuleContext, F]>, options: { readonly case?: string } = {}): Step<F> {
  return {
    async run(t, f) {
      const subject = await asCase(options.case, () => observe(t, f));
      const findings = t.check(subject, await judgesOf(expect, t, f));
      return label ? findings.map((x) => relabel(label, x)) : findings;
    },
  };
}

/** A step repeated for each item the fixture lists (each account the user can pick), each labelled by its item. */
export function eachStep<F, I, S = HttpResponse>(spec: {
  readonly items: (t: RuleContext, fixture: F) => readonly I[] | Promise<readonly I[]>;
  readonly label: (item: I) => string;
  readonly observe: (t: RuleContext, fixture: F, item: I) => Promise<S>;
  readonly expect: (item: I) => readonly Judge<S>[];
}): Step<F> {
  return {
    async run(t, f) {
      const findings: Finding[] = [];
      for (const item of await spec.items(t, f)) {
        const subject = await spec.observe(t, f, item);
        const made = t.check(subject, spec.expect(item)).map((x) => relabel(spec.label(item), x));
        findings.push(...made);
        if (made.some((x) => x.verdict === 'failed')) break;
      }
      return findings;
    },
  };
}

export interface ScenarioSpec<F> extends Fixture<F> {
  readonly steps: readonly Step<F>[];
}

/**
 * A fixture set up once, then steps in order. Later steps build on earlier ones, so the scenario stops at the first
 * step that failed (its outcome is decided); the findings of every step run are kept.
 */
export function scenarioRule<F = undefined>(meta: RuleMeta, spec: ScenarioSpec<F>): RuleDraft {
  return draft(meta, 'scenario', (t) => withFixture(t, spec, async (f) => {
    const findings: Finding[] = [];
    for (const s of spec.steps) {
      const made = await s.run(t, f);
      findings.push(...made);
      if (made.some((x) => x.verdict === 'failed')) break;
    }
    return t.outcome(findings);
  }));
}

function relabel(label: string, finding: Finding): Finding {
  return { ...finding, check: `${label}: ${finding.check}` };
}
