/**
 * Verification of the disconnect hook for integrators (§5.3): every parameter required, `client_uuid` equal to the
 * integration ID, `signature` equal to hex HMAC-SHA256 of `<client_uuid>|<account_id>` under the secret key,
 * compared in constant time. The result names why a hook was refused, so a receiver can log it.
 */
import { timingSafeEqual } from 'node:crypto';
import { disconnectHookSignature, HOOK_PARAMETERS, type HookParameter } from './sign.js';

export type HookQuery = URLSearchParams | string | Readonly<Record<string, string | readonly string[] | undefined>>;

export type HookVerification =
  | { readonly ok: true; readonly accountId: string; readonly clientId: string }
  | { readonly ok: false; readonly reason: 'missing-parameter'; readonly parameter: HookParameter; readonly detail: string }
  | { readonly ok: false; readonly reason: 'repeated-parameter'; readonly parameter: HookParameter; readonly detail: string }
  | { readonly ok: false; readonly reason: 'foreign-client-uuid'; readonly detail: string }
  | { readonly ok: false; readonly reason: 'bad-signature'; readonly detail: string };

export interface HookCredentials {
  readonly clientId: string;
  readonly clientSecret: string;
}

/** Every value of each parameter, whatever shape the framework parsed the query into. */
function valuesOf(query: HookQuery, name: string): string[] {
  if (typeof query === 'string') return new URLSearchParams(query.startsWith('?') ? query.slice(1) : query).getAll(name);
  if (query instanceof URLSearchParams) return query.getAll(name);
  const v = query[name];
  if (v === undefined) return [];
  return typeof v === 'string' ? [v] : [...v];
}

function sameBytes(a: string, b: string): boolean {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  // Lengths are not secret (a signature is always 64 hex digits); the comparison of equal lengths is constant-time.
  return x.length === y.length && timingSafeEqual(x, y);
}

export function verifyDisconnectHook(query: HookQuery, credentials: HookCredentials): HookVerification {
  if (!credentials?.clientId || !credentials.clientSecret) throw new TypeError('verifyDisconnectHook needs { clientId, clientSecret }');
  const got = {} as Record<HookParameter, string>;
  for (const name of HOOK_PARAMETERS) {
    const values = valuesOf(query, name);
    if (values.length === 0 || values[0] === '') return { ok: false, reason: 'missing-parameter', parameter: name, detail: `the ${name} parameter is missing` };
    if (values.length > 1) return { ok: false, reason: 'repeated-parameter', parameter: name, detail: `the ${name} parameter is given ${values.length} times` };
    got[name] = values[0]!;
  }
  if (!sameBytes(got.client_uuid, credentials.clientId)) {
    return { ok: false, reason: 'foreign-client-uuid', detail: 'client_uuid is not this integration\'s ID' };
  }
  const expected = disconnectHookSignature(got.client_uuid, got.account_id, credentials.clientSecret);
  // Hex digits compare case-insensitively; everything else about the signature is compared byte for byte.
  if (!sameBytes(got.signature.toLowerCase(), expected)) {
    return { ok: false, reason: 'bad-signature', detail: 'signature is not the HMAC-SHA256 of client_uuid|account_id under the secret key' };
  }
  return { ok: true, accountId: got.account_id, clientId: got.client_id };
}
