/**
 * Multi-request steps of the list rules (§4.2): fetching a list across all its pages by following `_links.next`,
 * reading the paid filter flag, the records a target shows without a filter, and the ground truth of a control API.
 * The list shape follows the live service (docs/field-notes.md: HAL, `_embedded.<list>[]`, `_links.next`, 204 when empty).
 */
import { parseJson } from '../checks/json.js';
import { briefBody } from '../checks/status.js';
import { openRangeRefused } from '../checks/filter-meaning.js';
import type { RecordView } from '../protocol/answers.js';
import type { Finding, Outcome } from '../model/outcome.js';
import { fail, pass } from '../model/outcome.js';
import { accountFlagsRequest, describeFilter, encodeFilter, listRequest, type Clause, type Encoding, type ListName } from '../protocol/filters.js';
import type { RuleContext } from '../model/context.js';
import { Precondition, SkipRule } from '../errors.js';
import type { HttpResponse } from '../model/http.js';
import type { RuleDraft } from '../model/rule.js';
import { apiToken } from './api-token.js';

/** Records per page the steps ask for: the most the live service gives (docs/field-notes.md). */
export const PAGE_LIMIT = 250;
/** A fetch stops after this many pages (100,000 records at 250 a page) and says it was cut short. */
export const MAX_PAGES = 400;

export interface ListFetch {
  /** A 2xx on every page. When false, `finding` says what came back instead. */
  readonly ok: boolean;
  readonly finding: Finding;
  readonly records: readonly RecordView[];
  readonly ids: ReadonlySet<number>;
  /** Ids that appeared on more than one page. */
  readonly duplicates: readonly number[];
  readonly pages: number;
  readonly truncated: boolean;
  readonly statuses: readonly number[];
}

export interface PageRead {
  readonly res: HttpResponse;
  readonly records: readonly RecordView[] | undefined;
  readonly next: string | undefined;
  /** The answer carries `_links` (HAL): its `next` says whether more pages follow. Without, pages are asked by number. */
  readonly linked: boolean;
}

/** One page: 204 is an empty page; a 2xx without `_embedded.<list>` cannot be read and ends the rule as errored. */
export function readPage(res: HttpResponse, list: ListName): PageRead {
  if (res.status === 204) return { res, records: [], next: undefined, linked: true };
  if (res.status < 200 || res.status >= 300) return { res, records: undefined, next: undefined, linked: true };
  const body = parseJson(res) as { _embedded?: Record<string, unknown>; _links?: { next?: { href?: unknown } } } | undefined;
  const records = body?._embedded?.[list];
  if (!Array.isArray(records)) throw new Precondition(`the ${list} list answered ${res.status} without an _embedded.${list} array${briefBody(res)}`);
  const href = body?._links?.next?.href;
  const linked = body?._links !== null && typeof body?._links === 'object';
  return { res, records: records.filter((r): r is RecordView => typeof (r as RecordView)?.id === 'number'), next: typeof href === 'string' && records.length > 0 ? href : undefined, linked };
}

/**
 * Answers already fetched by a rule, by list and query: a rule asks the same question many times (the single values
 * of a union, one side of an intersection) and the data does not change while it runs, so it asks the target once.
 */
const memo = new WeakMap<RuleContext, Map<string, Promise<ListFetch>>>();

/**
 * Answers of the whole run that came back whole (a 2xx on every page), by target, bearer, list and query: one read of a
 * filter's answer serves every rule that asks it (a relation's single value, another's sweep case, a shape), as the
 * universes are shared (src/steps/filter-universe.ts: no rule of the suite changes list data while it runs). An answer
 * that went wrong is never shared: each rule that asks sees the 5xx, the reset or the refusal itself, in its own
 * exchanges, and is judged on it.
 */
let runKey = '';
const shared = new Map<string, Promise<ListFetch>>();

