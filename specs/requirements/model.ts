/**
 * The requirement inventory's model: every normative or testable statement of specs/service.md (and of the RFCs and
 * HTTP rules the service relies on), each traced to the rules that check it, or saying why none can, or naming the gap a
 * rule could fill. Data only; docs/requirements.md is generated from it (src/docs/requirements.ts).
 */
import { OUTCOMES, READINGS, type Outcome, type ReadingName } from '../../src/model/readings.js';


/** Where the statement comes from: a spec table row, spec prose, an RFC the service relies on, or plain HTTP. */
export type Source = 'table' | 'prose' | `rfc6749 §${string}` | `rfc6750 §${string}` | `rfc7519 §${string}` | 'http';

/** `must`: the spec or the RFC states it; `should`: robustness; `info`: the spec leaves it open. */
export type RequirementLevel = 'must' | 'should' | 'info';

/**
 * What the target must offer for a test to observe the statement. `person`: someone acts (clicks Allow, deactivates,
 * regenerates the key), which a control API can stand in for; `clock`: time passes on the target (real waiting, or
 * the control clock); `control`: only a control API gives it (ground truth, counters, what the account shows);
 * `concurrency`: requests in parallel; `nothing`: the public endpoints alone.
 */
export type Need = 'nothing' | 'control' | 'browser' | 'hook' | 'concurrency' | 'person' | 'clock';

export const NEEDS: readonly Need[] = ['nothing', 'control', 'browser', 'hook', 'concurrency', 'person', 'clock'];

/** Themes of the work list: each gap (and each partial coverage that names one) belongs to one. */
export const GAP_THEMES = {
  'refresh-grant': 'Refresh-grant attacks',
  binding: 'Binding of codes, tokens and secrets to their client, account and channel',
  revocation: 'Revocation paths',
  races: 'Races',
  'token-format': 'Token format and the token endpoint\'s answers',
  'access-page': 'Access page security',
  'redirect-uri': 'redirect_uri variants',
  http: 'HTTP robustness per endpoint',
  'list-safety': 'List safety',
  'chat-signature': 'Chat signature per route',
  'chat-validation': 'Chat validation per route (400)',
  'scope-accounts': 'Scope and accounts',
  'edits-identity': 'Edits and identity',
  'per-message-effects': 'Per-message effects',
  history: 'History',
  'message-types': 'Message types',
  'receiver-ref-silent': 'receiver, conversation_ref_id and silent',
  'delivery-by-id': 'Delivery status and reactions by id',
  'hooks-after-disconnect': 'Hooks and disconnects',
  records: 'Open points to record (info rules)',
} as const;

export type GapTheme = keyof typeof GAP_THEMES;

export { OUTCOMES, READING_NAMES, READINGS, type Outcome, type ReadingName } from '../../src/model/readings.js';

/**
 * How the statement's wording becomes a verdict: the policy reading(s) that apply (docs/verdicts.md, "How a
 * statement's wording becomes a verdict") and, where the statement's own words decide more than the reading's
 * defaults, what each outcome class holds for it. An outcome left out takes the default of `kind`.
 */
export interface StatementReading {
  readonly kind: ReadingName;
  /** Further readings the outcomes rely on (e.g. `effect-window` for a stated effect). */
  readonly also?: readonly ReadingName[];
  readonly passed?: string;
  readonly non_strict?: string;
  readonly failed?: string;
  readonly informational?: string;
  /** The rows of the independent reading of the verdicts (reviews/verdicts-2026-11-26.md) this reading answers. */
  readonly review?: string;
}

interface Statement {
  /** `REQ-<section>-<slug>`; stable, never renumbered or reused. */
  readonly id: string;
  /** The spec section, e.g. `4.1`; `0` is the preamble before §1. */
  readonly section: string;
  /** The statement in one short sentence: a quote or a close paraphrase. */
  readonly statement: string;
  readonly source: Source;
  readonly level: RequirementLevel;
  /** What a test observes, in one line. */
  readonly observes: string;
  readonly needs: readonly [Need, ...Need[]];
  /** How its wording becomes a verdict; for an untestable statement, what a verdict would be. */
  readonly reading: StatementReading;
}

/** Checked by rules (ids of `allRules()`); `partial` names what they leave unchecked. */
export interface CoveredStatement extends Statement {
  readonly rules: readonly [string, ...string[]];
  readonly partial?: string;
  /** For a partial coverage: the work-list theme of what is left. */
  readonly theme?: GapTheme;
  readonly untestable?: never;
  readonly gap?: never;
}

/** No rule can observe it, for the reason given. */
export interface UntestableStatement extends Statement {
  readonly untestable: string;
  readonly rules?: never;
  readonly partial?: never;
  readonly gap?: never;
  readonly theme?: never;
}

/** A rule could check it and none does yet: what that rule would send and observe. */
export interface GapStatement extends Statement {
  readonly gap: string;
  readonly theme: GapTheme;
  readonly rules?: never;
  readonly partial?: never;
  readonly untestable?: never;
}

export type Requirement = CoveredStatement | UntestableStatement | GapStatement;

export type Coverage = 'covered' | 'partial' | 'gap' | 'untestable';

export const COVERAGES: readonly Coverage[] = ['covered', 'partial', 'gap', 'untestable'];

export function coverageOf(r: Requirement): Coverage {
  if (r.gap !== undefined) return 'gap';
  if (r.untestable !== undefined) return 'untestable';
  return r.partial !== undefined ? 'partial' : 'covered';
}

/** A statement's verdict per outcome class: its own words where it gives them, else its reading's defaults. */
export function outcomesOf(r: Requirement): Record<Outcome, string> {
  const defaults = READINGS[r.reading.kind];
  return Object.fromEntries(OUTCOMES.map((o) => [o, r.reading[o] ?? defaults[o]])) as Record<Outcome, string>;
}

/** Identity: a typed list, so each file reads as plain data and the compiler checks every entry. */
export function requirements(list: readonly Requirement[]): readonly Requirement[] {
  return list;
}
