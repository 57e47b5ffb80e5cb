/**
 * Requests of §4.1 "Exchange code or refresh token" and of the account API (§5.1), built the way clients send them.
 */
import { stringify } from 'qs';
import type { TargetConfig } from '../model/target.js';
import type { HttpRequest } from '../model/http.js';
import type { TokenPair } from './answers.js';

/** A token request body: field values are usually strings, but invalid cases put any JSON value there. */
export type TokenFields = Record<string, unknown>;

/** JS clients send JSON (as the spec states); the PHP client sends a form (docs/field-notes.md). */
export type BodyEncoding = 'json' | 'form';

/** What the token requests need of a target: its base URL and the integration's credentials. */
export type TokenEndpoint = Pick<TargetConfig, 'baseUrl' | 'credentials'>;

export function tokenRequest(target: TokenEndpoint, fields: TokenFields, encoding: BodyEncoding = 'json'): HttpRequest {
  const url = `${target.baseUrl}/oauth2/access_token`;
  if (encoding === 'form') {
    return { method: 'POST', url, headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: stringify(fields) };
  }
  return { method: 'POST', url, headers: { 'content-type': 'application/json' }, body: JSON.stringify(fields) };
}

export function codeGrant(target: TokenEndpoint, code: string): TokenFields {
  const c = target.credentials;
  return { client_id: c.clientId, client_secret: c.clientSecret, grant_type: 'authorization_code', code, redirect_uri: c.redirectUri };
}

export function refreshGrant(target: TokenEndpoint, refreshToken: string, options: { withSecret?: boolean } = {}): TokenFields {
  const c = target.credentials;
  const fields: TokenFields = { client_id: c.clientId, grant_type: 'refresh_token', refresh_token: refreshToken, redirect_uri: c.redirectUri };
  if (options.withSecret ?? true) fields.client_secret = c.clientSecret;
  return fields;
}

/**
 * The `with=` values the live service's account reference names (docs/field-notes.md); the spec shows no account
 * body, so they are what clients send, not what a server must answer.
 */
export const ACCOUNT_WITH = [
  'amojo_id', 'amojo_rights', 'users_groups', 'task_types', 'version', 'entity_names', 'datetime_settings', 'drive_url', 'is_api_filter_enabled', 'uuid',
] as const;

/** The account query strings a client may send: each `with=` value, all of them, in each spelling, and ones a server does not know. */
export const ACCOUNT_QUERIES: readonly { readonly what: string; readonly query: string }[] = [
  ...ACCOUNT_WITH.map((w) => ({ what: `with=${w}`, query: `with=${w}` })),
  { what: 'every with value', query: `with=${ACCOUNT_WITH.join(',')}` },
  { what: 'with as an array', query: ACCOUNT_WITH.slice(0, 3).map((w) => `with[]=${w}`).join('&') },
  { what: 'with as an indexed array', query: 'with[0]=amojo_id&with[1]=version' },
  { what: 'with repeated', query: 'with=amojo_id&with=version' },
  { what: 'an unknown with value', query: 'with=no_such_extra' },
  { what: 'known and unknown with values', query: 'with=amojo_id,no_such_extra,version' },
  { what: 'an empty with', query: 'with=' },
  { what: 'with of commas', query: 'with=,,' },
  { what: 'with in upper case', query: 'with=AMOJO_ID' },
];

export function accountRequest(target: TargetConfig, bearer: string | undefined, query = ''): HttpRequest {
  return {
    method: 'GET',
    url: `${target.baseUrl}/api/v4/account${query ? `?${query}` : ''}`,
    headers: bearer === undefined ? {} : { authorization: `Bearer ${bearer}` },
  };
}

/** The token pair of a 200 token response, when the body has one. */
export function tokenPairOf(text: string): TokenPair | undefined {
  try {
    const body = JSON.parse(text) as Partial<TokenPair>;
    return typeof body.access_token === 'string' && typeof body.refresh_token === 'string' ? (body as TokenPair) : undefined;
  } catch {
    return undefined;
  }
}
