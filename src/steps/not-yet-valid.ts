/**
 * An access token whose nbf is still ahead of the target's clock: issued while the control clock ran an hour ahead,
 * then the clock is returned to real time (the control clock never moves back by itself).
 */
import { decodeJwt } from 'jose';
import type { RuleContext } from '../model/context.js';
import { SkipRule } from '../errors.js';
import { obtainTokens } from './oauth.js';

/** How far ahead the clock runs when the token is issued: far beyond any clock-skew leeway a server allows. */
export const NBF_LEAD_SECONDS = 3600;

export async function tokenBeforeItsNbf(t: RuleContext): Promise<string> {
  try {
    await t.control.advanceClock(NBF_LEAD_SECONDS);
    const token = (await obtainTokens(t)).access_token;
    // RFC 7519 §4.1.5 makes nbf OPTIONAL: a token without one is valid from its issue, so there is nothing to refuse
    // before it (issue 39 item 5); the rule is skipped saying so rather than failing a server that sets none.
    if (typeof nbfOf(token) !== 'number') throw new SkipRule('the access token carries no nbf claim (RFC 7519 §4.1.5 makes it optional): no time before which it is not valid');
    return token;
  } finally {
    await t.control.call('POST', '/clock/reset');
  }
}

function nbfOf(token: string): unknown {
  try {
    return decodeJwt(token).nbf;
  } catch {
    return undefined;
  }
}
