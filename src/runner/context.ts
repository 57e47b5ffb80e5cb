/**
 * What a rule sees while it runs: the target, a recording HTTP client, the control API when there is one,
 * and a property runner seeded per rule so that one rule's cases do not depend on which other rules ran.
 */
import fc from 'fast-check';
import type { Finding, Outcome, PropertyRun } from '../model/outcome.js';
import { SkipRule, outcomeOf } from '../model/outcome.js';
import type { Rule } from '../model/rule.js';
import type { Masker } from '../secrets/mask.js';
import type { Check } from '../checks/status.js';
import type { ControlClient } from '../targets/control.js';
import type { TargetConfig } from '../targets/config.js';
import type { HttpRequest, HttpResponse } from '../targets/http.js';
import type { TokenSource } from '../targets/token-source.js';
import { TransportError } from '../targets/http.js';
import type { Recorder } from './recorder.js';
import type { RunResource, RunResources } from './resources.js';

export interface RuleContextOptions {
  readonly rule: Rule;
  readonly target: TargetConfig;
  readonly recorder: Recorder;
  readonly masker: Masker;
  readonly control: ControlClient | undefined;
  /** The rule's own seed, derived from the run seed and the rule id. */
  readonly seed: number;
  /** Cases per property. */
  readonly runs: number;
  /** Identifies the run; everything a rule creates on a target carries it. */
  readonly runId: string;
  /** Run-wide shared resources (a browser, a hook listener). */
  readonly resources: RunResources;
  /** Access tokens of the token store, for remote targets without a control API. */
  readonly tokens?: TokenSource | undefined;
}

export class RuleContext {
  readonly target: TargetConfig;
  readonly seed: number;
  readonly runs: number;
  readonly runId: string;
  readonly masker: Masker;
  #property: PropertyRun | undefined;
  readonly #recorder: Recorder;
  readonly #control: ControlClient | undefined;
  /** Access tokens of the token store, for remote targets without a control API (see src/steps/api-token.ts). */
  readonly tokens: TokenSource | undefined;
  readonly #resources: RunResources;

  constructor(options: RuleContextOptions) {
    this.#resources = options.resources;
    this.target = options.target;
    this.seed = options.seed;
    this.runs = options.runs;
    this.runId = options.runId;
    this.masker = options.masker;
    this.#recorder = options.recorder;
    this.#control = options.control;
    this.tokens = options.tokens;
  }

  get credentials(): TargetConfig['credentials'] {
    return this.target.credentials;
  }

  /** The control API. Rules that use it declare `requires: ['control']`, so it is there when they run. */
  get control(): ControlClient {
    if (!this.#control) throw new SkipRule('the target has no control API (CONTROL_URL is not set)');
    return this.#control;
  }

  /** A resource shared by the rules of the run, created on first use and closed when the run ends. */
  resource<T extends RunResource>(key: string, create: () => Promise<T>): Promise<T> {
    return this.#resources.get(key, create);
  }

  /** Waits until one more request may go to the target under its rate limit (for requests a browser sends). */
  throttle(): Promise<void> {
    return this.#recorder.slot();
  }

  send(req: HttpRequest): Promise<HttpResponse> {
    return this.#recorder.send(req);
  }

  /** Applies checks to one response. */
  check(res: HttpResponse, checks: readonly Check[]): Finding[] {
    return checks.map((c) => c(res));
  }

  /** A rule whose single exchange decides it. */
  outcome(findings: readonly Finding[]): Outcome {
    return outcomeOf(findings, this.#property);
  }

  /**
   * Runs a property: for every generated case, `body` sends what it needs and returns findings; a case with a
   * `failed` finding falsifies the property, and fast-check shrinks it to a minimal counterexample.
   * Transport errors are not falsifications: they end the rule as `errored`.
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
}
