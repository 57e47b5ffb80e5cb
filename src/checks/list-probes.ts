/**
 * Checks of the §4.2 rules that judge more than one answer of a list: a fetch across pages (`ListFetch`) that must
 * find a record, an incomplete filter[statuses] element refused rather than half-applied, and the records of the
 * `info` rules that report what §4.2 leaves open (range bounds, name matching, query on customers, several values of
 * checkbox and date fields, the list answer's shape, the paid filter feature off). What a probe observes is declared
 * here, beside the check that judges it; the steps that make the observations are in src/steps/list-probes.ts.
 */
import type { Check, Judge } from '../model/check.js';
import type { HttpResponse } from '../model/http.js';
import type { Finding } from '../model/outcome.js';
import { fail, nonStrict, observed, pass } from '../model/outcome.js';
import { arrayAt, jsonAt } from './fields.js';
import { mediaType, parseJson } from './json.js';
import { status } from './status.js';

/** What the checks read of a fetch across pages (src/steps/lists.ts `ListFetch`). */
export interface FetchSeen {
  readonly ok: boolean;
  readonly finding: Finding;
  readonly ids: ReadonlySet<number>;
}

/** A fetch's outcome in a few words: the count of records, or what came back instead. */
export function fetchOutcome(f: FetchSeen): string {
  return f.ok ? `${f.ids.size} record(s)` : f.finding.detail;
}

/** The fetch found record `id`; a fetch that went wrong is judged by its own finding. */
export function fetchFinds(id: number, what: string): Judge<FetchSeen> {
  return (f) => {
    if (!f.ok) return f.finding;
    return f.ids.has(id)
      ? pass('found', `${what} found record ${id} among ${f.ids.size}`)
      : fail('found', `expected ${what} to find record ${id}, observed ${f.ids.size} record(s) without it`);
  };
}

/**
 * Every record the fetch returned is one the unfiltered list shows; not judged when that list was cut short (a record
 * beyond the pages read is still the account's) or the fetch went wrong (its own finding says so).
 */
export function fetchWithin(listed: ReadonlySet<number>, truncated: boolean): Judge<FetchSeen> {
  return (f) => {
    if (!f.ok || truncated) return pass('within the list', 'not judged');
    const foreign = [...f.ids].filter((id) => !listed.has(id));
    return foreign.length === 0
      ? pass('within the list', `${f.ids.size} record(s), all shown by the list`)
      : fail('within the list', `expected only records the list shows, observed ${foreign.length} others (ids ${foreign.slice(0, 5).join(', ')})`);
  };
}

/** Custom-field shapes were tried on some list; none showing custom_fields_values leaves them untried (non_strict). */
export const customFieldShapesTried: Judge<ReadonlySet<string>> = (types) =>
  types.size > 0
    ? pass('custom fields', `custom-field types tried: ${[...types].sort().join(', ')}`)
    : nonStrict('custom fields', 'no record shows custom_fields_values: custom-field shapes were not tried');

/** A lead pair to build an incomplete filter[statuses] element from; without one nothing is sent (non_strict). */
export const statusPairFound: Judge<{ readonly pipeline_id: number; readonly status_id: number } | undefined> = (pair) =>
  pair
    ? pass('statuses', `built from pipeline ${pair.pipeline_id}, status ${pair.status_id}`)
    : nonStrict('statuses', 'no lead shows pipeline_id and status_id: nothing to build an element from');

/** The answer to a list filtered by an incomplete element, and, when it was accepted, the whole list it selected. */
export interface IncompleteSeen {
  readonly res: HttpResponse;
  readonly all?: FetchSeen;
}

/** What an incomplete element selects when half-applied (its one key matched), and the whole list. */
export interface IncompleteElement {
  readonly missing: 'pipeline_id' | 'status_id';
  /** The key that is there, as `pipeline_id is 7`. */
  readonly present: string;
  readonly halfApplied: ReadonlySet<number>;
  readonly whole: ReadonlySet<number>;
}

const sameIds = (a: ReadonlySet<number>, b: ReadonlySet<number>): boolean => a.size === b.size && [...a].every((id) => b.has(id));

/**
 * §4.2 "both keys required in each element": a 400 passes (another 4xx is non_strict, `status`); a 2xx that applies the
 * key that is there fails; a 2xx that ignores the element, or selects something else, is non_strict.
 */
export function incompleteElementRefused(e: IncompleteElement): Judge<IncompleteSeen> {
  return ({ res, all }) => {
    if (res.status < 200 || res.status >= 300) return status(400)(res);
    if (!all?.ok) return all?.finding ?? fail('refused', `expected a refusal (400), observed ${res.status}`);
    if (e.halfApplied.size < e.whole.size && sameIds(all.ids, e.halfApplied)) {
      return fail('refused', `expected a refusal (400), observed ${res.status} with the element half-applied: the ${all.ids.size} leads whose ${e.present}, whatever their ${e.missing}`);
    }
    if (sameIds(all.ids, e.whole)) return nonStrict('refused', `expected a refusal (400), observed ${res.status} with the element ignored (the whole list)`);
    return nonStrict('refused', `expected a refusal (400), observed ${res.status} with ${all.ids.size} leads`);
  };
}

