/**
 * Rights inside one account: "Tokens carry the rights of the user who granted access" (§1 item 3), "Access follows the
 * user's rights" (§4.2), "calls beyond those rights are refused" (§5.1 item 2). A user restricted to his own deals
 * (src/emulator/world.ts) sees the records he is responsible for in each of the four lists (deals, contacts,
 * companies, customers), by list, by filter and by search alike; every list of an unrestricted user is whole
 * (docs/emulator.md, "Users with rights").
 */
import type { EmulatorContext } from '../context.js';
import { userById } from '../world.js';
import type { ListName } from './data.js';
import { integerValue, type Test } from './engine.js';
import type { ListTable } from './table.js';

/** What one list request asks, as far as the faults that skip the rights on one path tell paths apart. */
export interface Asked {
  readonly page: number;
  /** `filter[id]` names the records (the id lookup, not a scan). */
  readonly byId: boolean;
  /** The `filter` object as parsed, when the paid filter feature applies it. */
  readonly filter: unknown;
  /** A `query` search string is applied. */
  readonly search: boolean;
}

/** The records of `list` the user may see, as a row test; undefined when he may see every record. */
export function rightsTest(ctx: EmulatorContext, list: ListName, table: ListTable, userId: number | undefined, asked: Asked): Test | undefined {
  if (userId === undefined) return undefined;
  const user = userById(ctx.world, userId);
  if (user?.deals !== 'own' || skipped(ctx, asked) || unrestricted(ctx, list)) return undefined;
  // Only for the fault: the rights read as a deny-all for a user who is not an administrator.
  if (ctx.faults.isOn('rights-restricted-user-sees-nothing')) return () => false;
  const responsible = table.num.responsible_user_id;
  return (i) => responsible[i] === user.id;
}

/** Only for the `rights-<list>-unrestricted` faults: one list that applies no rights (they were written for deals). */
function unrestricted(ctx: EmulatorContext, list: ListName): boolean {
  const f = ctx.faults;
  return (list === 'contacts' && f.isOn('rights-contacts-unrestricted')) || (list === 'companies' && f.isOn('rights-companies-unrestricted'))
    || (list === 'customers' && f.isOn('rights-customers-unrestricted'));
}

/** Only for the faults: one path of the list that forgets the rights. */
function skipped(ctx: EmulatorContext, asked: Asked): boolean {
  const f = ctx.faults;
  if (f.isOn('rights-restricted-user-sees-every-lead')) return true;
  // The id lookup reads the records straight from the primary key, past the rights' condition.
  if (asked.byId && f.isOn('rights-filter-id-ignores-rights')) return true;
  // The rights are a condition of the first query; the page links re-run it without.
  if (asked.page > 1 && f.isOn('rights-first-page-only')) return true;
  // The rights are a default filter[responsible_user_id], which the client's own parameter replaces.
  const own = asked.filter !== null && typeof asked.filter === 'object' && Object.hasOwn(asked.filter, 'responsible_user_id');
  if (own && f.isOn('rights-replaced-by-responsible-filter')) return true;
  // The search runs over the account's whole index, which knows no rights.
  return asked.search && f.isOn('rights-search-ignores-rights');
}

/**
 * Only for the `rights-beyond-refused-403` variation: the request names what the user may not see, filter[id] of a
 * deal (row in `candidates`) his rights exclude or filter[responsible_user_id] of another user (read as the filter
 * reads it, so `=0<his id>` names him).
 */
export function namesBeyondRights(rights: Test, userId: number, candidates: readonly number[] | undefined, filter: unknown): boolean {
  if (candidates?.some((i) => !rights(i))) return true;
  const named = filter !== null && typeof filter === 'object' ? (filter as Record<string, unknown>).responsible_user_id : undefined;
  const values = typeof named === 'string' ? [named] : named !== null && typeof named === 'object' ? Object.values(named) : [];
  return values.some((v) => typeof v === 'string' && integerValue(v) !== userId);
}

const answerCaches = new WeakMap<EmulatorContext, Map<string, string | undefined>>();

/**
 * Only for the `rights-answer-cache-ignores-user` fault: list answers kept by their address alone (path and query),
 * whoever asked, so a user gets the answer another user's token was given for the same request.
 */
export function answerCacheIgnoringUser(ctx: EmulatorContext): Map<string, string | undefined> | undefined {
  if (!ctx.faults.isOn('rights-answer-cache-ignores-user')) return undefined;
  let cache = answerCaches.get(ctx);
  if (!cache) answerCaches.set(ctx, (cache = new Map()));
  return cache;
}

/** The record at row `i` is beyond the user's rights (a single record read: refused, §5.1 item 2). */
export function beyondRights(ctx: EmulatorContext, list: ListName, table: ListTable, userId: number | undefined, i: number): boolean {
  const test = rightsTest(ctx, list, table, userId, { page: 1, byId: false, filter: undefined, search: false });
  return test !== undefined && !test(i);
}
