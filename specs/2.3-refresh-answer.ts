/**
 * §2.3 Token response object, on the refresh exchange: the same object as the code exchange's (§4.1 "Response 200:
 * token response object"), every field of it, not only the new refresh token.
 */
import {
  accessTokenIsJwt, defineSpec, expiresInPositiveInteger, exchangeRule, jsonContentType, obtainTokens, refreshTokenPresent, refreshTokens, serverTimeNear, status, serverTimeArgs, tokenTypeBearer,
} from './kit.js';

export default defineSpec({
  section: '2.3',
  title: 'Token response object of the refresh exchange',
  level: 'must',
  rules: [
    exchangeRule(
      { id: 'oauth.refresh.answer', requires: [], needs: ['fresh-code'],
        title: 'The refresh exchange answers the whole token response object: token_type, expires_in, access_token (a JWT), refresh_token, server_time',
        reading: '§4.1: both grants answer 200 with the token response object of §2.3. token_type compared case-insensitively; server_time an int within 5 s of the target\'s control clock (300 s of the kit\'s clock without one); a larger skew is recorded, not failed (K4).' },
      {
        send: async (t) => refreshTokens(t, (await obtainTokens(t)).refresh_token),
        expect: async (t) => [status(200), jsonContentType, tokenTypeBearer, expiresInPositiveInteger, accessTokenIsJwt, refreshTokenPresent, serverTimeNear(...(await serverTimeArgs(t)))],
      },
    ),
  ],
});
