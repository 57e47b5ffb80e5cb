/**
 * The kinds of credential a run sends (issue 37): which kind "the run's access token" is in this run, which kinds the
 * settings and sources offer, and the kind of what a need hands out, taught to the masker so that the recorder can name
 * the kind each exchange carried (report.json `credential` of an exchange, `credentials` of the run).
 */
import type { Need, NeedSource } from '../model/needs.js';
import type { SupplyPlan } from './plan.js';

export type CredentialKind = 'oauth-access' | 'refreshed-access' | 'long-lived' | 'restricted-user';

/** What the header of a run calls each kind. */
export const CREDENTIAL_WORDS: Readonly<Record<CredentialKind, string>> = {
  'oauth-access': 'an OAuth access token (a fresh pair)',
  'refreshed-access': 'an OAuth access token refreshed from the token store',
  'long-lived': 'the long-lived token (LONG_LIVED_TOKEN)',
  'restricted-user': "a restricted user's token",
};

/** The kind a need's bearer is when `source` supplies it; undefined for a need that hands out no bearer. */
export function credentialKindOf(need: Need, source: NeedSource): CredentialKind | undefined {
  switch (need) {
    case 'access-token': return source === 'settings' ? 'long-lived' : source === 'token-store' ? 'refreshed-access' : 'oauth-access';
    case 'oauth-access-token': return source === 'token-store' ? 'refreshed-access' : 'oauth-access';
    case 'long-lived-token': return 'long-lived';
    case 'restricted-token': return 'restricted-user';
    default: return undefined;
  }
}

const supplied = (plan: SupplyPlan, need: Need) => {
  const s = plan.supplyOf(need, { id: '' });
  return 'source' in s ? s.source : undefined;
};

/** "The run's access token" (the `access-token` need) and every kind of bearer the run can send, for report.json. */
export function runCredentials(plan: SupplyPlan): { readonly access_token: CredentialKind | 'none'; readonly kinds: readonly CredentialKind[] } {
  const kinds = new Set<CredentialKind>();
  for (const need of ['access-token', 'oauth-access-token', 'long-lived-token', 'restricted-token'] as const) {
    const source = supplied(plan, need);
    if (source) kinds.add(credentialKindOf(need, source)!);
  }
  const source = supplied(plan, 'access-token');
  return { access_token: source ? credentialKindOf('access-token', source)! : 'none', kinds: [...kinds] };
}

/** A credential a need handed out, taught with its kind (the masker already masks it). */
export interface CredentialBook {
  addCredential?(secret: string, kind: CredentialKind): void;
}

/** Teaches `book` the bearer in `value`, what `need` handed out (a token, `{ token }`, or a maker of long-lived tokens). */
export function withCredentialKind<T>(book: CredentialBook, kind: CredentialKind | undefined, value: T): T {
  if (!kind || !book.addCredential) return value;
  const teach = (v: unknown) => {
    const token = typeof v === 'string' ? v : (v as { token?: unknown } | null)?.token;
    if (typeof token === 'string') book.addCredential!(token, kind);
    return v;
  };
  if (typeof value === 'function') return (async (...args: unknown[]) => teach(await (value as (...a: unknown[]) => unknown)(...args))) as T;
  return teach(value) as T;
}
