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

export function accountRequest(target: TargetConfig, bearer: string | undefined): HttpRequest {
  return {
    method: 'GET',
    url: `${target.baseUrl}/api/v4/account`,
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
