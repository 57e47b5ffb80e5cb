/**
 * §2.3 Token response object.
 *
 * §2.3 Token response object, and §2.2 (the access token is a JWT): every field of a successful code exchange.
 *
 * §2.3 Token response object, on the refresh exchange: the same object as the code exchange's (§4.1 "Response 200:
 * token response object"), every field of it, not only the new refresh token.
 */
import {
  accessTokenIsJwt, accessTokenSigned, defineGroup, exchangeRule, expiresInPositiveInteger, jsonContentType, jwtExpiryMatchesExpiresIn, obtainTokens, refreshTokenPresent, refreshTokens, serverTimeArgs, serverTimeNear, status, tokenTypeBearer,
} from '../kit.js';
import { freshCodeExchange } from '../fixtures/oauth.js';

export default defineGroup({
  heading: 'Token response object',
  rules: [
    exchangeRule(
      { id: 'oauth.token-response.token-type', title: 'token_type is a bearer type',
        reading: 'Compared case-insensitively: "Bearer" and "bearer" both pass (RFC 6749 §5.1).' },
      { send: freshCodeExchange, expect: [status(200), tokenTypeBearer] },
    ),
    exchangeRule(
      { id: 'oauth.token-response.expires-in', title: 'expires_in is a positive integer number of seconds' },
      { send: freshCodeExchange, expect: [status(200), expiresInPositiveInteger] },
    ),
    exchangeRule(
      { id: 'oauth.token-response.server-time', title: 'server_time is an integer Unix timestamp in seconds near the server clock',
        reading: 'Missing or not an int fails. Within 5 s of the target clock read through the control API, else within 300 s of the kit\'s clock; the spec states no tolerance, so a larger skew is recorded, not failed (K4), up to an hour: beyond it the value is not the "Server time of the response" and fails (R2-A5).' },
      { send: freshCodeExchange, expect: async (t) => [status(200), serverTimeNear(...(await serverTimeArgs(t)))] },
    ),
    exchangeRule(
      { id: 'oauth.token-response.jwt-expiry', level: 'should', title: 'The JWT exp claim agrees with expires_in',
        reading: 'The spec returns the lifetime as expires_in; a JWT whose exp says otherwise misleads clients that read either. Within 60 s of iat (else server_time) + expires_in. An exp that disagrees is non_strict (K1); no exp or iat is recorded, both being optional in RFC 7519 and named by the spec nowhere (R2-A1); the lifetime itself is probed from expires_in.' },
      { send: freshCodeExchange, expect: [status(200), jwtExpiryMatchesExpiresIn] },
    ),
    exchangeRule(
      { id: 'oauth.token-response.refresh-token', title: 'refresh_token is present and non-empty' },
      { send: freshCodeExchange, expect: [status(200), refreshTokenPresent] },
    ),
    exchangeRule(
      { id: 'oauth.refresh.answer', needs: ['fresh-code'],
        title: 'The refresh exchange answers the whole token response object: token_type, expires_in, access_token (a JWT), refresh_token, server_time',
        reading: '§4.1: both grants answer 200 with the token response object of §2.3. token_type compared case-insensitively; server_time an int within 5 s of the target\'s control clock (300 s of the kit\'s clock without one); a larger skew is recorded, not failed (K4), up to an hour, beyond which it fails (R2-A5).' },
      {
        send: async (t) => refreshTokens(t, (await obtainTokens(t)).refresh_token),
        expect: async (t) => [status(200), jsonContentType, tokenTypeBearer, expiresInPositiveInteger, accessTokenIsJwt, refreshTokenPresent, serverTimeNear(...(await serverTimeArgs(t)))],
      },
    ),
    // The refresh answer's token judged as the code answer's (oauth.jwt.signed, oauth.token-response.jwt-expiry):
    // a server that issues refreshed tokens on another code path can break them there alone.
    exchangeRule(
      { id: 'oauth.refresh.answer-jwt', level: 'should', needs: ['fresh-code'],
        title: 'The refresh exchange\'s access token is a signed JWT whose exp agrees with expires_in, as the code exchange\'s',
        reading: '§4.1: both grants answer the §2.3 token response object, so the readings of the code grant\'s token hold here: RFC 8725 §3.1–3.2, a JWT names a signature algorithm and carries the signature (alg none or an empty signature fails, K24); an exp that disagrees with iat + expires_in by more than 60 s, or no exp or iat, is non_strict (K1).' },
      {
        send: async (t) => refreshTokens(t, (await obtainTokens(t)).refresh_token),
        expect: [status(200), accessTokenSigned, jwtExpiryMatchesExpiresIn],
      },
    ),
  ],
});
