/**
 * The allowed variations of the account API's bearer check (./bearer.ts), each read here with
 * `variations.isOn('<name>')` (test/faults/areas.test.ts checks it). ../variations.ts assembles every area's table.
 */
import { defineVariations } from '../switches.js';

export const API_VARIATIONS = defineVariations([
  // Bearer refusals and the scheme (§5.1, §7)
  { name: 'www-authenticate-extra-params', description: 'Bearer challenges carry realm and error_description besides error: `Bearer realm="api", error="invalid_token", error_description="…"`.',
    basis: 'rfc-unstated: RFC 6750 §3 allows realm, scope, error, error_description and error_uri in the challenge (K30).' },
  { name: 'www-authenticate-without-error', description: 'Every 401 of the account API carries a bare `Bearer realm="api"` challenge, without error.',
    basis: 'rfc-unstated: RFC 6750 §3.1 error="invalid_token" is not restated by the spec — non_strict (K30).' },
  { name: 'bearer-scheme-exact-case', description: 'Only the scheme spelt "Bearer" is accepted; "bearer" and "BEARER" get 401.',
    basis: 'rfc-unstated: §4.1 and §5.1 write "Bearer"; the RFC\'s case-insensitivity is not restated — non_strict (K29).' },
  // HAL links (§4.2 "Response body of list endpoints: not shown")
  { name: 'links-relative', description: 'The `_links` hrefs of the account and the list answers are relative references (`/api/v4/leads?page=2`, under the account\'s path prefix when it was called by one), not absolute URLs.',
    basis: 'answer-member: the spec shows no list or account body (§4.2, §5.1 "not shown"); RFC 8288 and HAL let a link be a URI reference, resolved against the answer\'s URL (issue 27).' },
] as const);
