/**
 * §5.1 Account API.
 *
 * §5.1 Account API authentication: the bearer access token; what is not one (malformed headers, forged tokens) gets 401.
 *
 * HTTP robustness of every non-chat endpoint (§4.1 token exchange, §5.1 account API, §4.2 lists), over the endpoint
 * catalogue of src/protocol/endpoints.ts rather than a few hand-picked routes: unknown paths, wrong methods (no token
 * ever through GET), bodies that are JSON of the wrong top-level type or too large, the bearer on every /api/v4
 * endpoint, and generated requests of any shape that never get a 5xx.
 *
 * §5.1 Account API, the statements the bearer rules leave: transport security of every endpoint a secret travels to,
 * Authorization headers no client should send, the access_token query parameter, and what the account answer is.
 *
 * §5.1 account API: the challenge of a token that was valid once (expired, revoked) or looks like one (forged), RFC 6750 §3.1.
 *
 * The spec's preamble: {base_url} is the address of one customer account, each account on its own sub-domain. A
 * bearer granted in one account is no key to another account's address (§5.1 item 1–2, RFC 6750 §3.1).
 */
import fc from 'fast-check';
import {
  ACCOUNT_QUERIES, accountRequest, BEARER_ENDPOINTS, bearerProbe, type Endpoint, anyJsonBody, apiToken, createLongLived, defineGroup, endpointRequest, ENDPOINTS, exchangeRule, foreignAccountRequest, foreignAddress, BEARER_KINDS, foreignBearers, type ForeignBearers, type KindedBearer, forge, FORGERIES, type HttpResponse, jsonBodyOfAnyJsonType, malformedAuthorization, mediaTypeAndKeysObserved, noPlainHttpLinks, noServerError, notJsonText, observeTls, obtainTokens, optionalApiToken, propertyRule, refreshTokenPresent, refreshTokens, revocableLongLived, revoke, revokeLongLived, scenarioRule, servedOverTls, status, statusObserved, statusOneOf, step, sweepRule, type TokenPair, tokensOf, unsign, UNSIGNED_FORMS, type UnsignedForm, whenAccepted, withClockAdvanced, wwwAuthenticateBearer, wwwAuthenticateError, type ForeignAddress, accountWorks,
} from '../kit.js';
import { STEP_OWNERS, TargetAnswer, eachAnswer, bearerAt, credentialProbe, credentialPlaceName, CREDENTIAL_PLACES, type CredentialPlace, type Forgery, statusIn } from '../kit.js';
import {
  REFUSED_HEADERS, INVALID_TOKENS, showHeader, refusedCase, MALFORMED_CASES, withAuthorization, type MethodCase, METHOD_CASES, UNKNOWN_PATHS, KNOWN, type NoAuthCase, NO_AUTH_CASES, queryString, type OddHeader, ODD_HEADERS, type TlsEndpoint, TLS_ENDPOINTS, type Stale, PAST_EXPIRY_MARGIN_SECONDS,
} from './support.js';
import { type Credentials, pairAndCode } from '../fixtures/oauth.js';

/** One bearer kind at one place of another account's address (api.base-url.per-account). */
interface PerAccountCase {
  readonly kind: KindedBearer['kind'];
  readonly place: CredentialPlace;
}

/** The case a bearer of another account is (the places table): its kind. */
const foreignCase = (kind: KindedBearer['kind']): string => (kind === 'oauth-access' ? 'OAuth access token of another account' : 'long-lived token of another account');

