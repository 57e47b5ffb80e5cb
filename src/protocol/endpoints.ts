/**
 * The catalogue of the service's non-chat endpoints (§4.1, §4.2, §5.1): method, path, how a caller authenticates, and
 * a well-formed body where one is sent. HTTP robustness rules run over every entry instead of a few hand-picked ones.
 */
import type { HttpRequest } from '../model/http.js';
import type { TargetConfig } from '../model/target.js';
import { LISTS } from './filters.js';
import { refreshGrant } from './oauth.js';

/** `bearer`: an access token in Authorization (§5.1.1); `client`: client credentials in the body (§4.1). */
export type AuthKind = 'bearer' | 'client';

export interface Endpoint {
  /** Short name for case labels (`token`, `account`, `list leads`). */
  readonly name: string;
  readonly method: 'GET' | 'POST';
  /** Every method the endpoint serves on its path, when more than `method` (the lists also take POST and PATCH writes). */
  readonly methods?: readonly string[];
  /** Path under `{base_url}`. */
  readonly path: string;
  readonly auth: AuthKind;
  /** A well-formed JSON body for POST endpoints (not necessarily one the target accepts: the token is made up). */
  readonly body?: (target: Pick<TargetConfig, 'baseUrl' | 'credentials'>) => Record<string, unknown>;
}

export const ENDPOINTS: readonly Endpoint[] = [
  { name: 'token', method: 'POST', path: '/oauth2/access_token', auth: 'client', body: (target) => refreshGrant(target, 'not-a-real-refresh-token') },
  { name: 'account', method: 'GET', path: '/api/v4/account', auth: 'bearer' },
  ...LISTS.map((list): Endpoint => ({ name: `list ${list}`, method: 'GET', methods: ['GET', 'POST', 'PATCH'], path: `/api/v4/${list}`, auth: 'bearer' })),
];

export const BEARER_ENDPOINTS: readonly Endpoint[] = ENDPOINTS.filter((e) => e.auth === 'bearer');

const isList = (e: Endpoint): boolean => e.name.startsWith('list ');

/** The four lists (§4.2), the bearer endpoints besides the account. */
export const LIST_ENDPOINTS: readonly Endpoint[] = BEARER_ENDPOINTS.filter(isList);

/** Methods no endpoint of the catalogue serves on its path (HEAD and OPTIONS left out: servers answer them generically). */
export function wrongMethods(endpoint: Endpoint): readonly string[] {
  const served = endpoint.methods ?? [endpoint.method];
  return ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].filter((m) => !served.includes(m));
}

export interface EndpointCall {
  readonly method?: string;
  readonly bearer?: string;
  /** Raw body and its Content-Type; default: the endpoint's well-formed body as JSON, for POST endpoints. */
  readonly body?: string;
  readonly contentType?: string;
  /** Appended to the path as is (`?a=1`). */
  readonly query?: string;
}

/**
 * `bearer` at a bearer endpoint: its GET, a list asked for one page of one record, so that probing a token at every
 * place costs a small answer each.
 */
export function bearerProbe(target: Pick<TargetConfig, 'baseUrl' | 'credentials'>, endpoint: Endpoint, bearer: string): HttpRequest {
  return endpointRequest(target, endpoint, { bearer, ...(isList(endpoint) ? { query: '?limit=1' } : {}) });
}

/** A place a credential is checked at: a bearer endpoint, and for a list its first page or a later one (issue 39). */
export interface CredentialPlace {
  readonly endpoint: Endpoint;
  readonly page: 1 | 2;
}

/** The account, each list, and page 2 of each list (one record a page), where a server may check the bearer on page 1 only. */
export const CREDENTIAL_PLACES: readonly CredentialPlace[] = [
  ...BEARER_ENDPOINTS.map((endpoint): CredentialPlace => ({ endpoint, page: 1 })),
  ...LIST_ENDPOINTS.map((endpoint): CredentialPlace => ({ endpoint, page: 2 })),
];

export const credentialPlaceName = (p: CredentialPlace): string => (p.page === 1 ? p.endpoint.name : `${p.endpoint.name} page 2`);

/**
 * A request with `authorization` (the whole header, none when undefined) at `place`: the account's GET, a list's page of
 * one record (page 2 as `_links.next` names it), so that probing a credential at every place costs a small answer each.
 */
export function credentialProbe(target: Pick<TargetConfig, 'baseUrl' | 'credentials'>, place: CredentialPlace, authorization: string | undefined): HttpRequest {
  const req = endpointRequest(target, place.endpoint, isList(place.endpoint) ? { query: place.page === 1 ? '?limit=1' : '?limit=1&page=2' } : {});
  return { ...req, headers: { ...req.headers, ...(authorization === undefined ? {} : { authorization }) } };
}

/** `bearer` as the Bearer credential at `place` (credentialProbe). */
export const bearerAt = (target: Pick<TargetConfig, 'baseUrl' | 'credentials'>, place: CredentialPlace, bearer: string): HttpRequest => credentialProbe(target, place, `Bearer ${bearer}`);

/** A request to `endpoint`, as a client would build it, with what `call` changes. */
export function endpointRequest(target: Pick<TargetConfig, 'baseUrl' | 'credentials'>, endpoint: Endpoint, call: EndpointCall = {}): HttpRequest {
  const method = call.method ?? endpoint.method;
  const headers: Record<string, string> = {};
  if (call.bearer !== undefined) headers.authorization = `Bearer ${call.bearer}`;
  const body = call.body ?? (method !== 'GET' && endpoint.body ? JSON.stringify(endpoint.body(target)) : undefined);
  if (body !== undefined) headers['content-type'] = call.contentType ?? 'application/json';
  return { method, url: `${target.baseUrl}${endpoint.path}${call.query ?? ''}`, headers, ...(body === undefined ? {} : { body }) };
}
