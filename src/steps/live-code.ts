/**
 * Authorization codes and consent, from whatever the target offers (the `fresh-code`, `one-code` and `consent` needs,
 * src/needs/catalogue.ts): its control API when it has one; else the access-granting page driven in Chromium as the
 * administrator (src/steps/live-grant.ts); else, for fresh codes, the one AUTH_CODE of the settings, for the one rule
 * the run keeps it for. Without any of them the rule is skipped with the setting that would let it run (the runner has
 * normally skipped it before it started).
 */
import type { RuleContext } from '../model/context.js';
import type { PageAccount } from './live-grant.js';

export interface ConsentRequest {
  readonly decision?: 'allow' | 'deny';
  readonly state?: string;
  readonly accountId?: number;
  /** Another integration than CLIENT_ID. */
  readonly clientId?: string;
}

/** Acts as the user on the access-granting page (Allow by default) and returns where the browser was sent. */
export async function consentLocation(t: RuleContext, request: ConsentRequest = {}): Promise<string> {
  return (await t.need('consent')).location({ ...request, decision: request.decision ?? 'allow' });
}

/**
 * A fresh authorization code for the configured integration (or `clientId`), taught to the masker. The one AUTH_CODE
 * of the settings serves the rule it is kept for (`one-code`); a rule that needs more declares `fresh-code`, and the
 * runner skips it where none can be minted.
 */
export async function freshCode(t: RuleContext, options: { clientId?: string } = {}): Promise<string> {
  return (await t.need('one-code')).code(options.clientId);
}

/** The accounts the user may pick on the page: the control API's list, or the page's own choices. */
export async function pageAccounts(t: RuleContext, clientId?: string): Promise<readonly PageAccount[]> {
  return (await t.need('consent')).accounts(clientId);
}
