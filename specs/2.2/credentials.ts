/**
 * §2.2 Credentials.
 *
 * §2.2 Credentials, with their §3.1 transitions and §8 limits: how long each credential lives, read on the target's
 * control clock (without a control API, the code lifetime in real time under --profile soak), and the long-lived token
 * (works as a bearer, no refresh, expiry, revocation). Clock rules are exclusive (they move the target's time) and
 * return the clock to real time when done.
 *
 * §2.2 Credentials, what the spec and the RFCs it relies on say about their form: the access token is a signed JWT
 * (RFC 7519, RFC 8725) whose readable claims hold no secret and whose jti is unique; codes and refresh tokens are
 * unguessable (RFC 6749 §10.10); token answers are not cached (RFC 6749 §5.1); a bearer refusal carries the Bearer
 * challenge (RFC 6750 §3); an unsigned JWT never authenticates.
 *
 * §2.2 access token as a JWT: the time claims the account API must enforce beyond exp.
 */
import {
  absent, clockTo, type ClockWalk, resetClock, accessTokenIsJwt, accessTokenSigned, accountRequest, claimsHoldNoSecret, claimsObserved, codeGrant, defineGroup, distinctJti, exchange, exchangeFreshCode, exchangeRule, freshCode, type HttpResponse, longLivedToken, type LongLivedToken, obtainTokens, refreshGrant, refreshTokenPresent, refreshTokens, scenarioRule, status, step, stringAt, tokenBeforeItsNbf, tokensOf, type TokenPair, unguessable, valueField, field, isNonEmptyString,
  accountWorks,
} from '../kit.js';
import { CODE_SAMPLES, REFRESH_SAMPLES } from './support.js';
import { MINUTE, HOUR, DAY, FIVE_YEARS, workingLongLived, THREE_MONTHS_READING, exchangeCodeAfter, freshCodeExchange } from '../fixtures/oauth.js';

/** A token pair whose access token the clock has outrun, and the answer of its refresh. */
interface ExpiredPair extends ClockWalk { readonly pair: TokenPair; refreshed?: HttpResponse }

