/**
 * Rights inside one account (§1 item 3 "Tokens carry the rights of the user who granted access", §4.2 "Access follows
 * the user's rights", §5.1 item 2 "calls beyond those rights are refused"): what a list answers a token of a user who
 * may see only the deals he is responsible for. Each check judges one thing: the records all his, the answer holding
 * exactly his deals, none of another user's deals named by id.
 */
import type { Check, Judge } from '../model/check.js';
import type { HttpResponse } from '../model/http.js';
import type { Finding } from '../model/outcome.js';
import { fail, nonStrict, observed, pass } from '../model/outcome.js';
import type { RecordView } from '../protocol/answers.js';
import { showsNoneOf, showsRecord } from './isolation.js';
import { parseJson } from './json.js';
import { briefBody } from './status.js';

/** What the checks read of a read across pages (src/steps/lists.ts `ListFetch`). */
export interface RightsSeen {
  readonly ok: boolean;
  readonly finding: Finding;
  readonly records: readonly RecordView[];
  readonly ids: ReadonlySet<number>;
}

/** The records whose responsible user is shown and is not `userId`, and the count of records that do not show one. */
function beyond(records: readonly RecordView[], userId: number): { others: RecordView[]; unshown: number } {
  const others = records.filter((r) => typeof r.responsible_user_id === 'number' && r.responsible_user_id !== userId);
  const unshown = records.filter((r) => typeof r.responsible_user_id !== 'number').length;
  return { others, unshown };
}

function ownRecordsFinding(name: string, records: readonly RecordView[], userId: number, where: string): Finding {
  const { others, unshown } = beyond(records, userId);
  if (others.length > 0) {
    const shown = others.slice(0, 5).map((r) => `${r.id} (user ${String(r.responsible_user_id)})`).join(', ');
    return fail(name, `expected only deals user ${userId} is responsible for, observed ${others.length} of other users ${where}: ${shown}`);
  }
  // §2.12 leaves a record's fields unshown, so a record without responsible_user_id is recorded, not judged.
  if (unshown > 0) return observed(name, `${unshown} of ${records.length} record(s) ${where} show no responsible_user_id: not judged`);
  return pass(name, `${records.length} record(s) ${where}, each user ${userId}'s`);
}

/** Every deal read across all pages is one the user is responsible for; a read that went wrong is judged by its own finding. */
export function allOwnDeals(userId: number): Judge<RightsSeen> {
  return (f) => (f.ok ? ownRecordsFinding('only his deals', f.records, userId, 'across the pages') : f.finding);
}

/**
 * The read holds exactly `expected`, his deals as `source` shows them: none beyond (his rights) and none missing (his
 * rights include them). `expected` undefined: his deals could not all be known (a list read cut short), not judged.
 */
export function exactlyOwnDeals(expected: ReadonlySet<number> | undefined, source: string): Judge<RightsSeen> {
  const name = 'all his deals';
  return (f) => {
    if (!f.ok) return f.finding;
    if (expected === undefined) return observed(name, `not judged: ${source} was read only in part`);
    const extra = [...f.ids].filter((id) => !expected.has(id));
    const missing = [...expected].filter((id) => !f.ids.has(id));
    if (extra.length > 0) return fail(name, `expected the ${expected.size} deal(s) ${source} shows as his, observed ${extra.length} more: ${extra.slice(0, 5).join(', ')}`);
    if (missing.length > 0) return fail(name, `expected the ${expected.size} deal(s) ${source} shows as his, observed ${missing.length} missing: ${missing.slice(0, 5).join(', ')}`);
    return pass(name, `the ${expected.size} deal(s) ${source} shows as his, no other`);
  };
}

/**
 * One answer to a token of the user: 204 or a page of his deals only; a 403 refuses a call beyond his rights (§5.1
 * item 2) and passes; another 4xx refuses a valid request (non_strict); anything else fails.
 */
export function withinRights(userId: number, what: string): Check {
  const name = `${what}: only his deals`;
  return (res: HttpResponse) => {
    if (res.status === 204) return pass(name, '204, no record');
    if (res.status === 403) return pass(name, '403, refused beyond his rights');
    if (res.status >= 200 && res.status < 300) return ownRecordsFinding(name, recordsOf(res), userId, 'in the answer');
    if (res.status >= 400 && res.status < 500) return nonStrict(name, `expected his deals or none (the request is valid), observed ${res.status}${briefBody(res)}`);
    return fail(name, `expected his deals or none, observed ${res.status}${briefBody(res)}`);
  };
}

/** None of another user's deals named by id: 204, a page without them, or a 403 refusal (§5.1 item 2) pass. */
export function noneBeyondRights(ids: readonly number[]): Check {
  const none = showsNoneOf(ids, "another user's deals");
  return (res) => (res.status === 403 ? pass("no record of another user's deals", '403, refused beyond his rights') : none(res));
}

/**
 * Each of his deals named by filter[id] comes back; with none to name (`where` holds none of his), a note says that
 * half of the rule was not tried (nothing judged).
 */
export function ownDealsFound(ids: readonly number[], where: string): Check[] {
  if (ids.length === 0) return [() => observed('his own deal', `none known (${where}): not tried`)];
  return ids.map((id) => showsRecord(id, 'his own deal'));
}

/** Every record under `_embedded` of a HAL list answer, with its fields. */
function recordsOf(res: HttpResponse): RecordView[] {
  const embedded = (parseJson(res) as { _embedded?: unknown } | undefined)?._embedded;
  if (embedded === null || typeof embedded !== 'object') return [];
  return Object.values(embedded).flatMap((items) => (Array.isArray(items) ? items : []))
    .filter((r): r is RecordView => typeof (r as RecordView | null)?.id === 'number');
}