export default defineGroup({
  heading: 'Account API',
  rules: [
    sweepRule<string | undefined>(
      { id: 'api.bearer.www-authenticate', title: 'A 401 of the account API carries WWW-Authenticate: Bearer',
        reading: 'RFC 6750 §3: a resource server MUST include the WWW-Authenticate header with the Bearer scheme when a request lacks valid credentials. Missing, empty, foreign-scheme and unknown tokens are sent; a 403 answer is judged by api.bearer.* rules, not here. The spec does not restate the challenge: a 401 without it is non_strict (K30); any parameters (realm, error, error_description) are allowed.' },
      {
        named: REFUSED_HEADERS,
        send: (t, header) => t.send(withAuthorization(t.target.baseUrl, header)),
        expect: [status(401), wwwAuthenticateBearer],
        label: showHeader,
        caseOf: refusedCase,
      },
    ),
    sweepRule<{ readonly header: string; readonly place: CredentialPlace }>(
      { id: 'api.bearer.invalid-token-error', level: 'should', title: 'A 401 for a token that is not valid names error="invalid_token" in its challenge, at the account, each list and page 2 of each list',
        reading: 'RFC 6750 §3.1: when the token is expired, revoked, malformed or invalid the resource server SHOULD answer 401 with error="invalid_token" in the challenge (a request without a token gets no error code). Each unknown token at every place a bearer is checked (a list that builds its own refusal, or a later page, may drop the error). The spec does not restate it: a challenge without error="invalid_token" is non_strict (K30).' },
      {
        named: INVALID_TOKENS.flatMap((header) => CREDENTIAL_PLACES.map((place) => ({ header, place }))),
        send: (t, c) => t.send(credentialProbe(t.target, c.place, c.header)),
        expect: [status(401), wwwAuthenticateError('invalid_token')],
        label: (c) => `${credentialPlaceName(c.place)} ${showHeader(c.header)}`,
        caseOf: (c) => refusedCase(c.header),
      },
    ),
    sweepRule<{ readonly form: UnsignedForm; readonly place: CredentialPlace }, HttpResponse, TokenPair>(
      { id: 'api.bearer.unsigned', needs: ['fresh-code'],
        title: 'A real access token made unsigned (alg none in any case, no alg, empty or missing signature) is refused with 401 at the account, each list and page 2 of each list',
        reading: 'The access token is a JWT the service signed (§2.2); RFC 8725 §3.1: a token without a verified signature must not authenticate, whatever the header claims. Every form at every place a bearer is checked (issue 39: a server that verifies in one handler, or on the first page only, lets it through at the others). 403 is non_strict.' },
      {
        setup: obtainTokens,
        named: UNSIGNED_FORMS.flatMap((form) => CREDENTIAL_PLACES.map((place) => ({ form, place }))),
        send: (t, c, pair) => t.send(bearerAt(t.target, c.place, unsign(pair.access_token, c.form))),
        expect: [status(401)],
        label: (c) => `${c.form} at ${credentialPlaceName(c.place)}`,
        caseOf: () => 'unsigned JWT',
      },
    ),
    sweepRule<string, HttpResponse, string>(
      { id: 'api.bearer.scheme-case', level: 'should', title: 'The Bearer scheme is accepted in any letter case',
        reading: 'RFC 7235 §2.1 and RFC 6750 §2.1: the authentication scheme is case-insensitive; a client that sends "bearer" is right. The spec writes only "Bearer" and does not restate the RFC: a 401 to another case is non_strict (K29).' },
      {
        setup: apiToken,
        named: ['bearer', 'BEARER', 'bEaReR'],
        send: (t, scheme, token) => t.send(withAuthorization(t.target.baseUrl, `${scheme} ${token}`)),
        expect: [status(200, { refused: 'non_strict' })],
        label: (scheme) => scheme,
      },
    ),
    exchangeRule(
      { id: 'oauth.refresh.without-secret', needs: ['one-code'], title: 'A refresh exchange without client_secret succeeds',
        reading: '§4.1 lists client_secret as optional for the refresh grant and §5.1.3 says "secret optional on refresh". "Listed as optional" is not a promise that every server takes it: a refusal with 400 or 401 is non_strict (K12).' },
      {
        send: async (t) => refreshTokens(t, (await obtainTokens(t)).refresh_token, { withSecret: false }),
        expect: [status(200, { refused: 'non_strict' }), whenAccepted(refreshTokenPresent)],
      },
    ),
    exchangeRule(
      { id: 'oauth.refresh.new-access-token-works', needs: ['one-code'], title: 'The access token from a refresh exchange works at /api/v4/account' },
      {
        send: async (t) => {
          const first = await obtainTokens(t);
          const second = tokensOf(await refreshTokens(t, first.refresh_token), 'the refresh exchange');
          return t.send(accountRequest(t.target, second.access_token));
        },
        expect: accountWorks,
      },
    ),
    sweepRule<{ readonly what: 'a refresh token' | 'an authorization code'; readonly place: CredentialPlace }, HttpResponse, Credentials>(
      { id: 'api.bearer.not-an-access-token', needs: ['fresh-code'],
        title: 'A refresh token or an authorization code sent as the bearer is refused with 401 at the account, each list and page 2 of each list',
        reading: '§5.1.1: the bearer is the access token. A refresh token is for the token endpoint only (RFC 6749 §1.5) and a code is not a token at all; both are invalid_token (RFC 6750 §3.1), at every place a bearer is checked (issue 39). 403 is non_strict.' },
      {
        setup: pairAndCode,
        named: (['a refresh token', 'an authorization code'] as const).flatMap((what) => CREDENTIAL_PLACES.map((place) => ({ what, place }))),
        send: (t, c, f) => t.send(bearerAt(t.target, c.place, c.what === 'a refresh token' ? f.pair.refresh_token : f.code)),
        expect: [status(401)],
        label: (c) => `${c.what} as the bearer at ${credentialPlaceName(c.place)}`,
        caseOf: (c) => `${c.what} as the bearer`,
      },
    ),
    sweepRule<CredentialPlace, HttpResponse, string>(
      { id: 'api.bearer.access-token-works', needs: ['one-code'], title: 'An access token from the code exchange works as a bearer at /api/v4/account, each list and page 2 of each list',
        reading: '§4.1: all /api/v4 calls carry the bearer, and with it they are answered: the account with its answer (200), each list with a page or no record (200 or 204), page 2 as page 1 (issue 39: a server that takes the bearer on the first page only refuses the pages a client follows).' },
      {
        setup: async (t) => (await obtainTokens(t)).access_token,
        named: CREDENTIAL_PLACES,
        send: (t, place, token) => t.send(bearerAt(t.target, place, token)),
        expect: (_t, place) => (place.endpoint.name === 'account' ? accountWorks : [statusIn(200, 204)]),
        label: credentialPlaceName,
        caseOf: () => 'the access token',
      },
    ),
    exchangeRule(
      { id: 'api.bearer.missing', title: '/api/v4/account without an Authorization header is refused with 401',
        reading: '§5.1.1: every /api/v4 request carries the bearer. 401 as RFC 6750 §3.1 states; 403 is non_strict. The lists and their later pages are probed by api.bearer.every-endpoint.' },
      { send: (t) => t.send(accountRequest(t.target, undefined)), expect: [status(401)], case: 'no Authorization' },
    ),
    sweepRule<CredentialPlace>(
      { id: 'api.basic.client-credentials', title: 'The integration\'s client_id and secret as HTTP Basic credentials are refused with 401 at /api/v4/account, each list and page 2 of each list',
        reading: '§5.1.1: every /api/v4 request carries a bearer access token (or a long-lived token); the integration\'s own credentials are for the token endpoint (§5.1.3), not for the API (security: credentials that bypass the grant), at every place a credential is checked (issue 39). 401; 403 is non_strict.' },
      {
        named: CREDENTIAL_PLACES,
        send: (t, place) => t.send(credentialProbe(t.target, place, `Basic ${Buffer.from(`${t.credentials.clientId}:${t.credentials.clientSecret}`).toString('base64')}`)),
        expect: [status(401)],
        label: credentialPlaceName,
        caseOf: () => 'Basic client credentials',
      },
    ),
    propertyRule(
      { id: 'api.bearer.malformed', title: '/api/v4/account with a malformed or unknown bearer is refused with 401',
        reading: '§5.1.1 and RFC 6750 §3.1: a missing scheme, an empty token, another scheme, or a token nobody issued is invalid_token / invalid_request, 401; 403 is non_strict. Each case names what is wrong with the header.' },
      {
        cases: () => malformedAuthorization,
        send: (t, c) => t.send({ method: 'GET', url: `${t.target.baseUrl}/api/v4/account`, headers: { authorization: c.header } }),
        expect: [status(401)],
        // The same cases at the lists and their later pages: api.bearer.every-endpoint.
        caseOf: (c) => MALFORMED_CASES[c.kind],
      },
    ),
    sweepRule<{ readonly how: Forgery; readonly place: CredentialPlace }, HttpResponse, string>(
      { id: 'api.bearer.forged', needs: ['one-code'], title: 'A forged access token (re-signed, tampered, unsigned) is refused with 401 at the account, each list and page 2 of each list',
        reading: 'The access token is a JWT (§2.2) the service signed: the same claims under another key or algorithm, altered claims or signature, or alg none must not authenticate (RFC 6750 §3.1), at every place a bearer is checked (issue 39); 403 is non_strict.' },
      {
        // One real access token per run of the rule, forged in every way, each forgery sent to every place.
        setup: async (t) => (await obtainTokens(t)).access_token,
        named: FORGERIES.flatMap((how) => CREDENTIAL_PLACES.map((place) => ({ how, place }))),
        send: async (t, c, real) => t.send(bearerAt(t.target, c.place, await forge(real, c.how))),
        expect: [status(401)],
        label: (c) => `${c.how} at ${credentialPlaceName(c.place)}`,
        caseOf: () => 'forged JWT',
      },
    ),
    sweepRule<string, HttpResponse, string>(
      { id: 'http.unknown-path', level: 'should', title: 'An unknown path under /api/v4 (with a valid bearer) or /oauth2 is answered 404',
        reading: 'HTTP semantics (RFC 9110 §15.5.5): a path the service does not serve is Not Found; a 2xx would pretend a resource exists. Another 4xx is non_strict. Another version segment (/api/v5/account) need not be unknown: §9 fixes v4 for the account API and leaves other versions open, so a 2xx there is recorded (K40).' },
      {
        setup: apiToken,
        named: [...UNKNOWN_PATHS, '/oauth2/no-such-endpoint'],
        cases: () => fc.stringMatching(/^[a-z][a-z0-9_-]{2,12}$/).filter((s) => !KNOWN.has(s)).map((s) => `/api/v4/${s}`),
        send: (t, path, token) => t.send({ method: 'GET', url: `${t.target.baseUrl}${path}`, headers: { authorization: `Bearer ${token}` } }),
        expect: (_t, path) => [path.startsWith('/api/v5/') ? status(404, { accepted: 'informational' }) : status(404)],
        label: (path) => path,
      },
    ),
    sweepRule<MethodCase, HttpResponse, string>(
      { id: 'http.wrong-method', level: 'should', title: 'Every endpoint answers another method than its own with 405 (a valid bearer sent)',
        reading: 'RFC 9110 §15.5.6: a method the resource does not support is 405 (with or without Allow, K38). Sent with a valid bearer and a well-formed body, so only the method is wrong; another 4xx is non_strict, a 2xx fails.' },
      {
        setup: apiToken,
        named: METHOD_CASES,
        send: (t, c, token) => t.send(endpointRequest(t.target, c.endpoint, { method: c.method, ...(c.endpoint.auth === 'bearer' ? { bearer: token } : {}) })),
        expect: [status(405)],
        label: (c) => `${c.method} ${c.endpoint.name}`,
      },
    ),
    sweepRule<NoAuthCase>(
      { id: 'api.bearer.every-endpoint', title: 'Every /api/v4 endpoint (account, the four lists, page 2 of each list) refuses a request without a valid bearer with 401 and the Bearer challenge',
        reading: '§4.1 and §5.1.1: all /api/v4 calls carry the bearer; RFC 6750 §3: 401 with WWW-Authenticate: Bearer. Each refused header (none, an empty Bearer, another scheme, two tokens, garbage, an unknown opaque or JWT-shaped token) at each place a credential is checked, page 2 of a list included (issue 39). 403 is non_strict, and so is a 401 without the challenge (the spec does not restate it, K30).',
        covers: ['7/401'] },
      {
        named: NO_AUTH_CASES,
        send: (t, c) => t.send(credentialProbe(t.target, c.place, c.header)),
        expect: [status(401), wwwAuthenticateBearer],
        label: (c) => `${credentialPlaceName(c.place)} ${showHeader(c.header)}`,
        caseOf: (c) => refusedCase(c.header),
      },
    ),
    propertyRule(
      { id: 'http.no-server-error', level: 'should', title: 'Generated requests to every endpoint (any method, query, body, bearer) never get a 5xx',
        reading: 'Robustness: whatever a client sends, the service answers with a 2xx or a 4xx. Cases span the whole endpoint catalogue.' },
      {
        cases: () => fc.record({
          endpoint: fc.constantFrom(...ENDPOINTS),
          method: fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH'),
          query: queryString,
          body: fc.option(fc.oneof(notJsonText, anyJsonBody), { nil: undefined }),
          bearer: fc.option(fc.stringMatching(/^[A-Za-z0-9._~-]{0,40}$/), { nil: undefined }),
        }),
        send: (t, c) => t.send(endpointRequest(t.target, c.endpoint, {
          method: c.method, query: c.query,
          ...(c.bearer === undefined ? {} : { bearer: c.bearer }),
          ...(c.body === undefined || c.method === 'GET' ? {} : { body: c.body }),
        })),
        expect: [noServerError],
        label: (c) => `${c.method} ${c.endpoint.name}${c.query}`,
      },
    ),
    sweepRule<TlsEndpoint, Awaited<ReturnType<typeof observeTls>>, string | undefined>(
      { id: 'http.tls', title: 'The access-granting page, the token endpoint and the account API are served over TLS with a certificate that verifies, and hand out no plain-http link',
        reading: 'RFC 6749 §3.1 and §3.2 (TLS at both endpoints) and RFC 6750 §5.3 (bearer tokens only over TLS). A remote target must be https and its certificate must verify with the default trust store. A loopback target (the embedded emulator) is exempt from the scheme: its traffic never leaves the machine, so the finding is informational there. Links an answer hands out (Location, HAL href) must not point at plain http on another host, where a client would follow them with its bearer.' },
      {
        setup: optionalApiToken,
        named: TLS_ENDPOINTS,
        send: (t, endpoint, token) => {
          const requests = {
            'access-granting page': { method: 'GET', url: `${t.target.authUrl}/oauth?${new URLSearchParams({ client_id: t.credentials.clientId, state: 'tls-probe', mode: 'popup' })}` },
            'token endpoint': { method: 'POST', url: `${t.target.baseUrl}/oauth2/access_token`, headers: { 'content-type': 'application/json' }, body: '{}' },
            'account API': accountRequest(t.target, token),
          } as const;
          return observeTls(t, endpoint, requests[endpoint]);
        },
        expect: [servedOverTls, noPlainHttpLinks],
        label: (endpoint) => endpoint,
      },
    ),
    sweepRule<OddHeader>(
      { id: 'api.bearer.odd-headers', level: 'should', title: 'An oversized or non-ASCII Authorization header is refused with 401 (or 400, 431), never a 5xx or a dropped connection',
        reading: 'HTTP robustness: the header carries no valid bearer, so 401 (RFC 6750 §3.1) or 400 (malformed); 431 where the header block is over the server\'s limit (RFC 6585 §5). Another 4xx is non_strict; a 2xx, a 5xx or a reset fails. Repeated Authorization headers are not sent (the kit sends one value per header).' },
      {
        named: ODD_HEADERS,
        send: (t, c) => t.send({ method: 'GET', url: `${t.target.baseUrl}/api/v4/account`, headers: { authorization: c.header } }),
        expect: [statusOneOf([401, 400, 431])],
        label: (c) => c.what,
      },
    ),
    exchangeRule(
      { id: 'api.bearer.token-in-query', level: 'info', title: 'Records whether a valid access token in the access_token query parameter (no header) authenticates',
        reading: 'RFC 6750 §2.3 allows the query parameter but warns that URLs leak; the spec names only the header. Recorded, not judged.' },
      {
        setup: apiToken,
        send: (t, token) => t.send({ method: 'GET', url: `${t.target.baseUrl}/api/v4/account?${new URLSearchParams({ access_token: token })}` }),
        expect: [statusObserved('token in query', { accepted: 'the query parameter authenticates (tokens in URLs reach logs and Referer headers)', refused: 'only the Authorization header authenticates' })],
      },
    ),
    sweepRule<(typeof ACCOUNT_QUERIES)[number], HttpResponse, string>(
      { id: 'api.account.query-no-server-error', section: '4.1', level: 'should',
        title: 'GET /api/v4/account answers every with= a client sends — each known value, all of them, as an array, repeated, empty, unknown — without a 5xx',
        reading: 'Robustness: §4.1 shows the account call and not its answer; with= is the live service\'s (docs/field-notes.md), and the public clients send it as a comma list or as an array. Whatever the target makes of a value (adds it, ignores it, refuses it), a 2xx and a 4xx both pass; only a 5xx, a reset or a hang fails.' },
      {
        setup: apiToken,
        named: ACCOUNT_QUERIES,
        send: (t, c, token) => t.send(accountRequest(t.target, token, c.query)),
        expect: [noServerError],
        label: (c) => c.what,
      },
    ),
    exchangeRule(
      { id: 'api.account.body', section: '4.1', level: 'info', title: 'Records the media type and top-level keys of the GET /api/v4/account answer',
        reading: '§4.1 does not show the account answer; what the target sends is recorded for clients that read it.' },
      { setup: apiToken, send: (t, token) => t.send(accountRequest(t.target, token)), expect: [mediaTypeAndKeysObserved] },
    ),
    sweepRule<'account' | 'leads', HttpResponse, string>(
      { id: 'api.bodies.json', title: 'The account API answers (/api/v4/account and a list page) carry a JSON media type and parse as JSON',
        reading: '§0: all bodies are JSON unless stated otherwise. Any JSON media type passes (the live service sends application/hal+json, docs/field-notes.md); a list\'s 204 has no body to judge.' },
      {
        setup: apiToken,
        named: ['account', 'leads'],
        send: (t, which, token) => t.send(which === 'account' ? accountRequest(t.target, token) : { method: 'GET', url: `${t.target.baseUrl}/api/v4/leads?limit=1`, headers: { authorization: `Bearer ${token}` } }),
        expect: [jsonBodyOfAnyJsonType],
        label: (which) => which,
      },
    ),
    sweepRule<{ readonly stale: Stale; readonly place: CredentialPlace }, HttpResponse, Record<Exclude<Stale, 'expired access token'>, string> & { readonly pair: TokenPair }>(
      { id: 'api.bearer.stale-token-error', level: 'should', requires: ['control'], exclusive: true,
        title: 'A 401 for an expired, a revoked or a forged token names error="invalid_token" in its challenge, at the account, each list and page 2 of each list',
        reading: 'RFC 6750 §3.1, which the spec does not restate (a challenge without the error is non_strict, K30): a token that is expired or revoked is invalid_token, named in the WWW-Authenticate challenge of the 401, at every place a bearer is checked. The expired token is used with the control clock moved 10 minutes past its expires_in (hence exclusive; the clock is put back after each place); the revoked one is a long-lived token revoked through the control API; the forged one is a real token re-signed with another key.' },
      {
        setup: async (t) => {
          // Two days: one day is the least the Keys tab takes, and the two clocks need not agree to the second.
          const made = await createLongLived(t, 2 * 86_400);
          await revokeLongLived(t, made.id);
          const pair = await obtainTokens(t);
          return { pair, 'revoked long-lived token': made.long_lived_token, 'forged access token': await forge(pair.access_token, 'signed-with-another-key') };
        },
        named: (['revoked long-lived token', 'forged access token', 'expired access token'] as const).flatMap((stale) => CREDENTIAL_PLACES.map((place) => ({ stale, place }))),
        send: async (t, { stale, place }, tokens) => {
          if (stale !== 'expired access token') return t.send(bearerAt(t.target, place, tokens[stale]));
          const { access_token, expires_in } = tokens.pair;
          return withClockAdvanced(t, async (advance) => {
            if (typeof expires_in !== 'number' || expires_in <= 0) throw new TargetAnswer(STEP_OWNERS.expiresIn, 'the token response has no positive expires_in (oauth.token-response.expires-in judges that)');
            await advance(expires_in + PAST_EXPIRY_MARGIN_SECONDS);
            return t.send(bearerAt(t.target, place, access_token));
          });
        },
        expect: [status(401), wwwAuthenticateError('invalid_token')],
        label: (c) => `${c.stale} at ${credentialPlaceName(c.place)}`,
        caseOf: (c) => c.stale,
      },
    ),
    sweepRule<PerAccountCase, HttpResponse, ForeignBearers>(
      { id: 'api.base-url.per-account', needs: ['oauth-access-token', 'second-base-url'], title: 'A token granted in one account is refused with 401 at another account\'s base URL, by the account and by each of the four lists, for an OAuth access token and a long-lived token',
        reading: 'Preamble: {base_url} is "the address of one customer account"; §5.1: the token holds the rights of the user who granted access, in the account he granted it in; §5.1.1: "an access token from the exchange or a long-lived token". Each kind of bearer the run has (an OAuth access token always, whatever LONG_LIVED_TOKEN says, and the long-lived token of the settings when there is one: a server that validates JWTs statelessly may bind one kind and not the other, R3-A1), first shown to answer 200 at BASE_URL, is sent to GET /api/v4/account and to each of the four lists (one page of one record: a server that binds the token in one handler only lets it through at the others, issue 32) at a second account\'s address (BASE_URL_2, else the control API\'s); it must be refused with 401 (RFC 6750 §3.1 invalid_token), never answered with either account. Another 4xx is non_strict.' },
      {
        setup: (t) => foreignBearers(t),
        named: () => BEARER_KINDS.flatMap((kind) => CREDENTIAL_PLACES.map((place) => ({ kind, place }))),
        unsent: (c, f) => f.unsent.get(c.kind),
        send: (t, c, f) => t.send({ ...bearerAt({ ...t.target, baseUrl: f.address }, c.place, f.bearers.find((b) => b.kind === c.kind)!.token), credential: c.kind }),
        expect: [status(401)],
        label: (c) => `${credentialPlaceName(c.place)} with the ${foreignCase(c.kind)}`,
        caseOf: (c) => foreignCase(c.kind),
      },
    ),
    exchangeRule<readonly HttpResponse[]>(
      { id: 'api.base-url.long-lived-per-account', needs: ['operator', 'second-base-url'], title: 'A long-lived token granted in one account is refused with 401 at another account\'s base URL, by the account, each list and page 2 of each list',
        reading: 'As api.base-url.per-account, for the other kind of bearer (§2.2: a long-lived token is made in one account and holds no grant, so a server that reads the account from the grant may not bind it): made for the run\'s account (through the control API, else by the operator on the Keys tab), shown to answer 200 at BASE_URL, then sent to GET /api/v4/account, each of the four lists and page 2 of each (issue 39), side by side, at a second account\'s address; 401 passes, another 4xx is non_strict. The token is revoked afterwards.',
        covers: ['2.2/Long-lived token'] },
      {
        send: async (t) => {
          const made = await revocableLongLived(t);
          try {
            const { address, token } = await foreignAddress(t, made.token);
            return await Promise.all(CREDENTIAL_PLACES.map((place) => t.send(bearerAt({ ...t.target, baseUrl: address }, place, token))));
          } finally {
            await revoke(t, made);
          }
        },
        expect: [eachAnswer(status(401))],
        case: foreignCase('long-lived'),
      },
    ),
  ],
});