/** The whole list for a query: the first page, then every `_links.next`, as a client would follow them. */
export function fetchAll(t: RuleContext, bearer: string, list: ListName, query: string, options: { limit?: number; maxPages?: number } = {}): Promise<ListFetch> {
  let answers = memo.get(t);
  if (!answers) memo.set(t, (answers = new Map()));
  const key = `${bearer}|${list}?${query}|${options.limit ?? PAGE_LIMIT}|${options.maxPages ?? MAX_PAGES}`;
  let answer = answers.get(key);
  if (!answer) answers.set(key, (answer = sharedFetch(t, key, () => fetchPages(t, bearer, list, query, options))));
  return answer;
}

function sharedFetch(t: RuleContext, key: string, fetch: () => Promise<ListFetch>): Promise<ListFetch> {
  const run = `${t.runId}|${t.target.baseUrl}`;
  if (run !== runKey) { shared.clear(); runKey = run; }
  const known = shared.get(key);
  if (known) return known.then((f) => (f.ok ? f : fetch()), () => fetch());
  const answer = fetch();
  shared.set(key, answer);
  answer.then((f) => { if (!f.ok) shared.delete(key); }, () => shared.delete(key));
  return answer;
}

async function fetchPages(t: RuleContext, bearer: string, list: ListName, query: string, options: { limit?: number; maxPages?: number }): Promise<ListFetch> {
  const limit = options.limit ?? PAGE_LIMIT;
  const maxPages = options.maxPages ?? MAX_PAGES;
  const first = listRequest(t.target, bearer, list, [query, `limit=${limit}`].filter(Boolean).join('&'));
  const records: RecordView[] = [];
  const ids = new Set<number>();
  const duplicates: number[] = [];
  const statuses: number[] = [];
  let url: string | undefined = first.url;
  let pages = 0;
  let pageSize = 0;
  while (url !== undefined && pages < maxPages) {
    const page = readPage(await t.send({ ...first, url }), list);
    pages += 1;
    statuses.push(page.res.status);
    if (page.records === undefined) {
      const finding = fail('list answered', `expected a 2xx answer to GET /api/v4/${list}?${decodeURIComponent(query)}${pages > 1 ? ` (page ${pages}, from _links.next)` : ''}, observed ${page.res.status}${briefBody(page.res)}`);
      return { ok: false, finding, records, ids, duplicates, pages, truncated: false, statuses };
    }
    let fresh = 0;
    for (const r of page.records) {
      if (ids.has(r.id)) duplicates.push(r.id);
      else { ids.add(r.id); records.push(r); fresh += 1; }
    }
    if (pages === 1) pageSize = page.records.length;
    // Without HAL links (the list body is "not shown", §4.2), the next page is asked by number while pages come full.
    const more = !page.linked && fresh > 0 && page.records.length >= pageSize;
    // A relative href (HAL and RFC 8288 allow a URI reference) is resolved against the page's own URL.
    url = page.next !== undefined ? new URL(page.next, url).href : more ? `${first.url}&page=${pages + 1}` : undefined;
  }
  const truncated = url !== undefined;
  return { ok: true, finding: pass('list answered', `${records.length} record(s) in ${pages} page(s)`), records, ids, duplicates, pages, truncated, statuses };
}

/**
 * A filtered fetch in one encoding. A filter holding an open range (only [from] or only [to]) that is refused with a
 * 4xx is recorded, not failed: §4.2 shows a range with both bounds ("`Range` = `from`/`to` is allowed"), an open one is
 * not stated (K18). The fetch stays not ok, so the rule judges nothing more of it.
 */
export async function fetchFiltered(t: RuleContext, bearer: string, list: ListName, clauses: readonly Clause[], encoding?: Encoding, options?: { limit?: number }): Promise<ListFetch> {
  const f = await fetchAll(t, bearer, list, encodeFilter(clauses, encoding), options);
  const last = f.statuses.at(-1) ?? 0;
  if (f.ok || !hasOpenRange(clauses) || last < 400 || last >= 500) return f;
  return { ...f, finding: openRangeRefused(`${list} filtered by ${describeFilter(clauses)}`, last) };
}

