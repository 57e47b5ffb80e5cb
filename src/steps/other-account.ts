/**
 * Records the control API gives the list rules: ids of another account (`GET /_control/lists/{list}?account=other`,
 * less any id this account also holds: ids a filter of this account must never find), and a record created with a
 * given name.
 */
import { Precondition, SkipRule } from '../errors.js';
import type { RuleContext } from '../model/context.js';
import type { ListName } from '../protocol/filters.js';

/** Ids per list a rule names in one filter: enough to catch a leak, short enough for any query-string limit. */
export const FOREIGN_IDS_PER_LIST = 20;

interface Truth {
  readonly account?: unknown;
  readonly records?: readonly { readonly id?: unknown }[];
}

const idsOf = (truth: Truth): number[] => (truth.records ?? []).map((r) => r.id).filter((id): id is number => typeof id === 'number');

export async function foreignIds(t: RuleContext, list: ListName): Promise<number[]> {
  const other = await t.control.call<Truth>('GET', `/lists/${list}?account=other`);
  if (other.account !== 'other') throw new SkipRule('the control API gives no second account\'s records (GET /_control/lists/{list}?account=other)');
  const own = new Set(idsOf(await t.control.call<Truth>('GET', `/lists/${list}`)));
  return idsOf(other).filter((id) => !own.has(id)).slice(0, FOREIGN_IDS_PER_LIST);
}

/** Adds a record with the given name through the control API (POST /_control/lists/{list}/records). */
export async function createNamedRecord(t: RuleContext, list: ListName, name: string): Promise<{ id: number; name: string }> {
  const made = await t.control.call<{ id?: unknown; name?: unknown }>('POST', `/lists/${list}/records`, { name });
  if (typeof made.id !== 'number' || made.name !== name) throw new Precondition(`the control API did not create a ${list} record named ${name}`);
  return { id: made.id, name };
}
