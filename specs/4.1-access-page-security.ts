/**
 * §4.1 Access-granting page, its security (RFC 6749 §4.1.2.1, §10.12, §10.13): an unknown or missing client_id sends
 * the browser nowhere, the page cannot be framed, odd query strings never get a 5xx; each Allow mints its own code and
 * Deny installs nothing (driven through the control API's consent, which makes the page's decision without a browser).
 */
import fc from 'fast-check';
import {
  allDistinct, defineSpec, exchangeRule, freshCode, notFramable, noRedirect, noServerError, notInstalledIn, propertyRule, scenarioRule, sideAccount, step, sweepRule,
} from './kit.js';

/** Queries naming no integration the service knows. */
/** An address no integration registered: an unknown client must not send the browser there (an open redirect). */
const FOREIGN_REDIRECT = encodeURIComponent('https://attacker.example/cb');

const UNKNOWN_CLIENT_QUERIES: readonly string[] = [
  '', '?client_id=', '?client_id=00000000-0000-4000-8000-000000000000&state=x', '?state=x&mode=popup',
  `?client_id=00000000-0000-4000-8000-000000000000&redirect_uri=${FOREIGN_REDIRECT}&state=x`, `?redirect_uri=${FOREIGN_REDIRECT}`,
];

/** Allows in a row by the fresh-code rule. */
const ALLOWS = 3;

interface Integrations {
  readonly integrations: readonly { readonly client_id: string; readonly installed_in: readonly number[] }[];
}

export default defineSpec({
  section: '4.1',
  title: 'Access-granting page: security',
  level: 'must',
  rules: [
    sweepRule<string>(
      { id: 'oauth.page.unknown-client', requires: [], title: 'The page with a missing or unknown client_id shows an error and redirects nowhere',
        reading: 'RFC 6749 §4.1.2.1: when the client identifier is missing or invalid, the server SHOULD inform the resource owner and MUST NOT redirect to the (unverifiable) redirect URI. Any non-redirecting answer passes (a 4xx or a 200 error page).' },
      {
        named: UNKNOWN_CLIENT_QUERIES,
        send: (t, query) => t.send({ method: 'GET', url: `${t.target.authUrl}/oauth${query}` }),
        expect: [noRedirect],
        label: (query) => query || 'no query',
      },
    ),
    exchangeRule(
      { id: 'oauth.page.not-framable', level: 'should', requires: [], title: 'The access-granting page forbids framing by other origins',
        reading: 'RFC 6749 §10.13: a page that can be framed invites clickjacking of the Allow button; X-Frame-Options (DENY, SAMEORIGIN) or a Content-Security-Policy frame-ancestors directive prevents it.' },
      { send: (t) => t.send({ method: 'GET', url: `${t.target.authUrl}/oauth?client_id=${encodeURIComponent(t.credentials.clientId)}` }), expect: [notFramable] },
    ),
    propertyRule(
      { id: 'oauth.page.no-server-error', level: 'should', requires: [], title: 'The page never answers a 5xx to odd query strings (repeated, empty, unknown parameters)',
        reading: 'Robustness: whatever query a browser is sent with, the page answers with a page, never a server error.' },
      {
        cases: (t) => fc.array(fc.tuple(fc.constantFrom('client_id', 'state', 'mode', 'redirect_uri', 'client_id[]', 'x'), fc.oneof(fc.constant(t.credentials.clientId), fc.constantFrom('popup', 'post_message', ''), fc.string({ maxLength: 12 }))), { maxLength: 5 }),
        send: (t, pairs) => t.send({ method: 'GET', url: `${t.target.authUrl}/oauth?${pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&')}` }),
        expect: [noServerError],
      },
    ),
    exchangeRule<readonly string[]>(
      { id: 'oauth.consent.fresh-code', requires: [], needs: ['fresh-code'], title: `Each Allow mints a code of its own (${ALLOWS} Allows in a row)`,
        reading: '§4.1 behaviour 3: on Allow the user is redirected with a code; RFC 6749 §4.1.2: a code is single-use, so each grant needs its own. A code handed out twice could be exchanged by whoever sees the second redirect.' },
      {
        send: async (t) => {
          const codes: string[] = [];
          for (let i = 0; i < ALLOWS; i += 1) codes.push(await freshCode(t));
          return codes;
        },
        expect: [allDistinct('codes')],
      },
    ),
    scenarioRule<number>(
      { id: 'oauth.consent.deny-installs-nothing', requires: [], needs: ['ground-truth'], exclusive: true,
        title: 'Deny installs nothing: after Deny in an account without the integration, it is still not installed there',
        reading: '§4.1 behaviour 3 and 4: Allow installs the integration in the chosen account; Deny only redirects with error=access_denied. Done in a side account whose installation is removed first (deactivation).' },
      {
        setup: async (t) => {
          const accountId = await sideAccount(t);
          await t.control.call('POST', '/deactivate', { account_id: accountId });
          await t.control.consent({ decision: 'deny', account_id: accountId });
          return accountId;
        },
        steps: [
          step<number, readonly number[]>('after Deny', async (t) => {
            const { integrations } = await t.control.call<Integrations>('GET', '/integrations');
            return integrations.find((i) => i.client_id === t.credentials.clientId)?.installed_in ?? [];
          }, (_t, accountId) => [notInstalledIn(accountId)]),
        ],
      },
    ),
  ],
});
