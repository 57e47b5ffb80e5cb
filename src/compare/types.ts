/**
 * What `conformance compare` produces: compare.json (and the page rendered from it). A difference is not a verdict:
 * it says where two servers answered the same requests differently, with the noise (what differs when the same
 * server is asked twice, and what the kit names as varying by nature) kept apart.
 */

/** The kinds of difference, as `--fail-on` names them. */
export const DIFFERENCE_CLASSES = ['verdict', 'exchange', 'status', 'header', 'shape', 'length', 'value', 'order', 'timing'] as const;
export type DifferenceClass = (typeof DIFFERENCE_CLASSES)[number];

export const CLASS_MEANING: Readonly<Record<DifferenceClass, string>> = {
  verdict: 'the rule came out with another verdict',
  exchange: 'a request was sent to one server only (the rule took another path)',
  status: 'another status code (the note says whether its class changed), or no answer',
  header: 'a header the spec or the RFCs it relies on name (Content-Type, Location, WWW-Authenticate, Allow, Retry-After, Cache-Control, Pragma)',
  shape: 'a member present on one side only, another JSON type, or another kind of body (empty, JSON, text)',
  length: 'an array of another length',
  value: 'another value where both were sent the same input (ids, tokens and timestamps are never compared)',
  order: 'the same members or elements in another order',
  timing: 'an answer or a rule at least seconds slower and several times slower on one side',
};

/**
 * What a difference means for the spec, by the verdicts of the rule that made the exchanges: it comes with a verdict
 * change (the rule's verdict differs between the servers: the difference is why, or beside it), it lies in a rule one
 * side breaks (failed, non-strict or errored on both: neither answer is shown to satisfy the rule), or both answers
 * satisfy every rule that judges them (the rule passed, or only recorded, on both sides): a difference the spec allows
 * (order, ids, timing, an optional member).
 */
export const STANDINGS = ['changes a verdict', 'breaks a rule', 'allowed by the spec'] as const;
export type Standing = (typeof STANDINGS)[number];

/** One side of an example, masked and clipped. */
export interface AnswerSide {
  readonly request: string;
  readonly status?: number;
  readonly content_type?: string;
  readonly body?: string;
  readonly error?: string;
  /** The differing thing itself, as this side has it. */
  readonly value: string;
}

export interface Difference {
  readonly rule: string;
  readonly endpoint: string;
  readonly class: DifferenceClass;
  /** Where in the answer: `status`, `header content-type`, `body $.messages[].text`, `exchange`, `rule`… */
  readonly place: string;
  readonly what: string;
  /** Exchanges (or runs of the rule) where it was seen, of those paired at this endpoint in this rule. */
  readonly count: number;
  readonly of: number;
  readonly primary: AnswerSide;
  readonly candidate: AnswerSide;
  readonly standing: Standing;
  /** The rule's verdict on each side. */
  readonly verdicts: { readonly primary: string; readonly candidate: string };
}

/**
 * A place that is not a finding: it differed between two runs against the primary (`secondary`), or the two calls
 * paired there were not sent the same input (`other input`: the kit made some of a rule's cases from the run itself).
 */
export interface NoisePlace {
  readonly rule: string;
  readonly endpoint: string;
  readonly class: DifferenceClass;
  readonly place: string;
  readonly source: 'secondary' | 'other input';
  readonly count: number;
  /** The primary's value, and the secondary's or (other input) the candidate's. */
  readonly example: { readonly primary: string; readonly other: string };
}

export interface TargetDescription {
  readonly label: string;
  readonly kind: 'emulator' | 'remote';
  readonly base_url: string;
}

export interface ComparisonReport {
  readonly suite: { readonly name: string; readonly version: string };
  readonly seed: number;
  readonly options: Record<string, unknown>;
  readonly started_at: string;
  readonly finished_at: string;
  readonly primary: TargetDescription;
  readonly candidate: TargetDescription;
  readonly secondary: TargetDescription;
  readonly summary: {
    readonly rules_compared: number;
    readonly exchanges_compared: number;
    readonly differences: number;
    readonly by_class: Readonly<Record<DifferenceClass, number>>;
    /** Rules whose verdict differs between primary and candidate (never noise unless the primary itself gave it). */
    readonly verdict_changes: number;
    /** Differences by what they mean for the spec. */
    readonly by_standing: Readonly<Record<Standing, number>>;
    readonly noise_places: number;
    /** Members never compared by value because the kit names them as varying by nature, with how often each was met. */
    readonly named_noise: Readonly<Record<string, number>>;
  };
  readonly differences: readonly Difference[];
  readonly by_endpoint: readonly { readonly endpoint: string; readonly differences: number; readonly classes: readonly DifferenceClass[]; readonly rules: readonly string[] }[];
  readonly noise: readonly NoisePlace[];
  /** Rules run on one side only (skipped on the other), which are compared by verdict alone. */
  readonly not_paired: readonly { readonly rule: string; readonly primary: string; readonly candidate: string }[];
}
