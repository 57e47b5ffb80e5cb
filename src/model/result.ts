/**
 * What a run produces: the report.json contract of docs/design.md §6. Field names never change meaning.
 */
import type { Level } from './rule.js';
import type { Capability } from './target.js';
import type { Finding, PropertyRun, Verdict } from './outcome.js';

/** One HTTP exchange as recorded by the runner, secrets already masked. */
export interface Exchange {
  readonly request: {
    readonly method: string;
    readonly url: string;
    readonly headers: Record<string, string>;
    readonly body?: string;
  };
  /** Absent when the request never got an answer (connection refused, timeout). */
  readonly response?: {
    readonly status: number;
    readonly headers: Record<string, string>;
    readonly body?: string;
  };
  readonly error?: string;
  /**
   * The kind of credential the request carried (`oauth-access`, `refreshed-access`, `long-lived`, `restricted-user`,
   * `channel-secret`, …), when it carried one: a rule about a kind of token shows that it sent that kind.
   */
  readonly credential?: string;
  readonly started_at: string;
  readonly duration_ms: number;
}

export interface RuleResult {
  readonly id: string;
  readonly section: string;
  readonly level: Level;
  readonly requires: readonly Capability[];
  readonly status: Verdict;
  readonly title: string;
  readonly reading?: string;
  readonly duration_ms: number;
  /** "expected … observed …", or the reason of a skip, or the error of an errored rule. */
  readonly detail: string;
  /** A curl command line that replays the deciding exchange (secrets masked). */
  readonly reproduction?: string;
  readonly findings?: readonly Finding[];
  readonly exchanges?: readonly Exchange[];
  /** Number of exchanges the rule made, also when the list itself was trimmed. */
  readonly request_count?: number;
  readonly property?: PropertyRun & { readonly replay: string };
  readonly flaky?: boolean;
  /**
   * A rule `skipped` because the target answered a step it needed otherwise than the spec states: the id of the rule
   * that judges that answer (and fails it). Such a rule is unjudged, not passed (the exit code counts it).
   */
  readonly blocked_by?: string;
}

export type Summary = Record<Verdict, number>;

/** What GET /api/v4/account at `base_url` answered with one bearer of the run: the account's id and subdomain, or why not. */
export interface TargetAccount {
  readonly base_url: string;
  /** The kind of bearer (src/needs/credentials.ts): the run's access token, LONG_LIVED_TOKEN, a restricted user's. */
  readonly credential: string;
  readonly id?: number | string;
  readonly subdomain?: string;
  /** Why the account could not be read (then no id): the run goes on, and the rules judge the account API. */
  readonly error?: string;
}

export interface Report {
  readonly suite: { readonly name: string; readonly version: string };
  readonly target: {
    readonly kind: 'emulator' | 'remote'; readonly base_url: string; readonly chat_url: string; readonly auth_url?: string; readonly control_url?: string;
    /** BASE_URL_2, the address of a second account, when the settings give it. */
    readonly base_url_2?: string;
    readonly capabilities?: readonly Capability[];
    /** The account the target says it is, per bearer of the run (src/runner/target-accounts.ts): a certificate binds it. */
    readonly accounts?: readonly TargetAccount[];
  };
  readonly seed: number;
  readonly started_at: string;
  readonly finished_at: string;
  readonly summary: Summary;
  readonly results: readonly RuleResult[];
  /** The options the run was made with (profile, only, runs, strict, shard), for the reader and for replays. */
  readonly options?: Record<string, unknown>;
  readonly request_count?: number;
  /** With --baseline: ids of rules that regressed (held, now fail), were fixed, or are new. */
  readonly baseline?: { readonly regressions: readonly string[]; readonly fixes: readonly string[]; readonly added: readonly string[] };
  /** The version of this report's form (a JSON Schema of it ships in the package); bumped when a consumer must know. */
  readonly format_version?: string;
  /** The named configuration the run was in (what the settings offered and what that changes), see docs. */
  readonly configuration?: { readonly name: string; readonly title?: string; readonly [key: string]: unknown };
  /** Which credential "the run's access token" was, and which kinds of credential the settings offered. */
  readonly credentials?: { readonly access_token: string; readonly kinds: readonly string[] };
  /** Rules --only/--exclude left out: not run, not counted in `summary`, not in `results`. */
  readonly not_selected?: readonly string[];
  /** The spec's testable statements (specs/requirements) and what this run did with each. */
  readonly statements?: readonly StatementJudgement[];
  /** True when the run stopped before every selected rule ran (a signal, a preflight stop); see `interruption`. */
  readonly incomplete?: boolean;
  readonly interruption?: { readonly signal: string; readonly at: string; readonly not_run: readonly string[]; readonly abandoned: readonly string[] };
}

/**
 * Why a statement was not judged (src/report/statements.ts): what would let its rules run (a control API, time on the
 * target's clock, an operator, the browser, the hook receiver, a setting), the run's selection (--only/--exclude, a
 * shard, --budget), rules that ran and reached no verdict, rules that did not run, or no rule yet.
 */
export type NotJudgedCause = 'control' | 'clock' | 'operator' | 'browser' | 'hook' | 'setting' | 'not-selected' | 'other-shard'
  | 'budget' | 'unjudged' | 'not-run' | 'skipped' | 'no-rule';

/** One inventory statement and this run's judgement of it. */
export interface StatementJudgement {
  readonly id: string;
  readonly section: string;
  readonly level?: string;
  /** `full`: every rule and place of it judged; `partial`: some left (see `left`); `none`: not judged (see `reason`). */
  readonly judgement: 'full' | 'partial' | 'none' | 'untestable';
  /** The rules that judged it in this run (reached a verdict). */
  readonly rules: readonly string[];
  /** The places, cases or rules the run left, with why. */
  readonly left?: readonly string[];
  /** For `none`, the one cause (most of its rules share); see `reason` and `left` for the words. */
  readonly cause?: NotJudgedCause;
  readonly reason?: string;
}

/** A rule that reached no verdict on its point: errored, or skipped because the target refused a step it needed. */
export function unjudged(r: RuleResult): boolean {
  return r.status === 'errored' || (r.status === 'skipped' && r.blocked_by !== undefined);
}

/**
 * A result of a rule the run did not select (--only, --exclude, another shard, --budget): it never ran there, which a
 * merge, a certificate and a comparison tell from a rule skipped for its own reason (a capability the target lacks).
 */
export function neverRan(r: Pick<RuleResult, 'status' | 'detail'>): boolean {
  return r.status === 'skipped' && /^(not selected by --|runs in another shard|left out by --budget)/.test(r.detail);
}

export function summarize(results: readonly RuleResult[]): Summary {
  const summary: Summary = { passed: 0, failed: 0, non_strict: 0, informational: 0, skipped: 0, errored: 0 };
  for (const r of results) summary[r.status] += 1;
  return summary;
}