export default defineGroup({
  heading: 'Credentials',
  rules: [
    exchangeRule(
      { id: 'oauth.code.valid-before-expiry', needs: ['one-code', 'clock'], soakSeconds: 19 * MINUTE, exclusive: true,
        title: 'An authorization code is still exchangeable 19 minutes after it was issued',
        reading: '§2.2 and §8: valid 20 minutes. One minute of margin below the limit, on the target clock (without a control API, in real time under --profile soak).',
        covers: ['2.2/Authorization code', '3.1/authorization code issued', '8/Authorization code lifetime'] },
      { send: (t) => exchangeCodeAfter(t, 19 * MINUTE, 'valid'), expect: [status(200), refreshTokenPresent] },
    ),
    scenarioRule<ExpiredPair>(
      { id: 'oauth.refresh.valid-before-expiry', requires: ['control'], needs: ['clock'], exclusive: true,
        title: 'A refresh token still works 89 days after it was issued, and the access token it gives works at the API',
        reading: `${THREE_MONTHS_READING} By then the access token issued with it has long expired (§3.1 "access token expired → refresh exchange needed"): the new access token must work at /api/v4/account at once, on the same moved clock.`,
        covers: ['2.2/Refresh token', '3.1/refresh token valid', '8/Refresh token lifetime'] },
      {
        setup: async (t) => ({ elapsed: 0, pair: await obtainTokens(t) }),
        teardown: (t) => resetClock(t),
        steps: [
          step('the refresh, 89 days after issue', async (t, f) => {
            await clockTo(t, f, 89 * DAY);
            return (f.refreshed = await refreshTokens(t, f.pair.refresh_token));
          }, [status(200), refreshTokenPresent, field('access_token', isNonEmptyString)]),
          step('its access token at /api/v4/account', (t, f) => t.send(accountRequest(t.target, stringAt(f.refreshed!, 'access_token')!)), accountWorks),
        ],
      },
    ),
    exchangeRule(
      { id: 'api.long-lived.works', needs: ['long-lived-token'], title: 'A long-lived token works as a bearer at /api/v4/account',
        reading: '§5.1.1: the bearer is an access token from the exchange or a long-lived token; created through the control API (the Keys tab), else LONG_LIVED_TOKEN.',
        covers: ['2.2/Long-lived token', '8/Long-lived token lifetime'] },
      { send: async (t) => t.send(accountRequest(t.target, (await longLivedToken(t, 30 * DAY)).token)), expect: accountWorks },
    ),
    scenarioRule<LongLivedToken>(
      { id: 'oauth.long-lived.no-refresh', needs: ['long-lived-token'], title: 'A long-lived token comes with no refresh token and cannot be used as one',
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
      { id: 'oauth.jwt.signed', level: 'should', title: 'The access token is a signed JWT: its alg names a signature or MAC algorithm and its signature is present',
        reading: 'RFC 8725 §3.1–3.2: a JWT names a signature algorithm and carries the signature; none is never used. The live service signs RS256 (docs/field-notes.md). Any signature or MAC algorithm passes (HS256 too: the issuer is the only verifier, K24); alg none or an empty signature fails.' },
      { send: (t) => exchangeFreshCode(t), expect: [status(200), accessTokenSigned] },
    ),
    exchangeRule<HttpResponse, string>(
      { id: 'oauth.jwt.no-secrets', level: 'should', title: 'The access token\'s claims carry neither the client secret nor a channel secret',
        reading: 'RFC 7519 §4: the claims of a signed JWT are readable by anyone who holds the token (it is not encrypted); a secret of the integration there is a secret given to every holder. The authorization code, spent once the token exists, and the refresh token, which the application that must keep the access token private holds anyway (§2.2), are only recorded when they are among them (K23, R2-A4).' },
      {
        setup: (t) => freshCode(t),
        send: (t, code) => exchange(t, codeGrant(t.target, code)),
        expect: (t, code) => [status(200), claimsHoldNoSecret([t.credentials.clientSecret, t.credentials.channelSecret, t.credentials.channelSecret2, t.credentials.v1ChannelSecret], [code])],
      },
    ),
    exchangeRule<readonly HttpResponse[]>(
      { id: 'oauth.jwt.jti-unique', level: 'should', title: 'Each access token is distinct, and so is its jti when it carries one (a code exchange and two refreshes)',
        reading: 'RFC 7519 §4.1.7: jti is optional; when present it is a unique identifier of the token, so no two tokens share one (the live service\'s tokens carry one, docs/field-notes.md). Tokens without a jti pass when they differ (K25).' },
      {
        send: async (t) => {
          const first = await exchangeFreshCode(t);
          const second = await refreshTokens(t, tokensOf(first, 'the code exchange').refresh_token);
          const third = await refreshTokens(t, tokensOf(second, 'the first refresh').refresh_token);
          return [first, second, third];
        },
        expect: [distinctJti],
      },
    ),
    exchangeRule(
      { id: 'oauth.jwt.claims', level: 'info', title: 'Which claims the access token carries and what its audience is',
        reading: 'The spec says only that the access token is a JWT; docs/field-notes.md lists the live service\'s claims (aud, jti, iat, nbf, exp, sub, account_id, base_domain, api_domain, scopes). Recorded.' },
      { send: (t) => exchangeFreshCode(t), expect: [claimsObserved] },
    ),
    scenarioRule(
      { id: 'oauth.token.entropy', title: `Authorization codes and refresh tokens are unguessable: ${CODE_SAMPLES} codes and ${REFRESH_SAMPLES} refresh tokens, at least 128 bits each, none repeated`,
        reading: 'RFC 6749 §10.10: the probability of guessing a code or token must be at most 2^-128. Estimated from the shortest value\'s length, less the prefix and suffix every sample shares (a constant, the high digits of a counter or a clock), and the alphabet the values span; a short value or a counter shows as repeats or too few bits.' },
      {
        steps: [
          step('authorization codes', async (t) => Promise.all(Array.from({ length: CODE_SAMPLES }, () => freshCode(t))), [unguessable('codes')]),
          step('refresh tokens', async (t) => (await Promise.all(Array.from({ length: REFRESH_SAMPLES }, () => obtainTokens(t)))).map((p) => p.refresh_token), [unguessable('refresh tokens')]),
        ],
      },
    ),
    exchangeRule<HttpResponse, string>(
      { id: 'api.bearer.not-yet-valid', needs: [], requires: ['control'], exclusive: true,
        title: 'An access token used an hour before its nbf time is refused with 401',
        reading: 'RFC 7519 §4.1.5: a JWT must not be accepted before its nbf. The token is issued while the control clock runs an hour ahead and used once the clock is back to real time, far beyond any skew leeway; RFC 6750 §3.1 gives 401 (403 is non_strict).' },
      {
        setup: tokenBeforeItsNbf,
        send: (t, token) => t.send(accountRequest(t.target, token)),
        expect: [status(401)],
      },
    ),
    exchangeRule(
      { id: 'oauth.token-response.access-token-jwt', needs: ['one-code'], title: 'access_token is a decodable JWT' },
      { send: freshCodeExchange, expect: [status(200), accessTokenIsJwt] },
    ),
  ],
});
