/**
 * A bearer for account API rules (§5.1): the LONG_LIVED_TOKEN when the target has one (remote, read-only
 * friendly), else a fresh pair through the control API, else the token store's (refreshed once per run);
 * without any of them the rule is skipped with the reason.
 */
import { SkipRule } from '../model/outcome.js';
import type { RuleContext } from '../model/context.js';
import { obtainTokens } from './oauth.js';

export async function apiToken(t: RuleContext): Promise<string> {
  if (t.credentials.longLivedToken) return t.credentials.longLivedToken;
  if (t.target.capabilities.includes('control')) return (await obtainTokens(t)).access_token;
  if (t.tokens) return t.tokens.accessToken();
  throw new SkipRule('no access token: set LONG_LIVED_TOKEN or REFRESH_TOKEN, run `conformance authorize`, or give the target a control API (CONTROL_URL)');
}
