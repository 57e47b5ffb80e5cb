/**
 * Checks of the token response object (§2.3). Each one judges a single field, so a report names exactly what is off.
 */
import { decodeJwt, decodeProtectedHeader } from 'jose';
import type { Judge } from '../model/check.js';
import type { HttpResponse } from '../model/http.js';
import { fail, pass } from '../model/outcome.js';
import { tokenPairOf } from '../protocol/oauth.js';
import { parseJson } from './json.js';
import type { Check } from '../model/check.js';

function field(res: Parameters<Check>[0], name: string): { present: boolean; value: unknown } {
  const body = parseJson(res);
  if (body === null || typeof body !== 'object') return { present: false, value: undefined };
  return { present: name in body, value: (body as Record<string, unknown>)[name] };
}

const show = (v: unknown): string => (typeof v === 'string' ? `the string "${v.length > 40 ? `${v.slice(0, 4)}…` : v}"` : JSON.stringify(v) ?? 'undefined');

/** token_type is a bearer type, compared case-insensitively (docs/design.md §2). */
export const tokenTypeBearer: Check = (res) => {
  const { present, value } = field(res, 'token_type');
  if (!present) return fail('token_type', 'expected token_type "Bearer", observed no token_type field');
  return typeof value === 'string' && value.toLowerCase() === 'bearer'
    ? pass('token_type', `token_type ${value}`)
    : fail('token_type', `expected token_type "Bearer" (any case), observed ${show(value)}`);
};

export const expiresInPositiveInteger: Check = (res) => {
  const { present, value } = field(res, 'expires_in');
  if (!present) return fail('expires_in', 'expected expires_in, a positive integer; observed no expires_in field');
  return typeof value === 'number' && Number.isInteger(value) && value > 0
    ? pass('expires_in', `expires_in ${value}`)
    : fail('expires_in', `expected a positive integer, observed ${show(value)}`);
};

/** server_time is a Unix timestamp in seconds within `toleranceS` of `reference` (the target's clock, or ours). */
export function serverTimeNear(reference: number, toleranceS = 300): Check {
  return (res) => {
    const { present, value } = field(res, 'server_time');
    if (!present) return fail('server_time', 'expected server_time, an integer timestamp; observed no server_time field');
    if (typeof value !== 'number' || !Number.isInteger(value)) return fail('server_time', `expected an integer timestamp in seconds, observed ${show(value)}`);
    const skew = value - reference;
    return Math.abs(skew) <= toleranceS
      ? pass('server_time', `server_time ${value}, ${skew} s from the reference clock`)
      : fail('server_time', `expected a timestamp in seconds within ${toleranceS} s of ${reference}, observed ${value} (${skew} s off${value > 1e11 ? '; milliseconds?' : ''})`);
  };
}

/** access_token is a JWT (§2.2): three base64url parts whose header and payload decode as JSON. */
export const accessTokenIsJwt: Check = (res) => {
  const { present, value } = field(res, 'access_token');
  if (typeof value !== 'string' || !present) return fail('access_token', `expected a JWT string, observed ${present ? show(value) : 'no access_token field'}`);
  try {
    const header = decodeProtectedHeader(value);
    const claims = decodeJwt(value);
    return pass('access_token', `JWT, alg ${header.alg ?? 'none'}, claims ${Object.keys(claims).join(', ')}`);
  } catch (err) {
    return fail('access_token', `expected a decodable JWT, observed a token that does not decode (${(err as Error).message})`);
  }
};

export const refreshTokenPresent: Check = (res) => {
  const { present, value } = field(res, 'refresh_token');
  return typeof value === 'string' && value.length > 0
    ? pass('refresh_token', 'refresh_token present')
    : fail('refresh_token', `expected a non-empty refresh_token string, observed ${present ? show(value) : 'no refresh_token field'}`);
};

/** `exp` − `iat` of the access token equals `expires_in`, within a minute. */
export const jwtExpiryMatchesExpiresIn: Check = (res) => {
  const body = parseJson(res) as { access_token?: unknown; expires_in?: unknown } | undefined;
  if (typeof body?.access_token !== 'string' || typeof body.expires_in !== 'number') return fail('JWT exp', 'expected an access_token JWT and a numeric expires_in');
  let claims: { exp?: unknown; iat?: unknown };
  try {
    claims = decodeJwt(body.access_token);
  } catch {
    return fail('JWT exp', 'the access token does not decode as a JWT');
  }
  if (typeof claims.exp !== 'number' || typeof claims.iat !== 'number') return fail('JWT exp', `expected numeric exp and iat claims, observed exp ${show(claims.exp)}, iat ${show(claims.iat)}`);
  const lifetime = claims.exp - claims.iat;
  return Math.abs(lifetime - body.expires_in) <= 60
    ? pass('JWT exp', `exp − iat = ${lifetime} s, expires_in ${body.expires_in}`)
    : fail('JWT exp', `expected exp − iat = expires_in (${body.expires_in} s), observed ${lifetime} s`);
};

/** Of parallel exchanges of one refresh token, exactly one answers 200 with a token pair (§2.2 "exchangeable once only"). */
export const singleWinner: Judge<readonly HttpResponse[]> = (answers) => {
  const statuses = answers.map((r) => r.status).join(', ');
  if (answers.some((r) => r.status >= 500)) return fail('no 5xx', `a parallel refresh exchange answered a server error (statuses ${statuses})`);
  const winners = answers.filter((r) => r.status === 200 && tokenPairOf(r.text)).length;
  return winners === 1
    ? pass('single use', `one of ${answers.length} parallel exchanges succeeded (statuses ${statuses})`)
    : fail('single use', `expected exactly one of ${answers.length} parallel exchanges to succeed, observed ${winners} (statuses ${statuses})`);
};
