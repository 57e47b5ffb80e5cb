/**
 * A bearer for account API rules (§5.1): the LONG_LIVED_TOKEN when the target has one (remote, read-only
 * friendly), else a fresh pair through the control API, else the token store's (refreshed once per run), else one
 * pair per run from the access-granting page driven in Chromium; without any of them the rule is skipped with the reason.
 */
import { SkipRule } from '../model/outcome.js';
import type { RuleContext } from '../model/context.js';
import { supplyOf } from '../targets/needs.js';
import { runTokenPair } from './live-tokens.js';
import { obtainTokens } from './oauth.js';

export async function apiToken(t: RuleContext): Promise<string> {
  if (t.credentials.longLivedToken) return t.credentials.longLivedToken;
  if (t.target.capabilities.includes('control')) return (await obtainTokens(t)).access_token;
  if (t.tokens) return t.tokens.accessToken();
  const supply = supplyOf('access-token', { id: '' }, t.target);
  if ('source' in supply && supply.source === 'browser') return (await runTokenPair(t)).access_token;
  throw new SkipRule(`no access token: ${'gap' in supply ? supply.gap : 'set LONG_LIVED_TOKEN, or run `conformance authorize`'}`);
}