// --- info: what §4.2 leaves open, recorded ---------------------------------------------------------------------------

/** A range [X, X] asked for a record created at X: whether it came back. Without such a record nothing was sent. */
export type RangeBoundsSeen = { readonly id: number; readonly fetch: FetchSeen } | undefined;

export const rangeBoundsObserved: Judge<RangeBoundsSeen> = (seen) => {
  if (!seen) return observed('range bounds', 'no lead shows created_at: nothing to probe with');
  const { id, fetch } = seen;
  const detail = !fetch.ok ? `from=to=X answered ${fetch.finding.detail}` : fetch.ids.has(id) ? 'inclusive: a record at exactly the bound is returned' : 'exclusive: a record at exactly the bound is not returned';
  return observed('range bounds', detail);
};

/** filter[name] with a record's exact name, a part of it and the name in another letter case. */
export type NameMatchSeen = { readonly id: number; readonly exact: FetchSeen; readonly part: FetchSeen; readonly cased: FetchSeen } | undefined;

export const nameMatchObserved: Judge<NameMatchSeen> = (seen) => {
  if (!seen) return observed('name match', 'no contact shows a name of 6 characters or more');
  const found = (f: FetchSeen) => (f.ok ? (f.ids.has(seen.id) ? 'found' : 'not found') : `answered ${f.finding.detail}`);
  return observed('name match', `exact name: ${found(seen.exact)}; a substring: ${found(seen.part)}; other letter case: ${found(seen.cased)}`);
};

/** query on /api/v4/customers, with how many records the unfiltered list shows on one page of 250. */
export interface QueryOnListSeen {
  readonly res: HttpResponse;
  readonly list: string;
  readonly seen: number;
}

export const queryOnListObserved: Judge<QueryOnListSeen> = ({ res, list, seen }) => {
  const count = (arrayAt(res, `_embedded.${list}`) ?? []).length;
  const detail = res.status >= 300 ? `refused with ${res.status}` : res.status === 204 ? 'answered 204: searched, nothing found' : count >= seen ? `ignored: ${count} record(s), as without query` : `searched: ${count} record(s) of ${seen}`;
  return observed(`query on ${list}`, detail);
};

/** Two values of one custom field together, and each alone; without such a field nothing was sent. */
export type TwoValuesSeen = { readonly both: FetchSeen; readonly singles: readonly FetchSeen[] } | undefined;

export function twoValuesObserved(type: string): Judge<TwoValuesSeen> {
  return (seen) => {
    if (!seen) return observed(type, 'no record shows such a field');
    const { both, singles } = seen;
    const unionSize = new Set(singles.flatMap((s) => [...s.ids])).size;
    return observed(type, !both.ok ? `two values: ${both.finding.detail}` : both.ids.size === unionSize ? `two values are alternatives (${both.ids.size} = union of the singles)` : `two values gave ${fetchOutcome(both)}, the singles' union ${unionSize}`);
  };
}

/** The media type and top-level keys of a list answer, in the order the body gives them. */
export const listAnswerObserved: Check = (res) => {
  const body = parseJson(res);
  const keys = body && typeof body === 'object' ? Object.keys(body).join(', ') : 'no JSON body';
  return observed('media type', `${res.status} ${mediaType(res) || 'no Content-Type'}; keys: ${keys}`);
};

/** How many records of `list` a page holds (for a limit beyond the documented 250). */
export function pageCountObserved(name: string, list: string): Check {
  return (res) => observed(name, `${res.status}, ${(arrayAt(res, `_embedded.${list}`) ?? []).length} record(s)`);
}

/** The status of an answer and whether it has a body (a filter that matches nothing: 204 with an empty body?). */
export function bodyObserved(name: string): Check {
  return (res) => observed(name, `${res.status}${res.text ? `, body of ${res.text.length} characters` : ', empty body'}`);
}

/** The account's filter flag and the answer to a filter that matches nothing (id 1), while the feature is off. */
export interface FeatureOffSeen {
  readonly flags: HttpResponse;
  readonly list: HttpResponse;
}

export const featureOffObserved: Judge<FeatureOffSeen> = ({ flags, list }) => {
  const flag = jsonAt(flags, 'is_api_filter_enabled');
  const what = list.status === 204 ? 'applied anyway (nothing matches id 1)' : list.status === 200 ? 'ignored (records returned for a filter that matches none)' : `refused with ${list.status}`;
  return observed('feature off', `account says is_api_filter_enabled=${JSON.stringify(flag)}; the filter is ${what}`);
};
