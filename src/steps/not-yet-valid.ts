/**
 * An access token whose nbf is still ahead of the target's clock: issued while the control clock ran an hour ahead,
 * then the clock is returned to real time (the control clock never moves back by itself).
 */
import type { RuleContext } from '../model/context.js';
import { obtainTokens } from './oauth.js';

/** How far ahead the clock runs when the token is issued: far beyond any clock-skew leeway a server allows. */
export const NBF_LEAD_SECONDS = 3600;

export async function tokenBeforeItsNbf(t: RuleContext): Promise<string> {
  try {
    await t.control.advanceClock(NBF_LEAD_SECONDS);
    return (await obtainTokens(t)).access_token;
  } finally {
    await t.control.call('POST', '/clock/reset');
  }
}
