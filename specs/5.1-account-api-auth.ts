/**
 * §5.1 Account API authentication: the bearer access token; what is not one (malformed headers, forged tokens) gets 401.
 */
import fc from 'fast-check';
import {
  accountRequest, defineSpec, exchangeRule, forge, FORGERIES, malformedAuthorization, obtainTokens, propertyRule, status,
} from './kit.js';

export default defineSpec({
  section: '5.1',
  title: 'Account API authentication',
  level: 'must',
  rules: [
    exchangeRule(
      { id: 'api.bearer.access-token-works', requires: [], needs: ['one-code'], title: 'An access token from the code exchange works as a bearer at /api/v4/account' },
      { send: async (t) => t.send(accountRequest(t.target, (await obtainTokens(t)).access_token)), expect: [status(200)] },
    ),
    exchangeRule(
      { id: 'api.bearer.missing', requires: [], title: '/api/v4/account without an Authorization header is refused with 401',
        reading: '§5.1.1: every /api/v4 request carries the bearer. 401 as RFC 6750 §3.1 states; 403 is non_strict.' },
      { send: (t) => t.send(accountRequest(t.target, undefined)), expect: [status(401)] },
    ),
    exchangeRule(
      { id: 'api.basic.client-credentials', requires: [],
        title: 'The integration\'s client_id and secret as HTTP Basic credentials are refused at /api/v4/account with 401',
        reading: '§5.1.1: every /api/v4 request carries a bearer access token (or a long-lived token); the integration\'s own credentials are for the token endpoint (§5.1.3), not for the API (security: credentials that bypass the grant). 401; 403 is non_strict.' },
      {
        send: (t) => t.send({
          method: 'GET', url: `${t.target.baseUrl}/api/v4/account`,
          headers: { authorization: `Basic ${Buffer.from(`${t.credentials.clientId}:${t.credentials.clientSecret}`).toString('base64')}` },
        }),
        expect: [status(401)],
      },
    ),
    propertyRule(
      { id: 'api.bearer.malformed', requires: [], title: '/api/v4/account with a malformed or unknown bearer is refused with 401',
        reading: '§5.1.1 and RFC 6750 §3.1: a missing scheme, an empty token, another scheme, or a token nobody issued is invalid_token / invalid_request, 401; 403 is non_strict. Each case names what is wrong with the header.' },
      {
        cases: () => malformedAuthorization,
        send: (t, c) => t.send({ method: 'GET', url: `${t.target.baseUrl}/api/v4/account`, headers: { authorization: c.header } }),
        expect: [status(401)],
      },
    ),
    propertyRule(
      { id: 'api.bearer.forged', requires: [], needs: ['one-code'], title: 'A forged access token (re-signed, tampered, unsigned) is refused with 401',
        reading: 'The access token is a JWT (§2.2) the service signed: the same claims under another key or algorithm, altered claims or signature, or alg none must not authenticate (RFC 6750 §3.1); 403 is non_strict.' },
      {
        // One real access token per run of the rule, forged in every way by the cases.
        setup: async (t) => (await obtainTokens(t)).access_token,
        cases: () => fc.constantFrom(...FORGERIES),
        send: async (t, how, real) => t.send(accountRequest(t.target, await forge(real, how))),
        expect: [status(401)],
      },
    ),
  ],
});
