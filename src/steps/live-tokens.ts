/**
 * Tokens, from whatever the target offers (the `long-lived-token` and `refresh-token` needs, src/needs/catalogue.ts):
 * made through the control API, a long-lived token made beforehand (LONG_LIVED_TOKEN), a pair from the
 * access-granting page, or the token store of `conformance authorize`; and a long-lived token the rule may revoke.
 */
import type { RuleContext } from '../model/context.js';
import { createLongLived, revokeLongLived, type LongLived } from './lifecycle.js';
import { operatorStep, operatorValue } from './live-operator.js';

const DAY = 86_400;

export interface LongLivedToken {
  readonly token: string;
  /** The control API's record when the kit made it (it can then be revoked or expire); absent for LONG_LIVED_TOKEN. */
  readonly created?: LongLived;
}

/** A long-lived token: made through the control API (expiring `seconds` from now), else LONG_LIVED_TOKEN. */
export async function longLivedToken(t: RuleContext, seconds = 30 * DAY): Promise<LongLivedToken> {
  return (await t.need('long-lived-token'))(seconds);
}

/**
 * A long-lived token the rule may revoke (never the LONG_LIVED_TOKEN other rules use): made through the control API,
 * else made by the operator on the Keys tab and pasted.
 */
export async function revocableLongLived(t: RuleContext): Promise<LongLivedToken> {
  let created: LongLived | undefined;
  const token = await operatorValue(t, {
    instruction: `create a long-lived token for integration ${t.credentials.clientId} on its Keys tab (the kit revokes it next)`,
    value: 'the new token',
    secret: true,
    control: async () => {
      created = await createLongLived(t, 30 * DAY);
      return created.long_lived_token;
    },
  });
  return created ? { token, created } : { token };
}

/** Revokes it: through the control API when the kit made it there, else by the operator on the Keys tab. */
export async function revoke(t: RuleContext, made: LongLivedToken): Promise<void> {
  const { created } = made;
  await operatorStep(t, {
    instruction: `revoke the long-lived token beginning ${made.token.slice(0, 4)}… on the Keys tab of integration ${t.credentials.clientId}`,
    ...(created ? { control: () => revokeLongLived(t, created.id) } : {}),
  });
}

/**
 * A refresh token for a case the server must refuse (a wrong secret, a foreign client): a fresh pair's when codes can
 * be minted, else the token store's. The caller must not send it in a request that could succeed.
 */
export async function refreshTokenToRefuse(t: RuleContext): Promise<string> {
  return t.need('refresh-token');
}
