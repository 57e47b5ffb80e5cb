/**
 * The runner's implementation of what a rule sees (src/model/context.ts): the target, a recording HTTP client, the
 * control API when there is one, a property runner seeded per rule so that one rule's cases do not depend on which
 * other rules ran, and the waits for asynchronous effects under the target's window.
 */
import fc from 'fast-check';
import type { Judge } from '../model/check.js';
import type { AccessTokens, BrowserAnswer, EffectWindow, HookInbox, Observed, ReceivedHook, RuleContext, RunResource, SecretSink } from '../model/context.js';
import type { ControlApi } from '../model/control.js';
import type { HttpRequest, HttpResponse } from '../model/http.js';
import type { Finding, Outcome, PropertyRun } from '../model/outcome.js';
import { outcomeOf } from '../model/outcome.js';
import type { Need, NeedAsk, NeedOffers } from '../model/needs.js';
import type { Rule } from '../model/rule.js';
import type { TargetConfig } from '../model/target.js';
import { SkipRule, TransportError } from '../errors.js';
import { effectWindowMs, poll } from './effects.js';
import type { Recorder } from './recorder.js';
import type { RunResources } from './resources.js';

export interface RunContextOptions {
  readonly rule: Rule;
  readonly target: TargetConfig;
  readonly recorder: Recorder;
  readonly masker: SecretSink;
  readonly control: ControlApi | undefined;
  /** The rule's own seed, derived from the run seed and the rule id. */
  readonly seed: number;
  /** Cases per property. */
  readonly runs: number;
  /** Identifies the run; everything a rule creates on a target carries it. */
  readonly runId: string;
  /** Run-wide shared resources (a browser, a hook receiver). */
  readonly resources: RunResources;
  /** Access tokens of the token store, for remote targets without a control API. */
  readonly tokens?: AccessTokens | undefined;
  /** The run's hook receiver, made on first use. */
  readonly hooks: () => Promise<HookInbox>;
  /** Supplies the rule's needs as the run's plan says (src/needs/dispatch.ts). */
  readonly needs: <K extends Need>(t: RuleContext, kind: K, ask?: NeedAsk) => Promise<NeedOffers[K]>;
}

export class RunContext implements RuleContext {
  readonly target: TargetConfig;
  readonly seed: number;
  readonly runs: number;
  readonly runId: string;
  readonly masker: SecretSink;
  readonly tokens: AccessTokens | undefined;
  #property: PropertyRun | undefined;
  readonly #recorder: Recorder;
  readonly #control: ControlApi | undefined;
  readonly #resources: RunResources;
  readonly #hooks: () => Promise<HookInbox>;
  readonly #needs: RunContextOptions['needs'];

  constructor(options: RunContextOptions) {
    this.#resources = options.resources;
    this.target = options.target;
    this.seed = options.seed;
    this.runs = options.runs;
    this.runId = options.runId;
    this.masker = options.masker;
    this.#recorder = options.recorder;
    this.#control = options.control;
    this.tokens = options.tokens;
    this.#hooks = options.hooks;
    this.#needs = options.needs;
  }

  get credentials(): TargetConfig['credentials'] {
    return this.target.credentials;
  }

  get control(): ControlApi {
    if (!this.#control) throw new SkipRule('the target has no control API (CONTROL_URL is not set)');
    return this.#control;
  }

  need<K extends Need>(kind: K, ask?: NeedAsk): Promise<NeedOffers[K]> {
    return this.#needs(this, kind, ask);
  }

  resource<T extends RunResource>(key: string, create: () => Promise<T>): Promise<T> {
    return this.#resources.get(key, create);
  }

  throttled<T>(url: string, send: () => Promise<T>): Promise<T> {
    return this.#recorder.inSlot(url, send);
  }

  send(req: HttpRequest): Promise<HttpResponse> {
    return this.#recorder.send(req);
  }

  recordBrowserExchange(req: HttpRequest, answer: BrowserAnswer): void {
    this.#recorder.observe(req, answer);
  }

  check<S>(subject: S, judges: readonly Judge<S>[]): Finding[] {
    return judges.map((judge) => judge(subject));
  }

  outcome(findings: readonly Finding[]): Outcome {
    return outcomeOf(findings, this.#property);
  }

  /**
   * Transport errors are not falsifications: they end the property at once and reach the runner, whose verdict
   * policy decides (docs/verdicts.md).
   */
  async property<T>(arbitrary: fc.Arbitrary<T>, body: (value: T) => Promise<readonly Finding[]>): Promise<Outcome> {
    let transport: TransportError | undefined;
    let worstNonStrict: Finding | undefined;
    let lastFailure: readonly Finding[] = [];
    const predicate = async (value: T): Promise<boolean> => {
      try {
        const findings = await body(value);
        const failed = findings.filter((f) => f.verdict === 'failed');
        if (failed.length > 0) {
          lastFailure = findings;
          return false;
        }
        worstNonStrict ??= findings.find((f) => f.verdict === 'non_strict');
        return true;
      } catch (err) {
        if (err instanceof TransportError) transport ??= err;
        throw err;
      }
    };
    const details = await fc.check(fc.asyncProperty(arbitrary, predicate), { seed: this.seed, numRuns: this.runs, endOnFailure: false });
    if (transport) throw transport;
    if (details.errorInstance && !details.failed) throw details.errorInstance;
    const property: PropertyRun = details.failed
      ? { seed: details.seed, runs: details.numRuns, path: details.counterexamplePath ?? undefined, counterexample: details.counterexample?.[0], shrinks: details.numShrinks }
      : { seed: details.seed, runs: details.numRuns };
    this.#property = property;
    if (details.failed) {
      if (details.errorInstance && lastFailure.length === 0) throw details.errorInstance;
      return outcomeOf(lastFailure, property);
    }
    const summary = { check: 'property', verdict: 'passed' as const, detail: `${details.numRuns} generated cases held` };
    return outcomeOf(worstNonStrict ? [summary, worstNonStrict] : [summary], property);
  }

  eventually<T>(probe: () => Promise<T>, options: EffectWindow & { until?: (value: T) => boolean }): Promise<Observed<T>> {
    return poll(probe, options.until ?? Boolean, effectWindowMs(this.target, options.within));
  }

  hooks(): Promise<HookInbox> {
    return this.#hooks();
  }

  async waitForHook(match: (hook: ReceivedHook) => boolean, options: EffectWindow): Promise<ReceivedHook | undefined> {
    return (await this.#hooks()).next(match, effectWindowMs(this.target, options.within));
  }
}
