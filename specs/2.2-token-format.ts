/**
 * §2.2 Credentials, what the spec and the RFCs it relies on say about their form: the access token is a signed JWT
 * (RFC 7519, RFC 8725) whose readable claims hold no secret and whose jti is unique; codes and refresh tokens are
 * unguessable (RFC 6749 §10.10); token answers are not cached (RFC 6749 §5.1); a bearer refusal carries the Bearer
 * challenge (RFC 6750 §3); an unsigned JWT never authenticates.
 */
import {
  accountRequest, accessTokenSigned, apiToken, cacheControlNoStore, claimsHoldNoSecret, claimsObserved, codeGrant, defineSpec, distinctJti, exchange, exchangeFreshCode, exchangeRule, freshCode, type HttpRequest, type HttpResponse, obtainTokens, refreshTokens, scenarioRule, status, step, sweepRule, type TokenPair, tokensOf, unguessable, unsign, UNSIGNED_FORMS, type UnsignedForm, wwwAuthenticateBearer, wwwAuthenticateError,
} from './kit.js';

/** Codes and refresh tokens sampled by the entropy rule. */
const CODE_SAMPLES = 16;
const REFRESH_SAMPLES = 4;

/** Authorization headers every protected resource refuses with 401 (none, empty, another scheme, a token nobody issued). */
const REFUSED_HEADERS: readonly (string | undefined)[] = [undefined, 'Bearer', 'Basic dXNlcjpwYXNz', 'Bearer not-a-token-anyone-issued-0123456789', 'Bearer eyJhbGciOiJSUzI1NiJ9.eyJqdGkiOiJ4In0.c2ln'];
/** Of those, the ones that carry a token, which RFC 6750 §3.1 calls invalid_token. */
const INVALID_TOKENS: readonly string[] = ['Bearer not-a-token-anyone-issued-0123456789', 'Bearer eyJhbGciOiJSUzI1NiJ9.eyJqdGkiOiJ4In0.c2ln'];

const showHeader = (h: string | undefined) => (h === undefined ? 'no Authorization' : `Authorization: ${h.length > 24 ? `${h.slice(0, 24)}…` : h}`);
function withAuthorization(baseUrl: string, header: string | undefined): HttpRequest {
  const headers: Record<string, string> = header === undefined ? {} : { authorization: header };
  return { method: 'GET', url: `${baseUrl}/api/v4/account`, headers };
}

