/**
 * §2.2 Credentials, with their §3.1 transitions and §8 limits: how long each credential lives, read on the target's
 * control clock (without a control API, the code lifetime in real time under --profile soak), and the long-lived token
 * (works as a bearer, no refresh, expiry, revocation). Clock rules are exclusive (they move the target's time) and
 * return the clock to real time when done.
 */
import {
  absent, clockTo, type ClockWalk, resetClock, accountRequest, afterElapsed, codeGrant, createLongLived, defineSpec, exchange, exchangeRule, freshCode, jsonObjectBody, longLivedToken, type LongLivedToken, obtainTokens, Precondition, refreshGrant, refreshTokenPresent, refreshTokens, revocableLongLived, revoke, type RuleContext, scenarioRule, status, step, valueField, withClockAdvanced, isSuccess,
} from './kit.js';

const MINUTE = 60;
const HOUR = 3_600;
const DAY = 86_400;
/** Five years of 365 days: within the 5 years the user may pick, whatever leap days fall in them. */
const FIVE_YEARS = 5 * 365 * DAY;

const THREE_MONTHS_READING =
  '"3 months" is read as calendar months. Three calendar months last 89 days at the shortest (1 February to 1 May) and 92 at the '
  + 'longest (1 July to 1 October), so the suite takes the lenient reading of docs/verdicts.md (lifetime): the token must work 89 days '
  + 'after issue and must be refused once 93 days have passed (the longest 3 months and a day, K2, K3); whatever the target does in '
  + 'between is only recorded. (The emulator expires it at issue time + 3 calendar months, UTC, a missing day clamped to the month\'s end.)';

/**
 * Exchanges a code minted now, `seconds` later: on the control clock, else in real time (--profile soak). A code that
 * must still work is timed from before it was minted and must not be exchanged after its 20 minutes; one that must be
 * refused is timed from after.
 */
async function exchangeCodeAfter(t: RuleContext, seconds: number, still: 'valid' | 'expired') {
  const before = Date.now();
  const code = await freshCode(t);
  const sinceMs = still === 'valid' ? before : Date.now();
  return afterElapsed(t, { seconds, sinceMs, ...(still === 'valid' ? { beforeSeconds: 20 * MINUTE } : {}) }, () => exchange(t, codeGrant(t.target, code)));
}

async function refreshAfter(t: RuleContext, seconds: number) {
  const { refresh_token } = await obtainTokens(t);
  return afterElapsed(t, { seconds }, () => refreshTokens(t, refresh_token));
}

/** The long-lived token works now (else Precondition: the rule `api.long-lived.works` judges that). */
async function mustWork(t: RuleContext, token: string): Promise<void> {
  const res = await t.send(accountRequest(t.target, token));
  if (!isSuccess(res.status)) throw new Precondition(`a fresh long-lived token was refused at /api/v4/account (status ${res.status})`);
}

/** A long-lived token made through the control API that works now. */
async function workingLongLived(t: RuleContext, seconds = 30 * DAY) {
  const token = await createLongLived(t, seconds);
  await mustWork(t, token.long_lived_token);
  return token;
}

