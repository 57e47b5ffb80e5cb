/**
 * §4.1 Authorization and tokens: Exchange code or refresh token.
 *
 * §4.1 Exchange code or refresh token, with §5.1 points 3–4 and the first rows of §7: what the token endpoint
 * refuses, and how. Invalid requests come from generators/token-requests.ts, each breaking one field one way.
 *
 * §4.1 Exchange code or refresh token, the refresh grant under attack: each field of a refresh exchange missing, bent
 * into a near miss or of the wrong JSON type is refused with 400, and a refused refresh leaves the refresh token usable
 * (§3.1: only an exchange consumes it). Cases come from generators/refresh-requests.ts.
 *
 * §4.1 Exchange code or refresh token: a credential is bound to the integration it was issued to (RFC 6749 §4.1.3,
 * §6, §10.2) and to its own grant: a code or refresh token of one integration presented by another, or one kind of
 * credential sent where another belongs, is refused. The second integration is the one the control API lists beside
 * CLIENT_ID, else CLIENT_ID_2 of the settings (src/steps/integrations.ts).
 *
 * §4.1 Exchange code or refresh token, redirect_uri: "must match the Redirect URI in the integration settings exactly"
 * (§5.1.4 "identical"). Every form a normalising comparison would take for the same address is refused: another host
 * with the same path, an added fragment or query, a toggled trailing slash, changed case, the scheme swapped either
 * way, an explicit default port, a dot segment, a percent-encoded letter. Variants from generators/refresh-requests.ts.
 *
 * §4.1 token endpoint, the HTTP statements the exchange rules leave: a valid exchange under another media type, the
 * RFC 6749 error member of each kind of refusal, and client credentials in HTTP Basic.
 */
import fc from 'fast-check';
import {
  anyJsonBody, asClient, cacheControlNoStore, codeFor, codeGrant, defineGroup, describeRefreshMutation, endpointRequest, ENDPOINTS, EQUIVALENT_SPELLINGS, errorMemberObserved, exchange, type ExchangeAtAddress, exchangeFreshCode, exchangeRule, exchangeAtForeignAddress, freshCode, type HttpResponse, jsonContentType, jsonObjectBody, mutation, noSecretEcho, noServerError, notJsonText, noTokenIssued, observedStatus, obtainTokens, propertyRule, redirectUriVariant, type RedirectUriVariant, refreshGrant, type RefreshMutation, refreshTokens, scenarioRule, status, statusObserved, statusOneOf, step, sweepRule, TOKEN_FIELDS, noTokenAtAnotherAddress, type TokenPair, tokenRequest, tokensFor, whenRefused, withInvalidUtf8, withInvalidUtf8In, clientError,
} from '../kit.js';
import {
  refusal, brokenRequest, brokenExchangeRule, REFRESH_WHY, brokenRefreshRule, bindingRefusal, type Other, withOther, OTHER_READING, applicableVariants, type MediaCase, MEDIA_CASES, type Refusal, REFUSALS, refusalRequest, WRONG_TOP_LEVEL, type WrongTopLevel, OVERSIZED_BYTES,
} from './support.js';
import { INVALID_UTF8_READING } from '../fixtures/chat.js';
import { freshCodeExchange, brokenRefresh, REFRESH_REFUSALS, type Credentials, pairAndCode } from '../fixtures/oauth.js';

