/**
 * The fault switches of the account API: its bearer check and its answers (./bearer.ts, ./account.ts, ./routes.ts),
 * each read here with `faults.isOn('<name>')` (test/faults/areas.test.ts checks it). ../faults.ts assembles every
 * area's table. Grouped by the statement they break, in the spec's order.
 */
import { defineFaults } from '../switches.js';

export const API_FAULTS = defineFaults([
  // Bearer credentials: which tokens the account API accepts, and its refusals (§5.1, §3.1, §7)
  { name: 'api-accepts-client-basic', description: 'The account API takes the integration\'s client_id and secret as HTTP Basic credentials and answers as the administrator.',
    caughtBy: ['api.basic.client-credentials'] },
  { name: 'bearer-skipped-on-lists', description: 'The list endpoints serve a request without Authorization as the administrator.',
    caughtBy: ['api.bearer.every-endpoint'] },
  { name: 'stale-token-403', description: 'An expired or revoked bearer is answered 403 instead of 401.',
    caughtBy: ['api.bearer.expired', 'api.long-lived.revoked'], verdict: 'non_strict' },
  { name: 'skip-jwt-signature-check', description: 'A bearer JWT is looked up by its jti without verifying its signature.',
    caughtBy: ['api.bearer.forged'] },
  { name: 'bearer-accepts-refresh-token', description: 'A refresh token or an authorization code passes as a bearer for its grant.',
    caughtBy: ['api.bearer.not-an-access-token'] },
  { name: 'skip-nbf-check', description: 'The account API accepts an access token before its nbf time (RFC 7519 §4.1.5).',
    caughtBy: ['api.bearer.not-yet-valid'] },
  { name: 'account-api-down', description: 'The account API answers 503 to every request (its store is unreachable).',
    caughtBy: ['api.bearer.scheme-case'] },
  { name: 'ignore-token-expiry', description: 'Expired access tokens are accepted.',
    caughtBy: ['api.bearer.stale-token-error', 'api.bearer.expired', 'api.long-lived.expired'] },
  { name: 'stale-token-challenge-bare', description: 'An expired or revoked access token gets 401 with a bare "Bearer" challenge, without error="invalid_token".',
    caughtBy: ['api.bearer.stale-token-error'], verdict: 'non_strict' },
  { name: 'accept-unsigned-jwt', description: 'A bearer JWT whose header names no algorithm (or none) or whose signature is empty is looked up without verification.',
    caughtBy: ['api.bearer.unsigned'] },
  { name: 'access-token-dies-early', description: 'An access token is refused after half the lifetime its expires_in stated.',
    caughtBy: ['api.bearer.valid-before-expiry'] },
  { name: 'bearer-not-checked', description: '/api/v4 accepts any bearer token, or none.',
    caughtBy: ['api.bearer.www-authenticate', 'api.bearer.invalid-token-error', 'api.bearer.missing', 'api.bearer.malformed', 'api.bearer.forged'] },
  { name: 'no-www-authenticate', description: 'Bearer refusals (401) carry no WWW-Authenticate header.',
    caughtBy: ['api.bearer.www-authenticate', 'api.bearer.invalid-token-error'], verdict: 'non_strict' },
  { name: 'accept-revoked-token', description: 'Revoked access tokens are accepted.',
    caughtBy: ['api.long-lived.revoked', 'api.bearer.stale-token-error'] },
  { name: 'long-lived-token-refused', description: 'Long-lived tokens are refused as bearers.',
    caughtBy: ['api.long-lived.works'] },
  // Per-account addresses (§4.1 {base_url}, §5.1)
  { name: 'base-url-any-account', description: 'An account\'s own address ({base_url}) serves a bearer granted in another account, answering that account, instead of refusing it with 401.',
    caughtBy: ['api.base-url.per-account'] },
  // The account answer and HTTP of the API: media type, links, methods, unknown paths (§0, §4.2, §7)
  { name: 'account-answer-text-plain', description: 'GET /api/v4/account sends its JSON as Content-Type text/plain.',
    caughtBy: ['api.bodies.json'] },
  { name: 'api-crash-on-odd-query', description: 'A query key with unbalanced brackets (`filter]]`, `[[`) makes /api/v4 answer 500.',
    caughtBy: ['http.no-server-error'] },
  { name: 'api-links-plain-http', description: 'The account answer\'s HAL links point at plain http on the account\'s public host (http://<subdomain>.example.com), so a client following them sends its bearer in clear.',
    caughtBy: ['http.tls'] },
  { name: 'api-unknown-path-200', description: 'Unknown /api/v4 paths answer 200 with an empty object.',
    caughtBy: ['http.unknown-path'] },
  { name: 'api-any-method', description: '/api/v4/account answers 200 to any method, not only GET.',
    caughtBy: ['http.wrong-method'] },
  // Issue 20, lists: the account call's with= and the list routes' bearer and paths (§4.1, §4.2)
  { name: 'lists-any-bearer', description: 'The list endpoints check that a bearer is there, not that anyone issued it: an unknown token reads the lists as the administrator.',
    caughtBy: ['api.bearer.every-endpoint'] },
  { name: 'lists-unknown-list-crash', description: 'An /api/v4 path of one segment that is not a list (/api/v4/deals) is taken for a list and yields a 500 instead of 404.',
    caughtBy: ['http.unknown-path'] },
  { name: 'account-with-unknown-crash', description: 'GET /api/v4/account with a with= value it does not know yields a 500 (the value is looked up in a table of loaders).',
    caughtBy: ['api.account.query-no-server-error'] },
  { name: 'account-with-array-crash', description: 'GET /api/v4/account with with[]=… (the array form public clients send) yields a 500: with is split as a string.',
    caughtBy: ['api.account.query-no-server-error'] },
] as const);