export default defineSpec({
  section: '2.2',
  title: 'Credentials: lifetimes and long-lived tokens',
  level: 'must',
  rules: [
    exchangeRule(
      { id: 'oauth.code.valid-before-expiry', requires: [], needs: ['one-code', 'clock'], soakSeconds: 19 * MINUTE, exclusive: true,
        title: 'An authorization code is still exchangeable 19 minutes after it was issued',
        reading: '§2.2 and §8: valid 20 minutes. One minute of margin below the limit, on the target clock (without a control API, in real time under --profile soak).',
        covers: ['2.2/Authorization code', '3.1/authorization code issued', '8/Authorization code lifetime'] },
      { send: (t) => exchangeCodeAfter(t, 19 * MINUTE, 'valid'), expect: [status(200), refreshTokenPresent] },
    ),
    exchangeRule(
      { id: 'oauth.code.expired', section: '3.1', requires: [], needs: ['one-code', 'clock'], soakSeconds: 21 * MINUTE, exclusive: true,
        title: 'An authorization code is refused 21 minutes after it was issued',
        reading: '§3.1: after 20 minutes the code can no longer be exchanged. 400 as the exchange table states (another 4xx is non_strict).',
        covers: ['3.1/authorization code issued', '8/Authorization code lifetime', '7/400'] },
      { send: (t) => exchangeCodeAfter(t, 21 * MINUTE, 'expired'), expect: [status(400), jsonObjectBody] },
    ),
    exchangeRule(
      { id: 'oauth.refresh.valid-before-expiry', requires: ['control'], needs: ['clock'], exclusive: true,
        title: 'A refresh token still works 89 days after it was issued',
        reading: THREE_MONTHS_READING,
        covers: ['2.2/Refresh token', '3.1/refresh token valid', '8/Refresh token lifetime'] },
      { send: (t) => refreshAfter(t, 89 * DAY), expect: [status(200), refreshTokenPresent] },
    ),
    exchangeRule(
      { id: 'oauth.refresh.expired', section: '3.1', requires: ['control'], needs: ['clock'], exclusive: true,
        title: 'A refresh token is refused 93 days plus an hour after it was issued',
        reading: `${THREE_MONTHS_READING} Refused with 400 (§7 other cases 2: the authorization must be repeated); 401 is non_strict.`,
        covers: ['3.1/refresh token valid', '8/Refresh token lifetime', '2.2/Refresh token'] },
      { send: (t) => refreshAfter(t, 93 * DAY + HOUR), expect: [status(400), jsonObjectBody] },
    ),

    exchangeRule(
      { id: 'api.bearer.valid-before-expiry', section: '3.1', requires: ['control'], needs: ['clock'], exclusive: true,
        title: 'An access token still works a minute before the expires_in its exchange stated',
        reading: '§2.2: the access token\'s "Lifetime is returned as expires_in"; §3.1: it expires when expires_in seconds have elapsed, so until then it works (200). Probed from the expires_in the server stated (the lifetime reading), with the control clock moved to a minute before it; its refusal after it is judged by api.bearer.stale-token-error.' },
      {
        send: async (t) => {
          const { access_token, expires_in } = await obtainTokens(t);
          if (typeof expires_in !== 'number' || expires_in <= 2 * MINUTE) throw new Precondition('the token response has no expires_in over two minutes (oauth.token-response.expires-in judges that)');
          return withClockAdvanced(t, async (advance) => {
            await advance(expires_in - MINUTE);
            return t.send(accountRequest(t.target, access_token));
          });
        },
        expect: [status(200)],
      },
    ),
    exchangeRule(
      { id: 'api.long-lived.works', requires: [], needs: ['long-lived-token'], title: 'A long-lived token works as a bearer at /api/v4/account',
        reading: '§5.1.1: the bearer is an access token from the exchange or a long-lived token; created through the control API (the Keys tab), else LONG_LIVED_TOKEN.',
        covers: ['2.2/Long-lived token', '8/Long-lived token lifetime'] },
      { send: async (t) => t.send(accountRequest(t.target, (await longLivedToken(t, 30 * DAY)).token)), expect: [status(200)] },
    ),
    scenarioRule<LongLivedToken>(
      { id: 'oauth.long-lived.no-refresh', requires: [], needs: ['long-lived-token'], title: 'A long-lived token comes with no refresh token and cannot be used as one',
        reading: '§2.2: "has no refresh token and needs no exchange"; §3.1: "no refresh is possible". The creation answer carries no refresh_token (seen only when the control API makes the token; LONG_LIVED_TOKEN comes without one), and a refresh exchange naming the long-lived token is refused with 400.',
        covers: ['2.2/Long-lived token', '3.1/long-lived token'] },
      {
        setup: (t) => longLivedToken(t, 30 * DAY),
        steps: [
          step('', async (_t, made) => made.created ?? {}, (_t, made) => (made.created ? [valueField('refresh_token', absent, 'no refresh token')] : [])),
          step('', (t, made) => exchange(t, refreshGrant(t.target, made.token)), [status(400)]),
        ],
      },
    ),
    exchangeRule(
      { id: 'api.long-lived.expired', section: '3.1', requires: ['control'], needs: ['clock'], exclusive: true,
        title: 'A long-lived token is refused with 401 once its expiry has passed',
        reading: 'Created with the shortest expiry the user can pick (1 day); refused a minute after it. 401 as for any invalid bearer (RFC 6750 §3.1); 403 is non_strict.',
        covers: ['3.1/long-lived token', '2.2/Long-lived token', '7/401'] },
      {
        send: async (t) => {
          const token = await workingLongLived(t, DAY);
          return withClockAdvanced(t, async (advance) => {
            await advance(DAY + MINUTE);
            return t.send(accountRequest(t.target, token.long_lived_token));
          });
        },
        expect: [status(401)],
      },
    ),
    scenarioRule<ClockWalk & { readonly day: string; readonly fiveYears: string }>(
      { id: 'api.long-lived.expiry-bounds', requires: ['control'], needs: ['clock'], exclusive: true,
        title: 'Long-lived tokens picked at both ends of the range (1 day, 5 years) work until the expiry picked, and not after it',
        reading: '§2.2 and §8: "The user picks an expiry from 1 day to 5 years". Both made through the control API (the Keys tab), then probed on the control clock (the lifetime reading): the 1-day token an hour before its day ends, the 5-year token (5 × 365 days) a day before its end and a day after it. 401 after the end as for any invalid bearer; 403 is non_strict.',
        covers: ['2.2/Long-lived token', '8/Long-lived token lifetime', '3.1/long-lived token'] },
      {
        setup: async (t) => ({ elapsed: 0, day: (await workingLongLived(t, DAY)).long_lived_token, fiveYears: (await workingLongLived(t, FIVE_YEARS)).long_lived_token }),
        teardown: (t) => resetClock(t),
        steps: [
          step('the 1-day token, an hour before its day ends', async (t, f) => { await clockTo(t, f, DAY - HOUR); return t.send(accountRequest(t.target, f.day)); }, [status(200)]),
          step('the 5-year token, a day before its end', async (t, f) => { await clockTo(t, f, FIVE_YEARS - DAY); return t.send(accountRequest(t.target, f.fiveYears)); }, [status(200)]),
          step('the 5-year token, a day after its end', async (t, f) => { await clockTo(t, f, FIVE_YEARS + DAY); return t.send(accountRequest(t.target, f.fiveYears)); }, [status(401)]),
        ],
      },
    ),
    exchangeRule(
      { id: 'api.long-lived.revoked', section: '3.1', requires: [], needs: ['operator'], title: 'A revoked long-lived token is refused with 401',
        reading: '§2.2: it can be revoked under issued accesses; §3.1: then it is invalid. Made and revoked through the control API, else by the operator on the Keys tab. 403 is non_strict.',
        covers: ['3.1/long-lived token', '2.2/Long-lived token', '7/401'] },
      {
        send: async (t) => {
          const made = await revocableLongLived(t);
          await mustWork(t, made.token);
          await revoke(t, made);
          return t.send(accountRequest(t.target, made.token));
        },
        expect: [status(401)],
      },
    ),
  ],
});