export default defineGroup({
  heading: 'Exchange code or refresh token',
  rules: [
    scenarioRule(
      { id: 'oauth.token.no-store', title: 'Token answers (code and refresh exchanges) carry Cache-Control: no-store',
        reading: 'RFC 6749 §5.1: the authorization server MUST include Cache-Control: no-store in any response containing tokens, so no cache keeps them. The spec does not restate it: an answer without it is non_strict (K26).' },
      {
        steps: [
          step('code exchange', (t) => exchangeFreshCode(t), [status(200), cacheControlNoStore]),
          step('refresh exchange', async (t) => refreshTokens(t, (await obtainTokens(t)).refresh_token), [status(200), cacheControlNoStore]),
        ],
      },
    ),
    exchangeRule(
      { id: 'oauth.token-response.content-type', needs: ['one-code'], title: 'A successful exchange answers 200 with Content-Type application/json',
        reading: 'application/json with parameters (charset) is JSON; another +json type is non_strict.' },
      { send: freshCodeExchange, expect: [status(200), jsonContentType] },
    ),
    ...TOKEN_FIELDS.flatMap((field) => (['missing', 'wrong', 'wrong-type'] as const).map((b) => brokenExchangeRule(field, b))),
    propertyRule(
      { id: 'oauth.token.body-not-json', needs: [], title: 'A body that is not JSON is refused with 400 and a JSON body',
        reading: 'The request Content-Type is application/json; a body that does not parse is invalid data.' },
      {
        cases: () => notJsonText,
        send: (t, text) => t.send({ method: 'POST', url: `${t.target.baseUrl}/oauth2/access_token`, headers: { 'content-type': 'application/json' }, body: text }),
        expect: refusal,
      },
    ),
    propertyRule(
      { id: 'oauth.token.no-secret-echo', level: 'should', title: 'No refusal echoes the client secret (an echoed code or wrong secret is recorded)',
        reading: 'The client secret is the credential that must not travel back (§2.1 "visible only to administrators"); a code or a wrong value the client sent itself, echoed, is recorded (K23).' },
      {
        cases: () => fc.constantFrom(...TOKEN_FIELDS).chain((field) => mutation(field, 'wrong')),
        send: async (t, m) => exchange(t, await brokenRequest(t, m)),
        expect: (t) => [noSecretEcho([t.credentials.clientSecret], { requestFields: ['code', 'client_secret'] })],
      },
    ),
    propertyRule(
      { id: 'oauth.token.no-server-error', needs: [], level: 'should', title: 'Arbitrary JSON, form or malformed bodies never cause a 5xx' },
      {
        cases: () => fc.oneof(
          notJsonText.map((body) => ({ type: 'application/json', body })),
          anyJsonBody.map((body) => ({ type: 'application/json', body })),
          fc.dictionary(fc.constantFrom(...TOKEN_FIELDS, 'x'), fc.string({ maxLength: 12 })).map((d) => ({ type: 'application/x-www-form-urlencoded', body: new URLSearchParams(d).toString() })),
        ),
        send: (t, c) => t.send({ method: 'POST', url: `${t.target.baseUrl}/oauth2/access_token`, headers: { 'content-type': c.type }, body: c.body }),
        expect: [noServerError],
      },
    ),
    exchangeRule(
      { id: 'oauth.token.form-encoded', level: 'info', needs: ['one-code'], title: 'Whether a form-encoded code exchange is accepted (public PHP clients send one)',
        reading: 'The spec states a JSON request; docs/field-notes.md records form-encoded requests from the PHP client. Reported, not judged.' },
      {
        send: (t) => exchangeFreshCode(t, 'form'),
        expect: [observedStatus('form-encoded exchange', { json200: 'with a token pair' })],
      },
    ),
    exchangeRule<Awaited<ReturnType<typeof exchange>>, TokenPair>(
      { id: 'oauth.refresh.client-id.missing', title: 'A refresh exchange without client_id is refused with 400 and a JSON body',
        reading: `${REFRESH_WHY.client_id}. Another 4xx is non_strict.` },
      { setup: obtainTokens, send: (t, pair) => exchange(t, brokenRefresh(t, pair, { field: 'client_id', breakage: 'missing' })), expect: refusal },
    ),
    brokenRefreshRule('client_id', 'wrong'),
    brokenRefreshRule('client_id', 'wrong-type'),
    brokenRefreshRule('client_secret', 'wrong'),
    brokenRefreshRule('client_secret', 'wrong-type'),
    brokenRefreshRule('refresh_token', 'wrong'),
    brokenRefreshRule('refresh_token', 'wrong-type'),
    brokenRefreshRule('redirect_uri', 'wrong'),
    exchangeRule(
      { id: 'oauth.refresh.refresh-token.missing', needs: [], title: 'A refresh exchange without refresh_token is refused with 400 and a JSON body',
        reading: 'grant_type refresh_token names what is exchanged (§4.1); without it there is nothing to exchange. Valid client fields are sent, so only the missing token can be blamed.' },
      {
        send: (t) => {
          const { refresh_token: _dropped, ...fields } = refreshGrant(t.target, 'unused');
          return exchange(t, fields);
        },
        expect: refusal,
      },
    ),
    sweepRule<RefreshMutation, Awaited<ReturnType<typeof exchange>>, TokenPair>(
      { id: 'oauth.refresh.no-secret-echo', level: 'should', title: 'No refused refresh exchange echoes the refresh token, the client secret or the wrong value sent' },
      {
        setup: obtainTokens,
        named: [...REFRESH_REFUSALS, { field: 'refresh_token', breakage: 'wrong', nearMiss: 'char-appended' }],
        send: (t, m, pair) => exchange(t, brokenRefresh(t, pair, m)),
        expect: (t, m, pair) => {
          const sent = brokenRefresh(t, pair, m);
          return [noSecretEcho([t.credentials.clientSecret, pair.refresh_token], { recorded: [sent.client_secret, sent.refresh_token].filter((v): v is string => typeof v === 'string') })];
        },
        label: describeRefreshMutation,
      },
    ),
    scenarioRule<Other>(
      { id: 'oauth.token.code-bound-to-client', needs: ['second-integration', 'fresh-code'],
        title: 'An authorization code issued to one integration is refused when another integration exchanges it',
        reading: `RFC 6749 §4.1.3: the server must ensure the code was issued to the authenticated client. ${OTHER_READING} 400 (invalid_grant); another 4xx is non_strict.` },
      {
        setup: withOther,
        steps: [
          step<Other>('a code of the other integration, exchanged with CLIENT_ID', async (t, f) => exchange(t, codeGrant(t.target, await codeFor(t, f.other))), bindingRefusal),
          step<Other>('a code of CLIENT_ID, exchanged with the other integration', async (t, f) => exchange(t, codeGrant(asClient(t, f.other), await freshCode(t))), bindingRefusal),
        ],
      },
    ),
    scenarioRule<Other>(
      { id: 'oauth.refresh.bound-to-client', needs: ['second-integration', 'fresh-code'],
        title: 'A refresh token issued to one integration is refused when another integration exchanges it',
        reading: `RFC 6749 §6: the refresh token must be bound to the client it was issued to. ${OTHER_READING} 400 (invalid_grant); another 4xx is non_strict.` },
      {
        setup: withOther,
        steps: [
          step<Other>('a refresh token of CLIENT_ID, exchanged with the other integration', async (t, f) => exchange(t, refreshGrant(asClient(t, f.other), (await obtainTokens(t)).refresh_token)), bindingRefusal),
          step<Other>('a refresh token of the other integration, exchanged with CLIENT_ID', async (t, f) => exchange(t, refreshGrant(t.target, (await tokensFor(t, f.other)).refresh_token)), bindingRefusal),
        ],
      },
    ),
    scenarioRule<Credentials>(
      { id: 'oauth.token.grant-confusion', title: 'A credential sent in another grant\'s field (a code as refresh_token, an access or refresh token as code), or under another grant_type, is refused',
        reading: '§4.1: code is used with authorization_code and refresh_token with refresh_token; each grant accepts only its own kind of credential (RFC 6749 §4.1.3, §6), and the grant is the one grant_type names, whatever credential the body carries (a valid refresh token under grant_type authorization_code, a valid code under refresh_token). The code is fresh and unused, so only the confusion can refuse it. 400; another 4xx is non_strict.' },
      {
        setup: pairAndCode,
        steps: [
          step<Credentials>('an authorization code as refresh_token', (t, f) => exchange(t, refreshGrant(t.target, f.code)), bindingRefusal),
          step<Credentials>('an access token as refresh_token', (t, f) => exchange(t, refreshGrant(t.target, f.pair.access_token)), bindingRefusal),
          step<Credentials>('a refresh token as code', (t, f) => exchange(t, codeGrant(t.target, f.pair.refresh_token)), bindingRefusal),
          step<Credentials>('an access token as code', (t, f) => exchange(t, codeGrant(t.target, f.pair.access_token)), bindingRefusal),
          // The grant is grant_type's, whatever credential the body carries (a server choosing by the fields present).
          step<Credentials>('grant_type authorization_code carrying only a valid refresh_token', (t, f) => exchange(t, { ...refreshGrant(t.target, f.pair.refresh_token), grant_type: 'authorization_code' }), bindingRefusal),
          step<Credentials>('grant_type refresh_token carrying only a valid code', (t, f) => exchange(t, { ...codeGrant(t.target, f.code), grant_type: 'refresh_token' }), bindingRefusal),
        ],
      },
    ),
    exchangeRule<ExchangeAtAddress>(
      { id: 'oauth.token.code-bound-to-account', needs: ['fresh-code', 'second-base-url'],
        title: 'A code granted in one account gives no token that works at another account\'s address',
        reading: 'Preamble: {base_url} is "the address of one customer account" and serves /oauth2/access_token; §4.1: on Allow the integration is installed in the chosen account. A fresh code (granted in the run\'s account, as every rule that exchanges one at BASE_URL relies on) is exchanged at a second account\'s address (BASE_URL_2, else the control API\'s): 400 passes, another 4xx is non_strict. A token that works at that address fails (security, R2-A7): it reaches an account the user never chose. A token that address refuses (the code\'s own account\'s) is recorded: nothing the spec states refuses the exchange (variation code-any-account-address-own-account).' },
      {
        send: async (t) => exchangeAtForeignAddress(t, async () => codeGrant(t.target, await freshCode(t))),
        expect: [(o) => status(400, { accepted: 'informational' })(o.exchanged), (o) => whenRefused(jsonContentType)(o.exchanged), noTokenAtAnotherAddress('code')],
      },
    ),
    exchangeRule<ExchangeAtAddress>(
      { id: 'oauth.refresh.bound-to-account', needs: ['fresh-code', 'second-base-url'],
        title: 'A refresh token granted in one account gives no token that works at another account\'s address',
        reading: 'Preamble: {base_url} is "the address of one customer account" and serves /oauth2/access_token; §3.1: the refresh exchange issues new tokens of the same grant, so of the account the user chose. The refresh token of a fresh pair (granted in the run\'s account) is exchanged at a second account\'s address (BASE_URL_2, else the control API\'s): 400 passes, another 4xx is non_strict. As for a code (oauth.token.code-bound-to-account): a token that works at that address fails, one that address refuses is recorded (variation refresh-any-account-address-own-account).' },
      {
        send: async (t) => exchangeAtForeignAddress(t, async () => refreshGrant(t.target, (await obtainTokens(t)).refresh_token)),
        expect: [(o) => status(400, { accepted: 'informational' })(o.exchanged), (o) => whenRefused(jsonContentType)(o.exchanged), noTokenAtAnotherAddress('refresh token')],
      },
    ),
    sweepRule<RedirectUriVariant, HttpResponse>(
      { id: 'oauth.token.redirect-uri.variants', title: 'A code exchange whose redirect_uri is an equivalent-looking form of the registered one is refused with 400',
        reading: '§4.1 "must match exactly", §5.1.4 "identical", RFC 6749 §3.1.2.3 (simple string comparison): no normalisation of case, scheme, port, slash, query, fragment or encoding. A fresh code per variant, JSON as the spec states; another 4xx is non_strict. A spelling that names the same resource under URL normalisation (host case, an explicit default port, a dot segment, a percent-encoded letter) accepted is recorded, not failed (K27): the comparison is exact, but nothing else can be reached through it.' },
      {
        named: applicableVariants,
        what: 'redirect_uri variants',
        send: async (t, variant) => {
          const fields = codeGrant(t.target, await freshCode(t));
          return exchange(t, { ...fields, redirect_uri: redirectUriVariant(t.credentials.redirectUri, variant) });
        },
        expect: (_t, variant) => (EQUIVALENT_SPELLINGS.has(variant) ? [status(400, { accepted: 'informational' }), whenRefused(jsonContentType), whenRefused(jsonObjectBody)] : [status(400), whenRefused(jsonContentType), jsonObjectBody]),
        label: (variant) => variant,
      },
    ),
    sweepRule<MediaCase>(
      { id: 'oauth.token.content-type-other', level: 'should', title: 'A valid code exchange sent as text/plain, octet-stream or without Content-Type issues no token and is refused with 400 or 415',
        reading: '§4.1 names the JSON body (form-encoded is accepted too, docs/field-notes.md). A body under another media type is not a token request: 415 (RFC 9110 §15.5.16) or 400 (§4.1: invalid data); another 4xx is non_strict. Each body is a valid exchange with a fresh code, so a server that sniffs the body would issue a token, which fails.' },
      {
        named: MEDIA_CASES,
        send: async (t, c) => t.send({
          method: 'POST',
          url: `${t.target.baseUrl}/oauth2/access_token`,
          headers: c.contentType ? { 'content-type': c.contentType } : {},
          body: JSON.stringify(codeGrant(t.target, await freshCode(t))),
        }),
        expect: [noTokenIssued, statusOneOf([400, 415])],
        label: (c) => c.what,
      },
    ),
    sweepRule<Refusal>(
      { id: 'oauth.token.error-codes', level: 'info', title: 'Records the status, media type and error member of each kind of refused code exchange',
        reading: 'RFC 6749 §5.2 names invalid_request, invalid_client, invalid_grant and unsupported_grant_type; §4.1 does not show the error body. Recorded per kind, not judged.' },
      {
        named: REFUSALS,
        send: async (t, kind) => t.send(tokenRequest(t.target, await refusalRequest(t, kind))),
        expect: [errorMemberObserved],
        label: (kind) => kind,
      },
    ),
    exchangeRule(
      { id: 'oauth.token.basic-auth', level: 'info', title: 'Records whether a code exchange with the client credentials in HTTP Basic (none in the body) is accepted',
        reading: 'RFC 6749 §2.3.1: servers MUST support HTTP Basic for clients with a password; §4.1 puts client_id and client_secret in the body. Recorded, not judged.' },
      {
        send: async (t) => {
          const { client_id: _id, client_secret: _secret, ...rest } = codeGrant(t.target, await freshCode(t));
          const basic = Buffer.from(`${encodeURIComponent(t.credentials.clientId)}:${encodeURIComponent(t.credentials.clientSecret)}`).toString('base64');
          // The encoded pair reveals the secret: taught to the masker before it is sent.
          t.masker.add(basic);
          const req = tokenRequest(t.target, rest);
          return t.send({ ...req, headers: { ...req.headers, authorization: `Basic ${basic}` } });
        },
        expect: [statusObserved('HTTP Basic credentials', { accepted: 'accepted (RFC 6749 §2.3.1 client authentication)', refused: 'refused: only credentials in the body are taken' })],
      },
    ),
    sweepRule<string>(
      { id: 'oauth.token.invalid-utf8', level: 'should', needs: [], title: 'A token request with bytes that are not UTF-8 inside a JSON string, in an extra member or in a member the server reads, causes no 5xx and is refused',
        reading: `${INVALID_UTF8_READING} At the token endpoint the bytes also go into the members the server looks up (code, client_id, client_secret, redirect_uri), where a store that takes only UTF-8 breaks (R2-A10); the code is made up, so any 2xx fails (a success for credentials nobody issued), and a token fails.` },
      {
        named: ['x_note', 'code', 'client_id', 'client_secret', 'redirect_uri'],
        send: (t, member) => t.send({
          method: 'POST', url: `${t.target.baseUrl}/oauth2/access_token`, headers: { 'content-type': 'application/json' },
          body: member === 'x_note' ? withInvalidUtf8(codeGrant(t.target, `not-a-code-${t.runId}`)) : withInvalidUtf8In(codeGrant(t.target, `not-a-code-${t.runId}`), member),
        }),
        expect: [noServerError, clientError('refused'), noTokenIssued],
        label: (member) => (member === 'x_note' ? 'in an extra member' : `in ${member}`),
      },
    ),
    scenarioRule<string>(
      { id: 'oauth.token.no-get', title: 'A code exchange sent as GET with its fields in the query issues no token',
        reading: '§4.1 names POST for the exchange; RFC 6749 §3.2: the client MUST use POST at the token endpoint (a GET puts the code and the secret in URLs and logs). 405 expected; another 4xx is non_strict; a token fails.' },
      {
        setup: (t) => freshCode(t),
        steps: [
          step<string>('GET with the exchange in the query', (t, code) => {
            const query = new URLSearchParams(codeGrant(t.target, code) as Record<string, string>).toString();
            return t.send({ method: 'GET', url: `${t.target.baseUrl}/oauth2/access_token?${query}` });
          }, [noTokenIssued, status(405)]),
        ],
      },
    ),
    sweepRule<WrongTopLevel>(
      { id: 'oauth.token.wrong-json-type', title: 'A token request whose JSON body is not an object (an array, even of a valid request; a string; a number; null) is refused with 400',
        reading: '§4.1 lists the fields of one JSON object; any other top-level value is invalid data (400). The array of a valid exchange carries a fresh code, so a server that unwraps it would issue tokens.' },
      {
        named: WRONG_TOP_LEVEL,
        send: async (t, kind) => {
          const bodies: Record<WrongTopLevel, () => Promise<unknown>> = {
            'array-of-valid': async () => [codeGrant(t.target, await freshCode(t))],
            'empty-array': async () => [],
            string: async () => 'client_id',
            number: async () => 42,
            null: async () => null,
            true: async () => true,
          };
          return t.send({ method: 'POST', url: `${t.target.baseUrl}/oauth2/access_token`, headers: { 'content-type': 'application/json' }, body: JSON.stringify(await bodies[kind]()) });
        },
        expect: [status(400), jsonObjectBody],
        label: (kind) => kind,
      },
    ),
    scenarioRule(
      { id: 'oauth.token.oversized', level: 'should', needs: [], title: 'A 2 MB token request is answered without a breakage, and the endpoint answers normally afterwards',
        reading: 'The spec sets no size (the robustness reading, K36): a refusal (413, RFC 9110 §15.5.14, or 400) and an answer that reads the body both pass; a 5xx, a reset or a hang fails, as does an endpoint that stops answering.' },
      {
        steps: [
          step('2 MB body', (t) => t.send(endpointRequest(t.target, ENDPOINTS[0]!, { body: JSON.stringify({ ...ENDPOINTS[0]!.body!(t.target), refresh_token: 'x'.repeat(OVERSIZED_BYTES) }) })), [noServerError]),
          step('a normal request afterwards', (t) => t.send(endpointRequest(t.target, ENDPOINTS[0]!)), [status(400)]),
        ],
      },
    ),
    // The near misses of oauth.refresh.client-secret.wrong alter the real secret; none is empty, the value a form
    // or a client that defaults a missing setting to "" sends.
    exchangeRule<HttpResponse, TokenPair>(
      { id: 'oauth.refresh.client-secret.empty', requires: [],
        title: 'A refresh exchange with client_secret "" is refused with 400 and a JSON body, not taken as no secret',
        reading: '§5.1.3: the secret is optional on refresh, but one that is sent must be the right one (RFC 6749 §6 authenticates the client with it); "" is present and wrong. Reading it as absent lets anyone who holds a refresh token skip the secret by sending an empty one where the integration sends its secret. Another 4xx (401 invalid_client, RFC 6749 §5.2) is non_strict; accepted fails.' },
      {
        setup: obtainTokens,
        send: (t, pair) => exchange(t, { ...refreshGrant(t.target, pair.refresh_token), client_secret: '' }),
        expect: [status(400), jsonContentType, whenRefused(jsonObjectBody)],
      },
    ),
  ],
});
