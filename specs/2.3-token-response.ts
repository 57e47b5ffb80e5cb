/**
 * §2.3 Token response object, and §2.2 (the access token is a JWT): every field of a successful code exchange.
 */
import {
  accessTokenIsJwt, defineSpec, exchangeFreshCode, exchangeRule, expiresInPositiveInteger, jsonContentType, jwtExpiryMatchesExpiresIn, refreshTokenPresent, type RuleContext, serverTimeNear, status, serverTimeArgs, tokenTypeBearer,
} from './kit.js';

const send = (t: RuleContext) => exchangeFreshCode(t);

export default defineSpec({
  section: '2.3',
  title: 'Token response object',
  level: 'must',
  rules: [
    exchangeRule(
      { id: 'oauth.token-response.content-type', section: '4.1', requires: [], needs: ['one-code'], title: 'A successful exchange answers 200 with Content-Type application/json',
        reading: 'application/json with parameters (charset) is JSON; another +json type is non_strict.' },
      { send, expect: [status(200), jsonContentType] },
    ),
    exchangeRule(
      { id: 'oauth.token-response.token-type', requires: [], needs: ['one-code'], title: 'token_type is a bearer type',
        reading: 'Compared case-insensitively: "Bearer" and "bearer" both pass (RFC 6749 §5.1).' },
      { send, expect: [status(200), tokenTypeBearer] },
    ),
    exchangeRule(
      { id: 'oauth.token-response.expires-in', requires: [], needs: ['one-code'], title: 'expires_in is a positive integer number of seconds' },
      { send, expect: [status(200), expiresInPositiveInteger] },
    ),
    exchangeRule(
      { id: 'oauth.token-response.server-time', requires: [], needs: ['one-code'], title: 'server_time is an integer Unix timestamp in seconds near the server clock',
        reading: 'Missing or not an int fails. Within 5 s of the target clock read through the control API, else within 300 s of the kit\'s clock; the spec states no tolerance, so a larger skew is recorded, not failed (K4).' },
      { send, expect: async (t) => [status(200), serverTimeNear(...(await serverTimeArgs(t)))] },
    ),
    exchangeRule(
      { id: 'oauth.token-response.access-token-jwt', section: '2.2', requires: [], needs: ['one-code'], title: 'access_token is a decodable JWT' },
      { send, expect: [status(200), accessTokenIsJwt] },
    ),
    exchangeRule(
      { id: 'oauth.token-response.jwt-expiry', level: 'should', requires: [], needs: ['one-code'], title: 'The JWT exp claim agrees with expires_in',
        reading: 'The spec returns the lifetime as expires_in; a JWT whose exp says otherwise misleads clients that read either. Within 60 s of iat (else server_time) + expires_in. The spec names neither claim: no exp or iat, or an exp that disagrees, is non_strict (K1); the lifetime itself is probed from expires_in.' },
      { send, expect: [status(200), jwtExpiryMatchesExpiresIn] },
    ),
    exchangeRule(
      { id: 'oauth.token-response.refresh-token', requires: [], needs: ['one-code'], title: 'refresh_token is present and non-empty' },
      { send, expect: [status(200), refreshTokenPresent] },
    ),
  ],
});
