/**
 * HTTP robustness of every non-chat endpoint (§4.1 token exchange, §5.1 account API, §4.2 lists), over the endpoint
 * catalogue of src/protocol/endpoints.ts rather than a few hand-picked routes: unknown paths, wrong methods (no token
 * ever through GET), bodies that are JSON of the wrong top-level type or too large, the bearer on every /api/v4
 * endpoint, and generated requests of any shape that never get a 5xx.
 */
import fc from 'fast-check';
import {
  anyJsonBody, apiToken, BEARER_ENDPOINTS, codeGrant, defineSpec, type Endpoint, endpointRequest, ENDPOINTS, freshCode, type HttpResponse, jsonObjectBody, LISTS, notJsonText, noServerError, noTokenIssued, propertyRule, scenarioRule, status, step, sweepRule, wrongMethods, wwwAuthenticateBearer,
} from './kit.js';

interface MethodCase {
  readonly endpoint: Endpoint;
  readonly method: string;
}
const METHOD_CASES: readonly MethodCase[] = ENDPOINTS.flatMap((endpoint) => wrongMethods(endpoint).map((method) => ({ endpoint, method })));

/** Paths no endpoint serves: a list the spec does not name, a word, a sub-path of a real endpoint. */
const UNKNOWN_PATHS: readonly string[] = ['/api/v4/deals', '/api/v4/no-such-list', '/api/v4/account/extra', '/api/v4/leads/extra/path', '/api/v5/account'];
const KNOWN = new Set<string>(['account', ...LISTS]);

/** Top-level JSON values that are not the object a token request is; `array-of-valid` wraps a valid exchange. */
const WRONG_TOP_LEVEL = ['array-of-valid', 'empty-array', 'string', 'number', 'null', 'true'] as const;
type WrongTopLevel = (typeof WRONG_TOP_LEVEL)[number];

/** Padding of the oversized token request: twice the 1 MB a JSON API is commonly held to. */
const OVERSIZED_BYTES = 2 * 1024 * 1024;

interface NoAuthCase {
  readonly endpoint: Endpoint;
  readonly bearer?: string;
}
const NO_AUTH_CASES: readonly NoAuthCase[] = BEARER_ENDPOINTS.flatMap((endpoint) => [{ endpoint }, { endpoint, bearer: 'not-a-token-anyone-issued-0123456789' }]);

/** Query keys that client libraries and careless callers send, brackets unbalanced included. */
const queryKey = fc.oneof(
  { arbitrary: fc.constantFrom('filter[id]', 'filter[id][]', 'filter[name]', 'page', 'limit', 'with', 'order[id]', 'query', 'filter]]', '[[', 'filter[[id]'), weight: 3 },
  { arbitrary: fc.string({ maxLength: 8 }), weight: 1 },
);
const queryString = fc.dictionary(queryKey, fc.string({ maxLength: 12 }), { maxKeys: 3 })
  .map((d) => (Object.keys(d).length === 0 ? '' : `?${Object.entries(d).map(([k, v]) => `${encodeURI(k)}=${encodeURIComponent(v)}`).join('&')}`));

export default defineSpec({
  section: '5.1',
  title: 'HTTP robustness of the token endpoint and the account API',
  level: 'should',
  rules: [
    sweepRule<string, HttpResponse, string>(
      { id: 'http.unknown-path', requires: [], title: 'An unknown path under /api/v4 (with a valid bearer) or /oauth2 is answered 404',
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
      { id: 'http.wrong-method', requires: [], title: 'Every endpoint answers another method than its own with 405 (a valid bearer sent)',
        reading: 'RFC 9110 §15.5.6: a method the resource does not support is 405 (with or without Allow, K38). Sent with a valid bearer and a well-formed body, so only the method is wrong; another 4xx is non_strict, a 2xx fails.' },
      {
        setup: apiToken,
        named: METHOD_CASES,
        send: (t, c, token) => t.send(endpointRequest(t.target, c.endpoint, { method: c.method, ...(c.endpoint.auth === 'bearer' ? { bearer: token } : {}) })),
        expect: [status(405)],
        label: (c) => `${c.method} ${c.endpoint.name}`,
      },
    ),
    scenarioRule<string>(
      { id: 'oauth.token.no-get', section: '4.1', level: 'must', requires: [], needs: ['fresh-code'],
        title: 'A code exchange sent as GET with its fields in the query issues no token',
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
      { id: 'oauth.token.wrong-json-type', section: '4.1', level: 'must', requires: [], needs: ['fresh-code'],
        title: 'A token request whose JSON body is not an object (an array, even of a valid request; a string; a number; null) is refused with 400',
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
      { id: 'oauth.token.oversized', section: '4.1', requires: [],
        title: 'A 2 MB token request is answered without a breakage, and the endpoint answers normally afterwards',
        reading: 'The spec sets no size (the robustness reading, K36): a refusal (413, RFC 9110 §15.5.14, or 400) and an answer that reads the body both pass; a 5xx, a reset or a hang fails, as does an endpoint that stops answering.' },
      {
        steps: [
          step('2 MB body', (t) => t.send(endpointRequest(t.target, ENDPOINTS[0]!, { body: JSON.stringify({ ...ENDPOINTS[0]!.body!(t.target), refresh_token: 'x'.repeat(OVERSIZED_BYTES) }) })), [noServerError]),
          step('a normal request afterwards', (t) => t.send(endpointRequest(t.target, ENDPOINTS[0]!)), [status(400)]),
        ],
      },
    ),
    sweepRule<NoAuthCase>(
      { id: 'api.bearer.every-endpoint', level: 'must', requires: [],
        title: 'Every /api/v4 endpoint (account and the four lists) refuses a request without a valid bearer with 401 and the Bearer challenge',
        reading: '§4.1 and §5.1.1: all /api/v4 calls carry the bearer; RFC 6750 §3: 401 with WWW-Authenticate: Bearer. 403 is non_strict, and so is a 401 without the challenge (the spec does not restate it, K30).',
        covers: ['7/401'] },
      {
        named: NO_AUTH_CASES,
        send: (t, c) => t.send(endpointRequest(t.target, c.endpoint, c.bearer === undefined ? {} : { bearer: c.bearer })),
        expect: [status(401), wwwAuthenticateBearer],
        label: (c) => `${c.endpoint.name} ${c.bearer === undefined ? 'without Authorization' : 'with an unknown token'}`,
      },
    ),
    propertyRule(
      { id: 'http.no-server-error', requires: [], title: 'Generated requests to every endpoint (any method, query, body, bearer) never get a 5xx',
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
  ],
});
