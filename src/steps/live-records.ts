/**
 * List records the §4.2 rules need, for a target without a control API: a lead of the account named in non-ASCII
 * characters (NON_ASCII_LEAD_ID, NON_ASCII_LEAD_NAME), and ids of another account's records (OTHER_ACCOUNT_RECORD_IDS),
 * both made or read beforehand by whoever runs the staging account. With a control API, the control API's
 * (src/steps/other-account.ts).
 */

import type { RuleContext } from '../model/context.js';
import type { ListName } from '../protocol/filters.js';
import { requireNeed } from '../targets/needs.js';
import { createNamedRecord, FOREIGN_IDS_PER_LIST, foreignIds } from './other-account.js';

const hasControl = (t: RuleContext) => t.target.capabilities.includes('control');

/**
 * A lead named in non-ASCII characters: created through the control API with `name`, else the settings' lead with
 * its own name (the configuration check made sure it holds a non-ASCII character).
 */
export async function nonAsciiLead(t: RuleContext, name: string): Promise<{ id: number; name: string }> {
  if (hasControl(t)) return createNamedRecord(t, 'leads', name);
  requireNeed('non-ascii-record', t.target);
  return { ...t.credentials.nonAsciiLead! };
}

/** Ids of another account's records of `list` (as many as one filter names): the control API's, else the settings'. */
export async function otherAccountIds(t: RuleContext, list: ListName): Promise<number[]> {
  if (hasControl(t)) return foreignIds(t, list);
  requireNeed('foreign-records', t.target);
  return [...(t.credentials.otherAccountRecordIds![list] ?? [])].slice(0, FOREIGN_IDS_PER_LIST);
}
