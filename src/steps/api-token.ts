/**
 * A bearer for account API rules (§5.1), the `access-token` need (src/needs/catalogue.ts): the LONG_LIVED_TOKEN when
 * the target has one (remote, read-only friendly), else a fresh pair through the control API, else the token store's
 * (refreshed once per run), else one pair per run from the access-granting page driven in Chromium; without any of
 * them the rule is skipped with the reason.
 */
import type { RuleContext } from '../model/context.js';

export async function apiToken(t: RuleContext): Promise<string> {
  return t.need('access-token');
}
