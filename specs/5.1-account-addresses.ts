/**
 * The spec's preamble: {base_url} is the address of one customer account, each account on its own sub-domain. A
 * bearer granted in one account is no key to another account's address (§5.1 item 1–2, RFC 6750 §3.1).
 */
import { defineSpec, exchangeRule, foreignAccountRequest, foreignAddress, type ForeignAddress, type HttpResponse, status } from './kit.js';

export default defineSpec({
  section: '5.1',
  title: 'Account API: one address per account',
  level: 'must',
  rules: [
    exchangeRule<HttpResponse, ForeignAddress>(
      { id: 'api.base-url.per-account', requires: [], needs: ['access-token', 'second-base-url'], title: 'A token granted in one account is refused with 401 at another account\'s base URL',
        reading: 'Preamble: {base_url} is "the address of one customer account"; §5.1: the token holds the rights of the user who granted access, in the account he granted it in. The run\'s access token, first shown to answer 200 at BASE_URL, is sent to GET /api/v4/account at a second account\'s address (BASE_URL_2, else the control API\'s); it must be refused with 401 (RFC 6750 §3.1 invalid_token), never answered with either account. Another 4xx is non_strict.' },
      { setup: (t) => foreignAddress(t), send: (t, probe) => t.send(foreignAccountRequest(t, probe)), expect: [status(401)] },
    ),
  ],
});
