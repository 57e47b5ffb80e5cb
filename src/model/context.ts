/**
 * What a rule sees while it runs. The runner implements it (src/runner/context.ts); rules, steps and builders use
 * only this interface, so nothing outside the runner depends on how exchanges are recorded or verdicts decided.
 */
import type fc from 'fast-check';
import type { Judge } from './check.js';
import type { ControlApi } from './control.js';
import type { HttpRequest, HttpResponse } from './http.js';
import type { Need, NeedAsk, NeedOffers } from './needs.js';
import type { Finding, Outcome } from './outcome.js';
import type { Credentials, TargetConfig } from './target.js';

/**
 * What the browser got from the target for a request it made outside `send` (a page's navigation): an answer, or why
 * there was none (a reset or a hang count as the target's failure, as for any exchange).
 */
export type BrowserAnswer =
  | { readonly response: HttpResponse }
  | { readonly error: string; readonly kind: 'reset' | 'timeout' | 'other' };

/** Where secrets a rule comes across are taught, so that no report or log line shows them. */
export interface SecretSink {
  add(secret: string | undefined): void;
  /** Learns the values of secret-named fields (access_token, code, ...) anywhere in a parsed value. */
  learnFrom(value: unknown): void;
  /** Remembers a bearer with its kind (`oauth-access`, `long-lived`, …): the recorder names it on each exchange that carries it. */
  addCredential?(secret: string, kind: string): void;
}

/** Access tokens from the token store, for remote targets without a control API. */
export interface AccessTokens {
  accessToken(): Promise<string>;
}

/** Something a run starts once and shares between rules (a browser, a hook receiver), closed when the run ends. */
export interface RunResource {
  close(): Promise<void>;
}

/** A request that reached the kit's hook receiver. */
export interface ReceivedHook {
  readonly method: string;
  /** Path without the query. */
  readonly path: string;
  readonly query: URLSearchParams;
  readonly receivedAt: number;
}

/** The run's receiver of hooks, registered as the integration's hook URL. */
export interface HookInbox extends RunResource {
  readonly url: string;
  /** The oldest unclaimed hook that matches, waiting up to `timeoutMs`; undefined when none came. */
  next(match: (hook: ReceivedHook) => boolean, timeoutMs: number): Promise<ReceivedHook | undefined>;
}

/**
 * How long an asynchronous effect may take, in milliseconds, as the spec or the rule's reading states it. The target
 * may cap it (TargetConfig.effectWindowMs; the embedded emulator acts before it answers).
 */
export interface EffectWindow {
  readonly within: number;
}

/** What a poll saw: the last value probed, and whether it showed the effect. */
export interface Observed<T> {
  readonly seen: boolean;
  readonly value: T;
  readonly polls: number;
  readonly waitedMs: number;
}

export interface RuleContext {
  readonly target: TargetConfig;
  readonly credentials: Credentials;
  /** The rule's own seed, derived from the run seed and the rule id. */
  readonly seed: number;
  /** Cases per property. */
  readonly runs: number;
  /** Identifies the run; everything a rule creates on a target carries it. */
  readonly runId: string;
  readonly masker: SecretSink;
  readonly tokens: AccessTokens | undefined;
  /** The control API; rules that use it declare `requires: ['control']` (without one, the rule is skipped). */
  readonly control: ControlApi;

  /**
   * What the rule needs beyond the protocol (src/needs/catalogue.ts), from the source this run supplies it from: the
   * control API, the page in Chromium, the settings, the token store, the operator or real time. When nothing can, the
   * rule is skipped, the reason naming the one setting or step that would let it run.
   */
  need<K extends Need>(kind: K, ask?: NeedAsk): Promise<NeedOffers[K]>;
  /** A resource shared by the rules of the run, created on first use and closed when the run ends. */
  resource<T extends RunResource>(key: string, create: () => Promise<T>): Promise<T>;
  /** Runs a request the browser sends to `url` at the target in a slot of its budget under the target's rate limit. */
  throttled<T>(url: string, send: () => Promise<T>): Promise<T>;
  /** Sends and records one exchange; the answer carries the request it answers. */
  send(req: HttpRequest): Promise<HttpResponse>;
  /**
   * Records an exchange the rule's browser made with the target (the consent answer, the Allow redirect), so that the
   * verdict policy judges it as any exchange the rule sent: a 5xx, a reset, a hang, a credential where none belongs.
   */
  recordBrowserExchange(req: HttpRequest, answer: BrowserAnswer): void;
  /** Applies judges to one observed thing (an answer, a redirect, a hook). */
  check<S>(subject: S, judges: readonly Judge<S>[]): Finding[];
  /** The outcome of findings (with the property run of the rule, when it ran one). */
  outcome(findings: readonly Finding[]): Outcome;
  /**
   * Runs a property: for every generated case, `body` sends what it needs and returns findings; a case with a `failed`
   * finding falsifies the property, and fast-check shrinks it to a minimal counterexample.
   */
  property<T>(arbitrary: fc.Arbitrary<T>, body: (value: T) => Promise<readonly Finding[]>): Promise<Outcome>;
  /**
   * Polls `probe` (a short interval, growing a little) until `until` holds of its value (default: the value is
   * truthy), and returns as soon as it does; after the window, the last value with `seen: false`.
   */
  eventually<T>(probe: () => Promise<T>, options: EffectWindow & { until?: (value: T) => boolean }): Promise<Observed<T>>;
  /** The run's hook receiver, started and registered as the integration's hook URL on first use. */
  hooks(): Promise<HookInbox>;
  /**
   * The first hook that matches, as soon as it arrives within the window; undefined when none did. A rule that expects
   * no hook ("hooks stop") thereby watches the whole window.
   */
  waitForHook(match: (hook: ReceivedHook) => boolean, options: EffectWindow): Promise<ReceivedHook | undefined>;
}