export default defineSpec({
  section: '2.2',
  title: 'Credentials: form of the tokens',
  level: 'should',
  rules: [
    exchangeRule(
      { id: 'oauth.jwt.signed', requires: [], needs: ['fresh-code'], title: 'The access token is a signed JWT: its alg names a signature or MAC algorithm and its signature is present',
        reading: 'RFC 8725 §3.1–3.2: a JWT names a signature algorithm and carries the signature; none is never used. The live service signs RS256 (docs/field-notes.md). Any signature or MAC algorithm passes (HS256 too: the issuer is the only verifier, K24); alg none or an empty signature fails.' },
      { send: (t) => exchangeFreshCode(t), expect: [status(200), accessTokenSigned] },
    ),
    exchangeRule<HttpResponse, string>(
      { id: 'oauth.jwt.no-secrets', requires: [], needs: ['fresh-code'], title: 'The access token\'s claims carry neither the client secret nor the refresh token',
        reading: 'RFC 7519 §4: the claims of a signed JWT are readable by anyone who holds the token (it is not encrypted); a secret there is a secret given to every holder. The authorization code, spent once the token exists, is only recorded when it is among them (K23).' },
      {
        setup: (t) => freshCode(t),
        send: (t, code) => exchange(t, codeGrant(t.target, code)),
        expect: (t, code) => [status(200), claimsHoldNoSecret([t.credentials.clientSecret], [code])],
      },
    ),
    exchangeRule<readonly HttpResponse[]>(
      { id: 'oauth.jwt.jti-unique', requires: [], needs: ['fresh-code'], title: 'Each access token is distinct, and so is its jti when it carries one (a code exchange and two refreshes)',
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
      { id: 'oauth.jwt.claims', level: 'info', requires: [], needs: ['fresh-code'], title: 'Which claims the access token carries and what its audience is',
        reading: 'The spec says only that the access token is a JWT; docs/field-notes.md lists the live service\'s claims (aud, jti, iat, nbf, exp, sub, account_id, base_domain, api_domain, scopes). Recorded.' },
      { send: (t) => exchangeFreshCode(t), expect: [claimsObserved] },
    ),
    scenarioRule(
      { id: 'oauth.token.entropy', level: 'must', requires: [], needs: ['fresh-code'],
        title: `Authorization codes and refresh tokens are unguessable: ${CODE_SAMPLES} codes and ${REFRESH_SAMPLES} refresh tokens, at least 128 bits each, none repeated`,
        reading: 'RFC 6749 §10.10: the probability of guessing a code or token must be at most 2^-128. Estimated from the shortest value\'s length and the alphabet the values span; a short prefix or a counter shows as repeats or too few bits.' },
      {
        steps: [
          step('authorization codes', async (t) => Promise.all(Array.from({ length: CODE_SAMPLES }, () => freshCode(t))), [unguessable('codes')]),
          step('refresh tokens', async (t) => (await Promise.all(Array.from({ length: REFRESH_SAMPLES }, () => obtainTokens(t)))).map((p) => p.refresh_token), [unguessable('refresh tokens')]),
        ],
      },
    ),
    scenarioRule(
      { id: 'oauth.token.no-store', section: '4.1', level: 'must', requires: [], needs: ['fresh-code'],
        title: 'Token answers (code and refresh exchanges) carry Cache-Control: no-store',
        reading: 'RFC 6749 §5.1: the authorization server MUST include Cache-Control: no-store in any response containing tokens, so no cache keeps them. The spec does not restate it: an answer without it is non_strict (K26).' },
      {
        steps: [
          step('code exchange', (t) => exchangeFreshCode(t), [status(200), cacheControlNoStore]),
          step('refresh exchange', async (t) => refreshTokens(t, (await obtainTokens(t)).refresh_token), [status(200), cacheControlNoStore]),
        ],
      },
    ),
    sweepRule<string | undefined>(
      { id: 'api.bearer.www-authenticate', section: '5.1', level: 'must', requires: [],
        title: 'A 401 of the account API carries WWW-Authenticate: Bearer',
        reading: 'RFC 6750 §3: a resource server MUST include the WWW-Authenticate header with the Bearer scheme when a request lacks valid credentials. Missing, empty, foreign-scheme and unknown tokens are sent; a 403 answer is judged by api.bearer.* rules, not here. The spec does not restate the challenge: a 401 without it is non_strict (K30); any parameters (realm, error, error_description) are allowed.' },
      {
        named: REFUSED_HEADERS,
        send: (t, header) => t.send(withAuthorization(t.target.baseUrl, header)),
        expect: [status(401), wwwAuthenticateBearer],
        label: showHeader,
      },
    ),
    sweepRule<string>(
      { id: 'api.bearer.invalid-token-error', section: '5.1', requires: [],
        title: 'A 401 for a token that is not valid names error="invalid_token" in its challenge',
        reading: 'RFC 6750 §3.1: when the token is expired, revoked, malformed or invalid the resource server SHOULD answer 401 with error="invalid_token" in the challenge (a request without a token gets no error code). The spec does not restate it: a challenge without error="invalid_token" is non_strict (K30).' },
      {
        named: INVALID_TOKENS,
        send: (t, header) => t.send(withAuthorization(t.target.baseUrl, header)),
        expect: [status(401), wwwAuthenticateError('invalid_token')],
        label: showHeader,
      },
    ),
    sweepRule<UnsignedForm, HttpResponse, TokenPair>(
      { id: 'api.bearer.unsigned', section: '5.1', level: 'must', requires: [], needs: ['fresh-code'],
        title: 'A real access token made unsigned (alg none in any case, no alg, empty or missing signature) is refused with 401',
        reading: 'The access token is a JWT the service signed (§2.2); RFC 8725 §3.1: a token without a verified signature must not authenticate, whatever the header claims. 403 is non_strict.' },
      {
        setup: obtainTokens,
        named: UNSIGNED_FORMS,
        send: (t, form, pair) => t.send(accountRequest(t.target, unsign(pair.access_token, form))),
        expect: [status(401)],
        label: (form) => form,
      },
    ),
    sweepRule<string, HttpResponse, string>(
      { id: 'api.bearer.scheme-case', section: '5.1', requires: [],
        title: 'The Bearer scheme is accepted in any letter case',
        reading: 'RFC 7235 §2.1 and RFC 6750 §2.1: the authentication scheme is case-insensitive; a client that sends "bearer" is right. The spec writes only "Bearer" and does not restate the RFC: a 401 to another case is non_strict (K29).' },
      {
        setup: apiToken,
        named: ['bearer', 'BEARER', 'bEaReR'],
        send: (t, scheme, token) => t.send(withAuthorization(t.target.baseUrl, `${scheme} ${token}`)),
        expect: [status(200, { refused: 'non_strict' })],
        label: (scheme) => scheme,
      },
    ),
  ],
});
