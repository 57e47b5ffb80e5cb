/**
 * The allowed variations of access: tokens, the token exchange, the redirect and the disconnect hook (this folder),
 * each read here with `variations.isOn('<name>')` (test/faults/areas.test.ts checks it). ../variations.ts assembles
 * every area's table.
 */
import { defineVariations } from '../switches.js';

export const OAUTH_VARIATIONS = defineVariations([
  // {base_url} per account (spec preamble): a credential exchanged at another account's address
  { name: 'code-any-account-address-own-account', description: 'A code granted in one account is exchanged at another account\'s address ({base_url}); the token is the code\'s own account\'s (it works there, not at the address it was exchanged at).',
    basis: 'open-point: the preamble gives each account its own {base_url}, and §4.1 installs the integration in the chosen account; neither says the token endpoint refuses another account\'s code. The token reaches only the account the user chose: recorded (R2-A7), a token that works at the other address fails.' },
  { name: 'refresh-any-account-address-own-account', description: 'A refresh token granted in one account is exchanged at another account\'s address ({base_url}); the new pair is the token\'s own account\'s.',
    basis: 'open-point: as for a code (code-any-account-address-own-account): the pair reaches only the account the user chose; recorded, a pair that works at the other address fails.' },
  // Token lifetimes and the JWT's form (§2.2, §2.3)
  { name: 'access-token-lifetime-2h', description: 'Access tokens live 2 hours: expires_in 7200 and the JWT\'s exp 7200 s after iat.',
    basis: 'lifetime: §2.2 "Lifetime is returned as expires_in"; §8 "returned in expires_in, seconds". Lifetimes are probed from expires_in, not from a constant (K41).' },
  { name: 'access-token-lifetime-48h', description: 'Access tokens live 48 hours: expires_in 172800 and the JWT\'s exp 172800 s after iat.',
    basis: 'lifetime: §2.2 "Lifetime is returned as expires_in"; a token probed after 24 h + 10 min is still valid and rightly accepted (K41).' },
  { name: 'jwt-hs256', description: 'Access and long-lived tokens are JWTs signed HS256 with a key only the emulator holds.',
    basis: 'rfc-unstated: §2.2 says only "JWT"; RFC 7518 §3.2 HS256 is a JWS algorithm, and the issuer is the only verifier (K24).' },
  { name: 'jwt-without-jti', description: 'Access tokens carry no jti claim, a random sid instead (the emulator keeps them by value).',
    basis: 'rfc-unstated: §2.2 says only "JWT"; RFC 7519 §4.1.7 makes jti optional; distinct tokens are what §2.3 needs (K25).' },
  { name: 'jwt-without-exp-iat', description: 'Access tokens carry no exp and no iat claim; their lifetime is still expires_in, enforced by the emulator.',
    basis: 'rfc-unstated: the spec names no claim, it returns the lifetime as expires_in (§2.2); exp and iat are optional (RFC 7519 §4.1.4, §4.1.6) — recorded (K1, R2-A1).' },
  { name: 'jwt-carries-refresh-token', description: 'The code exchange mints the refresh token first and writes it into the access token\'s claims.',
    basis: 'open-point: §2.2 the access token "Must be kept private to the application", the one that holds the refresh token too; the spec names no claim a token must not carry but its secrets — recorded (R2-A4).', scope: 'oauth.*' },
  // Token answers and refusals (§2.3, §4.1, §7)
  { name: 'server-time-skewed', description: 'server_time in token answers is 3 minutes ahead of the emulator\'s clock.',
    basis: 'answer-member: §2.3 "server_time int: Server time of the response, timestamp" states no tolerance; a skew within an hour is recorded, never failed (K4, R2-A5).' },
  { name: 'token-no-cache-control', description: 'Token answers carry no Cache-Control and no Pragma header.',
    basis: 'rfc-unstated: RFC 6749 §5.1 no-store is not restated by §4.1 or §2.3 — non_strict (K26).' },
  { name: 'token-errors-401', description: 'Refusals for client authentication (invalid_client) and for a used or revoked refresh token are 401, as the live service answers "Token has been revoked".',
    basis: 'status-code: §4.1 "Response 400"; another 4xx is non_strict; RFC 6749 §5.2 allows 401 for invalid_client; docs/field-notes.md (live 401).' },
  { name: 'token-errors-problem-json', description: 'Token refusals are application/problem+json: {title, type, status, detail, hint}.',
    basis: 'stated-behaviour: §4.1 "response Content-Type: application/json (also on error)"; another JSON media type is non_strict (REQ-4.1-exchange-error-json); the live service sends problem+json (docs/field-notes.md).' },
  { name: 'token-coerces-wrapped-values', description: 'A token request field sent as a one-element array of a string (["<value>"]) is read as that string.',
    basis: 'wrong-type: a value of another JSON type coerced and accepted is non_strict; only a value that is not the right one, accepted, fails (K15).' },
  // The code and refresh grants (§3.1, §4.1)
  { name: 'refresh-requires-secret', description: 'A refresh exchange without client_secret is refused with 400.',
    basis: 'status-code: §4.1 lists client_secret "as optional for the refresh grant" — listed, not promised; a refusal is non_strict (K12).' },
  { name: 'refresh-secret-null-as-absent', description: 'A refresh exchange with client_secret null is read as one without a secret, and exchanged.',
    basis: 'wrong-type: §4.1 client_secret is "listed as optional for the refresh grant"; null read as not sent is a departure, not a breach — non_strict (R2-A11). 42 or true are still refused.', scope: 'oauth.*' },
  { name: 'refresh-ignores-redirect-uri', description: 'The refresh grant does not compare redirect_uri (a differing one is accepted).',
    basis: 'security + unmarked-member: RFC 6749 §6 defines no redirect_uri on refresh; §4.1 requires the exact match of the code grant (REQ-5.1-redirect-identical) — non_strict on refresh (K28).' },
  { name: 'code-replay-keeps-tokens', description: 'A replayed authorization code is refused, but the tokens first issued from it stay valid.',
    basis: 'rfc-unstated: RFC 6749 §4.1.2 "SHOULD revoke" is not restated by the spec — non_strict (K10).' },
  { name: 'refresh-replay-revokes-family', description: 'Replaying an already exchanged refresh token revokes every token of its grant (the whole family).',
    basis: 'rfc-unstated/open-point: RFC 6749 §10.4 lets a server revoke the family on replay; §3.1 leaves it open — recorded (K14).' },
  { name: 'redirect-uri-equivalent-spellings', description: 'redirect_uri is compared after RFC 3986 normalisation: host case, an explicit default port, dot segments, percent-encoded unreserved letters.',
    basis: 'security + open-point: §4.1 "must match exactly"; a spelling of the same URI reaches nothing else, so its acceptance is recorded (REQ-4.1-exchange-redirect-equivalent-forms, K27); any other variant is still refused.' },
  // Accounts at their own addresses (preamble {base_url}, §4.1, §5.1)
  { name: 'foreign-credential-401', description: 'A code or refresh token granted in another account than the address\'s is refused with 401 (400 by default).',
    basis: 'status-code + security: the preamble makes {base_url} one account\'s address and the exchange table names 400 for invalid data; another 4xx is non_strict, no token is what matters (REQ-0-base-url-per-account, R2-A7).' },
  { name: 'foreign-credential-404', description: 'A code or refresh token granted in another account than the address\'s is refused with 404, the address knowing no such credential (400 by default).',
    basis: 'status-code + security: the preamble makes {base_url} one account\'s address and the exchange table names 400 for invalid data; another 4xx is non_strict, no token is what matters (REQ-0-base-url-per-account, R2-A7).' },
  { name: 'tokens-bound-to-account', description: 'The root address serves the developer account alone: a code, refresh token or bearer of another account is refused there (at the token endpoint as at another account\'s address: 400, or what `foreign-credential-401`/`-404` answer; 401 at the API) and works only at its own account\'s address.',
    basis: 'security: the preamble, "{base_url}: address of one customer account (each account has its own sub-domain)": a service of one address per account refuses other accounts\' credentials at each (REQ-0-base-url-per-account, issue 27).' },
  // The access-granting redirect (§4.1)
  { name: 'state-empty-when-absent', description: 'A redirect without a state passed carries an empty `state=`.',
    basis: 'stated-behaviour: §4.1 "If not passed, it is not returned"; an empty state= is non_strict (REQ-4.1-page-state-absent, K5).' },
  { name: 'from-widget-zero', description: 'A plain Allow redirect carries `from_widget=0`.',
    basis: 'stated-behaviour: §4.1 from_widget "only when a hook is sent after a widget installation"; present with a falsy value is non_strict (REQ-4.1-allow-no-from-widget, K6).' },
  // The disconnect hook (§4.1, §5.3, §6)
  { name: 'disconnect-hook-retried', description: 'Each disconnect hook is delivered a second time, identical, 200 ms later (a retry queue).',
    basis: 'effect-window: §6 one hook per disconnect; an identical second delivery (a retry) is non_strict (REQ-6-disconnect-hook-once, K31).' },
  { name: 'hook-client-id-other', description: 'The disconnect hook\'s client_id is the account\'s chat-interface id (client_uuid and the signature stay the integration\'s).',
    basis: 'answer-member/open-point: §4.1 and §6 name client_id in the hook but not which id; the integration is identified by client_uuid (§5.3) — recorded (K32).' },
  { name: 'hook-signature-upper-hex', description: 'The disconnect hook\'s signature is the right HMAC-SHA256 in upper-case hex.',
    basis: 'security: §5.3 "hexadecimal HMAC-SHA256"; upper-case hex is the same value, non_strict for receivers that compare text (REQ-5.3-signature, K17).' },
] as const);
