/**
 * What the rights rules (specs/4.2/rights.ts) know before they read with the restricted user's token: his id and
 * token (the `restricted-token` need), his deals and other users' deals, from the control API's ground truth when the
 * target has one, else from the list as the administrator's token shows it (the `access-token` need).
 */
import { Precondition } from '../errors.js';
import type { RuleContext } from '../model/context.js';
import type { RecordView } from '../protocol/answers.js';
import { LISTS, type ListName } from '../protocol/filters.js';
import { groundTruth, visibleRecords } from './lists.js';
import { apiToken } from './api-token.js';
import { FOREIGN_IDS_PER_LIST } from './other-account.js';

/**
 * Deals per page of the restricted user's reads: small, so his deals span more than one page and the rights are seen
 * on the pages a client reaches by `_links.next`, not only on the first.
 */
export const RIGHTS_PAGE_LIMIT = 25;

export interface DealsByUser {
  readonly userId: number;
  readonly token: string;
  /** His deals, all of them; undefined when the administrator's list was read only in part. */
  readonly own: ReadonlySet<number> | undefined;
  /** Where `own` comes from, in a finding. */
  readonly source: string;
  /** A few deals of other users (with their fields): ids, responsible users and names the rules name. */
  readonly others: readonly RecordView[];
}

export async function dealsByUser(t: RuleContext): Promise<DealsByUser> {
  return recordsByUser(t, 'leads');
}

/** As dealsByUser, for any of the four lists: the rights narrow each (§4.2 "Access follows the user's rights"). */
export async function recordsByUser(t: RuleContext, list: ListName): Promise<DealsByUser> {
  const { token, userId } = await t.need('restricted-token');
  const truth = t.target.capabilities.includes('control');
  const read = truth ? { records: await groundTruth(t, list), truncated: false } : await visibleRecords(t, await apiToken(t), list);
  const mine = (r: RecordView): boolean => r.responsible_user_id === userId;
  const others = read.records.filter((r) => typeof r.responsible_user_id === 'number' && !mine(r)).slice(0, FOREIGN_IDS_PER_LIST);
  if (others.length === 0) throw new Precondition(`no record of ${list} has a responsible user other than ${userId}: nothing his rights could hide`);
  return {
    userId, token, others,
    own: read.truncated ? undefined : new Set(read.records.filter(mine).map((r) => r.id)),
    source: truth ? `the ground truth (GET /_control/lists/${list})` : `the administrator's list of ${list}`,
  };
}

/** Each of the four lists as the restricted user sees it (recordsByUser), read side by side. */
export type RecordsByList = Readonly<Record<ListName, DealsByUser>>;

export async function recordsByList(t: RuleContext): Promise<RecordsByList> {
  const read = await Promise.all(LISTS.map(async (list) => [list, await recordsByUser(t, list)] as const));
  return Object.fromEntries(read) as RecordsByList;
}
