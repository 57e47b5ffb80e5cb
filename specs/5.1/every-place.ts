/**
 * §5.1 and §0 at every place they govern (issue 32): a revoked or expired bearer is refused by each of the four lists as
 * by the account, and every answer of every endpoint (a list page, a refusal without a bearer, a wrong method) is JSON. The
 * places come from the endpoint catalogue (src/protocol/endpoints.ts), so a new endpoint is probed without an edit here.
 */
import {
  afterElapsed, bearerAt, credentialPlaceName, CREDENTIAL_PLACES, type CredentialPlace, eachAnswer, exchangeRule, type HttpResponse, obtainTokens, Precondition, BEARER_ENDPOINTS, LIST_ENDPOINTS, codeGrant, defineGroup, type Endpoint, endpointRequest, ENDPOINTS, exchange, freshCode, jsonBodyOfAnyJsonType, jsonContentType, revocableLongLived, revoke, status, sweepRule, tokensOf, wrongMethods, apiToken,
} from '../kit.js';
import { mustWork } from '../fixtures/oauth.js';

/** The two ways a bearer is revoked that need no other account: the Keys tab's revoke, and a code exchanged twice. */
type Revoked = 'revoked long-lived token' | 'access token of a code used twice';

interface RevokedCase {
  readonly place: CredentialPlace;
  readonly revoked: Revoked;
}

interface JsonCase {
  readonly endpoint: Endpoint;
  /** `page`: the endpoint's own method with a bearer; `no bearer`: the same without one (401); else the wrong method sent (405). */
  readonly what: 'page' | 'no bearer' | string;
}

const JSON_CASES: readonly JsonCase[] = [
  ...LIST_ENDPOINTS.map((endpoint) => ({ endpoint, what: 'page' })),
  ...BEARER_ENDPOINTS.map((endpoint) => ({ endpoint, what: 'no bearer' })),
  ...ENDPOINTS.flatMap((endpoint) => wrongMethods(endpoint).map((method) => ({ endpoint, what: method }))),
];

export default defineGroup({
  heading: 'Every endpoint',
  rules: [
    sweepRule<RevokedCase, Awaited<ReturnType<typeof exchange>>, Record<Revoked, string>>(
      { id: 'api.bearer.revoked-every-list', needs: ['operator', 'one-code'],
        title: 'Each of the four lists refuses a revoked bearer (a revoked long-lived token, the access token of a code used twice) with 401, as the account does',
        reading: '§3.1: a revoked long-lived token is invalid, and §5.1: every /api/v4 request carries a valid bearer; the account is probed by api.long-lived.revoked and oauth.token.code-reuse-revokes, the lists here, where a server that checks revocation in one handler only lets it through. 403 is non_strict. The code-reuse token follows RFC 6749 §4.1.2 (SHOULD revoke, K10): a list that still takes it is non_strict, as at the account.' },
      {
        setup: async (t) => {
          const made = await revocableLongLived(t);
          await mustWork(t, made.token);
          await revoke(t, made);
          const fields = codeGrant(t.target, await freshCode(t));
          const first = tokensOf(await exchange(t, fields), 'the first exchange');
          await exchange(t, fields);
          return { 'revoked long-lived token': made.token, 'access token of a code used twice': first.access_token };
        },
        // Every place a bearer is checked, the account and page 2 of each list included (issue 39).
        named: CREDENTIAL_PLACES.flatMap((place) => (['revoked long-lived token', 'access token of a code used twice'] as const).map((revoked) => ({ place, revoked }))),
        send: (t, c, tokens) => t.send(bearerAt(t.target, c.place, tokens[c.revoked])),
        expect: (_t, c) => [c.revoked === 'revoked long-lived token' ? status(401) : status(401, { accepted: 'non_strict' })],
        label: (c) => `${c.revoked} at ${credentialPlaceName(c.place)}`,
        caseOf: (c) => c.revoked,
      },
    ),
    exchangeRule<readonly HttpResponse[]>(
      { id: 'api.bearer.expired-every-list', needs: ['one-code', 'clock'], soakSeconds: 21 * 60, exclusive: true,
        title: 'Each of the four lists refuses an access token with 401 once expires_in seconds have passed, as the account does',
        reading: '§3.1: after expires_in seconds the access token is expired; §5.1: every /api/v4 request carries a valid bearer. api.bearer.expired probes the account; the lists are probed here, where a server that checks expiry in one handler only lets it through. A minute after expires_in on the target clock (without a control API, in real time under --profile soak when that fits its window, else skipped saying so); 401 (RFC 6750 §3.1), 403 non_strict.' },
      {
        send: async (t) => {
          const pair = await obtainTokens(t);
          const issued = Date.now();
          const lifetime = typeof pair.expires_in === 'number' && pair.expires_in > 0 ? pair.expires_in : undefined;
          if (!lifetime) throw new Precondition('the token response has no positive expires_in (oauth.token-response.expires-in judges that)');
          // Every place a bearer is checked, the account and page 2 of each list included (issue 39), side by side.
          return afterElapsed(t, { seconds: lifetime + 60, sinceMs: issued }, () =>
            Promise.all(CREDENTIAL_PLACES.map((place) => t.send(bearerAt(t.target, place, pair.access_token)))));
        },
        expect: [eachAnswer(status(401))],
        case: 'expired access token',
      },
    ),
    sweepRule<JsonCase, Awaited<ReturnType<typeof exchange>>, string>(
      { id: 'api.bodies.json-every-answer', needs: ['access-token'],
        title: 'Every endpoint\'s answers carry a JSON media type and parse as JSON: each list\'s page, each refusal without a bearer, each wrong method',
        reading: '§0: all bodies are JSON unless stated otherwise; no answer of the token endpoint, the account or the lists is stated otherwise (§7: the error body\'s structure is not shown, not its media type). Any JSON media type passes (application/hal+json, application/problem+json), but at the token endpoint, whose §4.1 states "Content-Type: application/json (also on error)": another JSON type there is non_strict (R3-A8); a 204 has no body to judge. api.bodies.json reads the account\'s and one list\'s page; this reads the other places.' },
      {
        setup: apiToken,
        named: JSON_CASES,
        send: (t, c, token) => t.send(endpointRequest(t.target, c.endpoint, {
          ...(c.what === 'page' || c.what === 'no bearer' ? {} : { method: c.what }),
          ...(c.what === 'no bearer' || c.endpoint.auth !== 'bearer' ? {} : { bearer: token }),
          ...(c.what === 'page' ? { query: '?limit=1' } : {}),
        })),
        // The token endpoint's answers are "Content-Type: application/json (also on error)" (§4.1): another JSON type
        // there is non_strict, as at every other refusal of it (R3-A8, one reading).
        expect: (_t, c) => (c.endpoint.auth === 'client' ? [jsonBodyOfAnyJsonType, jsonContentType] : [jsonBodyOfAnyJsonType]),
        label: (c) => `${c.endpoint.name} ${c.what === 'page' ? 'page' : c.what === 'no bearer' ? 'without a bearer' : `${c.what} (wrong method)`}`,
      },
    ),
  ],
});
