/**
 * §5.1 Account API, the statements the bearer rules leave: transport security of every endpoint a secret travels to,
 * Authorization headers no client should send, the access_token query parameter, and what the account answer is.
 */
import {
  ACCOUNT_QUERIES, accountRequest, apiToken, burst, burstObserved, defineSpec, exchangeRule, type HttpResponse, jsonBodyOfAnyJsonType, mediaTypeAndKeysObserved, noPlainHttpLinks, noServerError, observeTls, optionalApiToken, servedOverTls, statusObserved, statusOneOf, sweepRule,
} from './kit.js';

interface OddHeader {
  readonly what: string;
  readonly header: string;
}

/** Headers a careless or hostile client sends; repeated headers are out of reach of the kit's request model. */
const ODD_HEADERS: readonly OddHeader[] = [
  { what: '16 KiB token', header: `Bearer ${'a'.repeat(16 * 1024)}` },
  // HTTP header values are bytes; the UTF-8 bytes of Cyrillic and an emoji are sent as they are.
  { what: 'non-ASCII token (UTF-8 bytes)', header: Buffer.from('Bearer токен-😀', 'utf8').toString('latin1') },
  { what: 'Latin-1 byte in the scheme', header: 'B\u00e9arer abc' },
];

type TlsEndpoint = 'access-granting page' | 'token endpoint' | 'account API';
const TLS_ENDPOINTS: readonly TlsEndpoint[] = ['access-granting page', 'token endpoint', 'account API'];

export default defineSpec({
  section: '5.1',
  title: 'Account API: transport, odd credentials and the account answer',
  level: 'must',
  rules: [
    sweepRule<TlsEndpoint, Awaited<ReturnType<typeof observeTls>>, string | undefined>(
      { id: 'http.tls', requires: [],
        title: 'The access-granting page, the token endpoint and the account API are served over TLS with a certificate that verifies, and hand out no plain-http link',
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
      { id: 'api.bearer.odd-headers', level: 'should', requires: [],
        title: 'An oversized or non-ASCII Authorization header is refused with 401 (or 400, 431), never a 5xx or a dropped connection',
        reading: 'HTTP robustness: the header carries no valid bearer, so 401 (RFC 6750 §3.1) or 400 (malformed); 431 where the header block is over the server\'s limit (RFC 6585 §5). Another 4xx is non_strict; a 2xx, a 5xx or a reset fails. Repeated Authorization headers are not sent (the kit sends one value per header).' },
      {
        named: ODD_HEADERS,
        send: (t, c) => t.send({ method: 'GET', url: `${t.target.baseUrl}/api/v4/account`, headers: { authorization: c.header } }),
        expect: [statusOneOf([401, 400, 431])],
        label: (c) => c.what,
      },
    ),
    exchangeRule(
      { id: 'api.bearer.token-in-query', level: 'info', requires: [],
        title: 'Records whether a valid access token in the access_token query parameter (no header) authenticates',
        reading: 'RFC 6750 §2.3 allows the query parameter but warns that URLs leak; the spec names only the header. Recorded, not judged.' },
      {
        setup: apiToken,
        send: (t, token) => t.send({ method: 'GET', url: `${t.target.baseUrl}/api/v4/account?${new URLSearchParams({ access_token: token })}` }),
        expect: [statusObserved('token in query', { accepted: 'the query parameter authenticates (tokens in URLs reach logs and Referer headers)', refused: 'only the Authorization header authenticates' })],
      },
    ),
    exchangeRule(
      { id: 'api.account.body', section: '4.1', level: 'info', requires: [],
        title: 'Records the media type and top-level keys of the GET /api/v4/account answer',
        reading: '§4.1 does not show the account answer; what the target sends is recorded for clients that read it.' },
      { setup: apiToken, send: (t, token) => t.send(accountRequest(t.target, token)), expect: [mediaTypeAndKeysObserved] },
    ),
    sweepRule<(typeof ACCOUNT_QUERIES)[number], HttpResponse, string>(
      { id: 'api.account.query-no-server-error', section: '4.1', level: 'should', requires: [],
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
    sweepRule<'account' | 'leads', HttpResponse, string>(
      { id: 'api.bodies.json', requires: [],
        title: 'The account API answers (/api/v4/account and a list page) carry a JSON media type and parse as JSON',
        reading: '§0: all bodies are JSON unless stated otherwise. Any JSON media type passes (the live service sends application/hal+json, docs/field-notes.md); a list\'s 204 has no body to judge.' },
      {
        setup: apiToken,
        named: ['account', 'leads'],
        send: (t, which, token) => t.send(which === 'account' ? accountRequest(t.target, token) : { method: 'GET', url: `${t.target.baseUrl}/api/v4/leads?limit=1`, headers: { authorization: `Bearer ${token}` } }),
        expect: [jsonBodyOfAnyJsonType],
        label: (which) => which,
      },
    ),
    exchangeRule(
      { id: 'api.rate-limit.burst', section: '8', level: 'info', requires: [],
        title: 'Records what a burst of 12 requests to /api/v4/account gets: the statuses, and the first refusal with its Retry-After',
        reading: '§8 states no rate limit (the live service documents 7 requests per second). The burst is at most 12 requests and goes through the kit\'s own client: on a target with RATE_LIMIT_RPS it never exceeds that ceiling (and a 429 is retried after its Retry-After), so a live account is never pushed past what the run allows; the record says so. Recorded, not judged.' },
      { setup: apiToken, send: (t, token) => burst(t, accountRequest(t.target, token)), expect: [burstObserved] },
    ),
  ],
});
