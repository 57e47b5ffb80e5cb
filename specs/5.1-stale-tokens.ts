/**
 * §5.1 account API: the challenge of a token that was valid once (expired, revoked) or looks like one (forged), RFC 6750 §3.1.
 */
import {
  accountRequest, createLongLived, defineSpec, forge, type HttpResponse, obtainTokens, Precondition, revokeLongLived, status, sweepRule, withClockAdvanced, wwwAuthenticateError,
} from './kit.js';

type Stale = 'revoked long-lived token' | 'expired access token' | 'forged access token';

/**
 * Past the access token's lifetime as the server stated it (§2.2 "Lifetime is returned as expires_in"; the lifetime
 * reading: probed from expires_in, not a constant of the kit, K41), by a margin no clock skew covers.
 */
const PAST_EXPIRY_MARGIN_SECONDS = 600;

export default defineSpec({
  section: '5.1',
  title: 'Account API: expired and revoked tokens',
  level: 'should',
  rules: [
    sweepRule<Stale, HttpResponse>(
      { id: 'api.bearer.stale-token-error', requires: ['control'], exclusive: true,
        title: 'A 401 for an expired, a revoked or a forged token names error="invalid_token" in its challenge',
        reading: 'RFC 6750 §3.1, which the spec does not restate (a challenge without the error is non_strict, K30): a token that is expired or revoked is invalid_token, named in the WWW-Authenticate challenge of the 401. The expired token is used with the control clock moved 10 minutes past its expires_in (hence exclusive); the revoked one is a long-lived token revoked through the control API; the forged one is a real token re-signed with another key.' },
      {
        named: ['revoked long-lived token', 'forged access token', 'expired access token'],
        send: async (t, stale) => {
          if (stale === 'revoked long-lived token') {
            // Two days: one day is the least the Keys tab takes, and the two clocks need not agree to the second.
            const made = await createLongLived(t, 2 * 86_400);
            await revokeLongLived(t, made.id);
            return t.send(accountRequest(t.target, made.long_lived_token));
          }
          const { access_token, expires_in } = await obtainTokens(t);
          if (stale === 'forged access token') return t.send(accountRequest(t.target, await forge(access_token, 'signed-with-another-key')));
          return withClockAdvanced(t, async (advance) => {
            if (typeof expires_in !== 'number' || expires_in <= 0) throw new Precondition('the token response has no positive expires_in (oauth.token-response.expires-in judges that)');
            await advance(expires_in + PAST_EXPIRY_MARGIN_SECONDS);
            return t.send(accountRequest(t.target, access_token));
          });
        },
        expect: [status(401), wwwAuthenticateError('invalid_token')],
        label: (stale) => stale,
      },
    ),
  ],
});
