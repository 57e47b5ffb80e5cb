/**
 * What the rules of §5.1 share: fixtures, case tables and the makers of rule families.
 */
import fc from 'fast-check';
import { type CredentialPlace, CREDENTIAL_PLACES, type Endpoint, ENDPOINTS, type HttpRequest, LISTS, wrongMethods } from '../kit.js';

/** Authorization headers every protected resource refuses with 401 (none, empty, another scheme, a token nobody issued). */
export const REFUSED_HEADERS: readonly (string | undefined)[] = [undefined, 'Bearer', 'Basic dXNlcjpwYXNz', 'Bearer not-a-token-anyone-issued-0123456789', 'Bearer eyJhbGciOiJSUzI1NiJ9.eyJqdGkiOiJ4In0.c2ln'];

/** Of those, the ones that carry a token, which RFC 6750 §3.1 calls invalid_token. */
export const INVALID_TOKENS: readonly string[] = ['Bearer not-a-token-anyone-issued-0123456789', 'Bearer eyJhbGciOiJSUzI1NiJ9.eyJqdGkiOiJ4In0.c2ln'];

/**
 * The case of the statement a refused Authorization header is (the places table asks each to reach every place where a
 * credential is checked, issue 39): none, an empty Bearer, another scheme, two tokens, garbage, an unknown token.
 */
export function refusedCase(header: string | undefined): string {
  if (header === undefined) return 'no Authorization';
  if (/^Bearer *$/i.test(header)) return 'empty Bearer';
  if (/^Basic /i.test(header)) return 'another scheme';
  if (/^Bearer \S+ \S+/i.test(header)) return 'two tokens';
  if (/^Bearer [^.\s]+\.[^.\s]+\.[^.\s]+$/i.test(header)) return 'unknown JWT';
  if (/^Bearer \S+$/i.test(header)) return 'unknown token';
  return 'garbage header';
}

/** Of the malformed headers api.bearer.malformed generates, the case each kind is (refusedCase's names). */
export const MALFORMED_CASES = {
  'no-token': 'empty Bearer', 'empty-token': 'empty Bearer', 'basic-scheme': 'another scheme', 'random-opaque': 'unknown token',
  'random-jwt-shaped': 'unknown JWT', 'two-tokens': 'two tokens', 'printable-garbage': 'garbage header',
} as const;

/** One refused header of each case, sent at every place a credential is checked (api.bearer.every-endpoint). */
export const EVERY_PLACE_HEADERS: readonly (string | undefined)[] = [...REFUSED_HEADERS, 'Bearer not-a-token another-token', 'x!y~not-a-scheme'];

export const showHeader = (h: string | undefined) => (h === undefined ? 'no Authorization' : `Authorization: ${h.length > 24 ? `${h.slice(0, 24)}…` : h}`);

export function withAuthorization(baseUrl: string, header: string | undefined): HttpRequest {
  const headers: Record<string, string> = header === undefined ? {} : { authorization: header };
  return { method: 'GET', url: `${baseUrl}/api/v4/account`, headers };
}

export interface MethodCase {
  readonly endpoint: Endpoint;
  readonly method: string;
}

export const METHOD_CASES: readonly MethodCase[] = ENDPOINTS.flatMap((endpoint) => wrongMethods(endpoint).map((method) => ({ endpoint, method })));

/** Paths no endpoint serves: a list the spec does not name, a word, a sub-path of a real endpoint. */
export const UNKNOWN_PATHS: readonly string[] = ['/api/v4/deals', '/api/v4/no-such-list', '/api/v4/account/extra', '/api/v4/leads/extra/path', '/api/v5/account'];

export const KNOWN = new Set<string>(['account', ...LISTS]);

export interface NoAuthCase {
  readonly place: CredentialPlace;
  /** The whole Authorization header; none when undefined. */
  readonly header?: string;
}

/** Every refused header at every place a credential is checked: the account, each list, page 2 of each list. */
export const NO_AUTH_CASES: readonly NoAuthCase[] = CREDENTIAL_PLACES.flatMap((place) => EVERY_PLACE_HEADERS.map((header) => (header === undefined ? { place } : { place, header })));

/** Query keys that client libraries and careless callers send, brackets unbalanced included. */
export const queryKey = fc.oneof(
  { arbitrary: fc.constantFrom('filter[id]', 'filter[id][]', 'filter[name]', 'page', 'limit', 'with', 'order[id]', 'query', 'filter]]', '[[', 'filter[[id]'), weight: 3 },
  { arbitrary: fc.string({ maxLength: 8 }), weight: 1 },
);

export const queryString = fc.dictionary(queryKey, fc.string({ maxLength: 12 }), { maxKeys: 3 })
  .map((d) => (Object.keys(d).length === 0 ? '' : `?${Object.entries(d).map(([k, v]) => `${encodeURI(k)}=${encodeURIComponent(v)}`).join('&')}`));

export interface OddHeader {
  readonly what: string;
  readonly header: string;
}

/** Headers a careless or hostile client sends; repeated headers are out of reach of the kit's request model. */
export const ODD_HEADERS: readonly OddHeader[] = [
  { what: '16 KiB token', header: `Bearer ${'a'.repeat(16 * 1024)}` },
  // HTTP header values are bytes; the UTF-8 bytes of Cyrillic and an emoji are sent as they are.
  { what: 'non-ASCII token (UTF-8 bytes)', header: Buffer.from('Bearer токен-😀', 'utf8').toString('latin1') },
  { what: 'Latin-1 byte in the scheme', header: 'B\u00e9arer abc' },
];

export type TlsEndpoint = 'access-granting page' | 'token endpoint' | 'account API';

export const TLS_ENDPOINTS: readonly TlsEndpoint[] = ['access-granting page', 'token endpoint', 'account API'];

export type Stale = 'revoked long-lived token' | 'expired access token' | 'forged access token';

/**
 * Past the access token's lifetime as the server stated it (§2.2 "Lifetime is returned as expires_in"; the lifetime
 * reading: probed from expires_in, not a constant of the kit, K41), by a margin no clock skew covers.
 */
export const PAST_EXPIRY_MARGIN_SECONDS = 600;
