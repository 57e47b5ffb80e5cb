/**
 * List records the §4.2 rules need (the `non-ascii-record` and `foreign-records` needs, src/needs/catalogue.ts): made
 * through the control API (src/steps/other-account.ts), else the settings' (NON_ASCII_LEAD_ID, NON_ASCII_LEAD_NAME,
 * OTHER_ACCOUNT_RECORD_IDS), made or read beforehand by whoever runs the staging account.
 */
import type { RuleContext } from '../model/context.js';
import type { ListName } from '../protocol/filters.js';

/**
 * A lead named in non-ASCII characters: created through the control API with `name`, else the settings' lead with
 * its own name (the configuration check made sure it holds a non-ASCII character).
 */
export async function nonAsciiLead(t: RuleContext, name: string): Promise<{ id: number; name: string }> {
  return (await t.need('non-ascii-record'))(name);
}

/** Ids of another account's records of `list` (as many as one filter names): the control API's, else the settings'. */
export async function otherAccountIds(t: RuleContext, list: ListName): Promise<number[]> {
  return (await t.need('foreign-records'))(list);
}
