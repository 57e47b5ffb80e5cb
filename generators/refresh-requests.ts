/**
 * fast-check arbitraries for the refresh grant (§4.1, §3.1): the same breakages as the code grant's
 * (generators/token-requests.ts), applied to the fields of a refresh exchange, each naming the field and how it breaks.
 */
import fc from 'fast-check';
import { applyMutation, mutation, NEAR_MISSES, type Mutation, type NearMiss, type TokenBreakage, type WrongType } from './token-requests.js';

export const REFRESH_FIELDS = ['client_id', 'client_secret', 'refresh_token', 'redirect_uri'] as const;
export type RefreshField = (typeof REFRESH_FIELDS)[number];

/** One way of breaking one field of a valid refresh exchange (the shape of a code-grant Mutation, on refresh fields). */
export type RefreshMutation =
  | { readonly field: RefreshField; readonly breakage: 'missing' }
  | { readonly field: RefreshField; readonly breakage: 'wrong'; readonly nearMiss?: NearMiss; readonly value?: string }
  | { readonly field: RefreshField; readonly breakage: 'wrong-type'; readonly wrongType: WrongType; readonly value?: unknown };

/** The code grant's arbitrary for a string field (`code`: no field-specific values), moved to `field`. */
export function refreshMutation(field: RefreshField, breakage: TokenBreakage): fc.Arbitrary<RefreshMutation> {
  return mutation('code', breakage).map((m) => ({ ...m, field }) as RefreshMutation);
}

/** Every near miss of a field, named: a sweep tries each of them every run. */
export function nearMissesOf(field: RefreshField): RefreshMutation[] {
  return (Object.keys(NEAR_MISSES) as NearMiss[]).map((nearMiss) => ({ field, breakage: 'wrong', nearMiss }));
}

/** Wrong JSON types of a field, named: the wrapped valid value (which a String() coercion accepts) and plain others. */
export function wrongTypesOf(field: RefreshField): RefreshMutation[] {
  // Plain other values first: one pair serves the whole sweep, and a wrapped value a server coerces and accepts (non_strict)
  // consumes it, after which a value that must be refused would be refused for the wrong reason.
  return [
    ...[42, true, null].map((value) => ({ field, breakage: 'wrong-type' as const, wrongType: 'other' as const, value })),
    { field, breakage: 'wrong-type', wrongType: 'wrapped-in-array' },
    { field, breakage: 'wrong-type', wrongType: 'wrapped-in-object' },
  ];
}

/** The fields with the mutation applied; undefined when it happens to leave the value valid. */
export function applyRefreshMutation(fields: Record<string, unknown>, m: RefreshMutation): Record<string, unknown> | undefined {
  // The code grant's applier is field-agnostic: it reads and writes `m.field` of a plain record.
  return applyMutation(fields, m as unknown as Mutation);
}

/** A short description of the breakage, for case labels (`refresh_token char-appended`). */
export function describeRefreshMutation(m: RefreshMutation): string {
  if (m.breakage === 'missing') return `${m.field} missing`;
  if (m.breakage === 'wrong') return `${m.field} ${m.nearMiss ?? 'replaced by another string'}`;
  return `${m.field} ${m.wrongType === 'other' ? `as ${JSON.stringify(m.value)}` : m.wrongType}`;
}

/**
 * §5.1.4 "identical": forms of a Redirect URI that a normalising comparison takes for the same address, each
 * named. Every one must be refused at the exchange. Undefined where the transform leaves the URI unchanged.
 */
export const REDIRECT_URI_VARIANTS = {
  'other-host-same-path': (u: URL) => withPart(u, (x) => { x.hostname = `attacker.${x.hostname}`; }),
  'fragment-added': (u: URL) => `${u.href}#x`,
  'query-added': (u: URL) => withPart(u, (x) => { x.searchParams.append('next', 'https://attacker.example/'); }),
  'trailing-slash-toggled': (u: URL) => (u.href.endsWith('/') ? u.href.slice(0, -1) : `${u.href}/`),
  'path-upper-case': (u: URL) => withPart(u, (x) => { x.pathname = x.pathname.toUpperCase(); }),
  'host-upper-case': (u: URL) => u.href.replace(u.host, u.host.toUpperCase()),
  'https-to-http': (u: URL) => (u.protocol === 'https:' ? u.href.replace(/^https:/, 'http:') : undefined),
  'http-to-https': (u: URL) => (u.protocol === 'http:' ? u.href.replace(/^http:/, 'https:') : undefined),
  'default-port-explicit': (u: URL) => (u.port ? undefined : u.href.replace(u.host, `${u.host}:${u.protocol === 'https:' ? 443 : 80}`)),
  'dot-segment': (u: URL) => u.href.replace(u.pathname, `/.${u.pathname}`),
  'percent-encoded-path': (u: URL) => (/[a-z]/i.test(u.pathname) ? u.href.replace(u.pathname, u.pathname.replace(/[a-z]/i, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)) : undefined),
} as const satisfies Record<string, (u: URL) => string | undefined>;
export type RedirectUriVariant = keyof typeof REDIRECT_URI_VARIANTS;

/**
 * The variants that name the same resource under URL normalisation (RFC 3986 §6.2.2–6.2.3: host case, an explicit
 * default port, a dot segment, a percent-encoded unreserved letter). Accepting them is an open point of the exact
 * match (REQ-4.1-exchange-redirect-equivalent-forms, K27): recorded, not failed. Every other variant names another
 * resource, and accepting it fails.
 */
export const EQUIVALENT_SPELLINGS: ReadonlySet<RedirectUriVariant> = new Set(['host-upper-case', 'default-port-explicit', 'dot-segment', 'percent-encoded-path']);

function withPart(u: URL, change: (x: URL) => void): string {
  const x = new URL(u.href);
  change(x);
  return x.href;
}

/** The registered Redirect URI in the named variant; undefined when the variant does not apply to it. */
export function redirectUriVariant(registered: string, variant: RedirectUriVariant): string | undefined {
  const out = REDIRECT_URI_VARIANTS[variant](new URL(registered));
  return out === undefined || out === registered ? undefined : out;
}
