/**
 * Tokens for targets without a control API: a long-lived token made beforehand (LONG_LIVED_TOKEN), a token pair from
 * the access-granting page (one per run for the account API rules), and refresh tokens for cases the server must
 * refuse, taken from the token store of `conformance authorize` when nothing can mint a pair: such a case never sends
 * the stored token in a request that could succeed, so the store's pair is never consumed.
 */
import { SkipRule } from '../errors.js';
import type { RuleContext, RunResource } from '../model/context.js';
import type { TokenPair } from '../protocol/oauth.js';
import { requireNeed } from '../targets/needs.js';
import { TokenStore } from '../targets/token-store.js';
import { createLongLived, revokeLongLived, type LongLived } from './lifecycle.js';
import { operatorStep, operatorValue } from './live-operator.js';
import { obtainTokens } from './oauth.js';

const DAY = 86_400;

export interface LongLivedToken {
  readonly token: string;
  /** The control API's record when the kit made it (it can then be revoked or expire); absent for LONG_LIVED_TOKEN. */
  readonly created?: LongLived;
}

/** A long-lived token: made through the control API (expiring `seconds` from now), else LONG_LIVED_TOKEN. */
export async function longLivedToken(t: RuleContext, seconds = 30 * DAY): Promise<LongLivedToken> {
  if (t.target.capabilities.includes('control')) {
    const created = await createLongLived(t, seconds);
    return { token: created.long_lived_token, created };
  }
  requireNeed('long-lived-token', t.target);
  return { token: t.credentials.longLivedToken! };
}

/**
 * A long-lived token the rule may revoke (never the LONG_LIVED_TOKEN other rules use): made through the control API,
 * else made by the operator on the Keys tab and pasted.
 */
export async function revocableLongLived(t: RuleContext): Promise<LongLivedToken> {
  if (t.target.capabilities.includes('control')) {
    const created = await createLongLived(t, 30 * DAY);
    return { token: created.long_lived_token, created };
  }
  const token = await operatorValue(t, {
    instruction: `create a long-lived token for integration ${t.credentials.clientId} on its Keys tab (the kit revokes it next)`,
    value: 'the new token',
    secret: true,
  });
  return { token };
}

/** Revokes it: through the control API when the kit made it there, else by the operator on the Keys tab. */
export async function revoke(t: RuleContext, made: LongLivedToken): Promise<void> {
  const { created } = made;
  await operatorStep(t, {
    instruction: `revoke the long-lived token beginning ${made.token.slice(0, 4)}… on the Keys tab of integration ${t.credentials.clientId}`,
    ...(created ? { control: () => revokeLongLived(t, created.id) } : {}),
  });
}

class RunPair implements RunResource {
  constructor(readonly pair: TokenPair) {}
  async close(): Promise<void> {}
}

/** One token pair from the page for the whole run: the account API rules share it (a grant costs a browser page). */
export async function runTokenPair(t: RuleContext): Promise<TokenPair> {
  return (await t.resource('live-token-pair', async () => new RunPair(await obtainTokens(t)))).pair;
}

/**
 * A refresh token for a case the server must refuse (a wrong secret, a foreign client): a fresh pair's when codes can
 * be minted, else the token store's. The caller must not send it in a request that could succeed.
 */
export async function refreshTokenToRefuse(t: RuleContext): Promise<string> {
  if (requireNeed('refresh-token', t.target) !== 'token-store') return (await obtainTokens(t)).refresh_token;
  const stored = t.target.tokenStore ? new TokenStore(t.target.tokenStore).read().tokens : undefined;
  const token = stored?.refresh_token || t.credentials.refreshToken;
  if (!token) throw new SkipRule('needs refresh-token: the token store holds none: run `conformance authorize`');
  t.masker.add(token);
  return token;
}
