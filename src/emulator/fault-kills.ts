/**
 * Which rules catch which fault: the proof that each rule can fail. `test/faults/faults.test.ts` runs every
 * fault against its rules and expects each to fail (an `info` rule must report something different instead);
 * `conformance faults` prints this table and docs/faults.md is generated from it.
 * Keyed by FaultName, so a new fault does not compile until its killing rules are named.
 */
import type { FaultName } from './faults.js';

const tokenFieldRules = (field: string) => [`oauth.token.${field}.missing`, `oauth.token.${field}.wrong`];

export const FAULT_KILLS: Record<FaultName, readonly string[]> = {
  'accept-reused-code': ['oauth.token.code-reuse', 'oauth.token.code-reuse-revokes'],
  'no-revoke-on-code-reuse': ['oauth.token.code-reuse-revokes'],
  'accept-expired-code': [],
  'skip-redirect-uri-check': tokenFieldRules('redirect-uri'),
  'skip-client-id-check': tokenFieldRules('client-id'),
  'skip-client-secret-check': tokenFieldRules('client-secret'),
  'accept-unknown-grant-type': tokenFieldRules('grant-type'),
  'accept-wrong-types': ['client-id', 'client-secret', 'grant-type', 'code', 'redirect-uri'].map((f) => `oauth.token.${f}.wrong-type`),
  'accept-missing-code': ['oauth.token.code.missing'],
  'token-response-text-plain': ['oauth.token-response.content-type'],
  'nbf-in-future': ['api.bearer.access-token-works', 'oauth.refresh.new-access-token-works'],
  'reject-form-encoded': ['oauth.token.form-encoded'],
  'reuse-old-refresh-token': ['oauth.refresh.old-token-refused'],
  'refresh-returns-same-token': ['oauth.refresh.rotates'],
  'refresh-requires-secret': ['oauth.refresh.without-secret'],
  'new-refresh-token-dead': ['oauth.refresh.new-token-works'],
  'accept-expired-refresh-token': [],
  'expires-in-as-string': ['oauth.token-response.expires-in'],
  'drop-server-time': ['oauth.token-response.server-time'],
  'server-time-in-ms': ['oauth.token-response.server-time'],
  'token-type-mac': ['oauth.token-response.token-type'],
  'drop-refresh-token': ['oauth.token-response.refresh-token'],
  'access-token-not-jwt': ['oauth.token-response.access-token-jwt'],
  'jwt-exp-mismatch': ['oauth.token-response.jwt-expiry'],
  'error-as-html': ['oauth.token.code.wrong', 'oauth.token.body-not-json'],
  'error-status-200': ['oauth.token.client-id.wrong', 'oauth.token.body-not-json'],
  'crash-on-malformed-body': ['oauth.token.body-not-json', 'oauth.token.no-server-error'],
  'echo-secret-in-error': ['oauth.token.no-secret-echo'],
  'drop-state': [],
  'bearer-not-checked': ['api.bearer.missing', 'oauth.token.code-reuse-revokes'],
  'ignore-token-expiry': [],
  'accept-revoked-token': ['oauth.token.code-reuse-revokes'],
};