/** A range clause with only one bound. */
export function hasOpenRange(clauses: readonly Clause[]): boolean {
  return clauses.some((c) => (c.kind === 'range' || c.kind === 'cf-range') && (c.from === undefined || c.to === undefined));
}

/**
 * A bearer for list rules, after checking the paid filter feature (§1.5: "an optional paid function ... enabled in
 * the account settings"): when `GET /api/v4/account?with=is_api_filter_enabled` says false the rule is skipped with
 * that reason; a target that does not answer the flag is assumed to have the feature. Once per run: the list rules
 * only read with it, and a token and a flag read per rule would spend the account API's budget on the same answer
 * (a feature found off is asked again by the next rule, as a failed run resource is).
 */
export async function filterBearer(t: RuleContext): Promise<string> {
  return (await t.resource('filter bearer', async () => ({ bearer: await checkedFilterBearer(t), close: async () => {} }))).bearer;
}

async function checkedFilterBearer(t: RuleContext): Promise<string> {
  const bearer = await apiToken(t);
  const res = await t.send(accountFlagsRequest(t.target, bearer));
  const flag = (parseJson(res) as { is_api_filter_enabled?: unknown } | undefined)?.is_api_filter_enabled;
  if (res.status === 200 && flag === false) {
    throw new SkipRule('the paid filter feature is off on this account (GET /api/v4/account?with=is_api_filter_enabled answers false; §1 item 5)');
  }
  return bearer;
}

/** Pages of the unfiltered list the read-only rules read at most: 5,000 records, whatever the account holds. */
export const VISIBLE_PAGES = 20;

/**
 * What the target shows of a list without a filter (the universe of the read-only rules), up to VISIBLE_PAGES pages:
 * completeness is judged on the records seen (each is a real record), ⊆ unfiltered only when the whole list was seen.
 */
export async function visibleRecords(t: RuleContext, bearer: string, list: ListName): Promise<ListFetch> {
  const all = await fetchAll(t, bearer, list, '', { maxPages: VISIBLE_PAGES });
  if (!all.ok) throw new ListRefused(fail(`${list} without a filter`, `the unfiltered ${list} list could not be read (§4.2 "Filtering is available for four lists"): ${all.finding.detail}`));
  return all;
}

/**
 * The unfiltered list a read-only rule filters was refused (a 404, a 401): a set-up step refused where the spec demands
 * success, so the target's failure in every rule that reads it (reading `precondition`, K22), not an error of the kit.
 * A rule that does not catch it still ends errored, as any Precondition.
 */
export class ListRefused extends Precondition {
  constructor(readonly finding: Finding) {
    super(finding.detail);
  }
}

/** A built read-only list rule (a sweep over the visible lists): a refused unfiltered list ends it `failed` (K22). */
export function readsLists(rule: RuleDraft): RuleDraft {
  return { ...rule, run: readingLists(rule.run) };
}

/** A read-only list rule's body: a refused unfiltered list ends it `failed` with that finding (K22). */
export function readingLists(run: (t: RuleContext) => Promise<Outcome>): (t: RuleContext) => Promise<Outcome> {
  return async (t) => {
    try {
      return await run(t);
    } catch (err) {
      if (err instanceof ListRefused) return t.outcome([err.finding]);
      throw err;
    }
  };
}

/** Ground truth through the control API (docs/control-api.md `GET /_control/lists/<list>`). */
export async function groundTruth(t: RuleContext, list: ListName): Promise<readonly RecordView[]> {
  const body = await t.control.call<{ records?: RecordView[] }>('GET', `/lists/${list}`);
  if (!Array.isArray(body?.records)) throw new Precondition(`the control API gave no ground truth for ${list}`);
  return body.records;
}

export function filteredName(list: ListName, clauses: readonly Clause[]): string {
  return `${list} filtered by ${describeFilter(clauses)}`;
}
