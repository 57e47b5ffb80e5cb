/**
 * Checks of the token response object (§2.3). Each one judges a single field, so a report names exactly what is off.
 */
import { decodeJwt, decodeProtectedHeader } from 'jose';
import type { Judge } from '../model/check.js';
import type { HttpResponse } from '../model/http.js';
import { fail, nonStrict, observed, pass } from '../model/outcome.js';
import { tokenPairOf } from '../protocol/oauth.js';
import { jsonContentType, parseJson } from './json.js';
import { status } from './status.js';
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

/** A server_time further than this from the reference clock is not "Server time of the response" (R2-A5). */
export const SERVER_TIME_FAR_S = 3600;

/**
 * server_time is an int timestamp in seconds (REQ-2.3-server-time, reading answer-member): missing or not an int fails.
 * The spec gives no tolerance for the clock itself, so a skew beyond `toleranceS` of `reference` (the target's control
 * clock: 5 s; the kit's clock: 300 s) is recorded (K4); beyond an hour it is not the time of the response at all (a
 * local time zone read as UTC, a value frozen at issue), and fails (R2-A5).
 */
export function serverTimeNear(reference: number, toleranceS = 300): Check {
  return (res) => {
    const { present, value } = field(res, 'server_time');
    if (!present) return fail('server_time', 'expected server_time, an integer timestamp; observed no server_time field');
    if (typeof value !== 'number' || !Number.isInteger(value)) return fail('server_time', `expected an integer timestamp in seconds, observed ${show(value)}`);
    const skew = value - reference;
    if (value > 1e11) return fail('server_time', `expected a timestamp in seconds, observed ${value} (milliseconds?)`);
    if (Math.abs(skew) <= toleranceS) return pass('server_time', `server_time ${value}, ${skew} s from the reference clock`);
    return Math.abs(skew) > SERVER_TIME_FAR_S
      ? fail('server_time', `server_time ${value} is ${skew} s from the reference clock ${reference}: more than an hour off is not "Server time of the response" (a local time zone, or a time frozen at issue?)`)
      : observed('server_time', `server_time ${value} is ${skew} s from the reference clock ${reference} (beyond ${toleranceS} s, within an hour; the spec states no tolerance, recorded)`);
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

export const accessTokenPresent: Check = (res) => {
  const { present, value } = field(res, 'access_token');
  return typeof value === 'string' && value.length > 0
    ? pass('access_token', 'access_token present')
    : fail('access_token', `expected a non-empty access_token string, observed ${present ? show(value) : 'no access_token field'}`);
};

/**
 * An exchange that works is the §4.1 token answer, not only a 200 (issue 39 item 4): its access_token and refresh_token
 * (§2.3); the rules of §2.3 judge the rest of its shape.
 */
export const tokensIssued: readonly Check[] = [status(200), jsonContentType, (res) => accessTokenPresent(res), (res) => refreshTokenPresent(res)];

export const refreshTokenPresent: Check = (res) => {
  const { present, value } = field(res, 'refresh_token');
  return typeof value === 'string' && value.length > 0
    ? pass('refresh_token', 'refresh_token present')
    : fail('refresh_token', `expected a non-empty refresh_token string, observed ${present ? show(value) : 'no refresh_token field'}`);
};

/**
 * The JWT's `exp` agrees with expires_in (REQ-2.2-jwt-exp, reading rfc-unstated): exp within a minute of iat (or, without
 * iat, server_time) + expires_in. An exp that says otherwise is non_strict (K1): two lifetimes that disagree. A missing
 * claim is only recorded: RFC 7519 makes exp and iat optional and the spec names neither (R2-A1). The lifetime itself is
 * probed from expires_in elsewhere.
 */
export const jwtExpiryMatchesExpiresIn: Check = (res) => {
  const body = parseJson(res) as { access_token?: unknown; expires_in?: unknown; server_time?: unknown } | undefined;
  if (typeof body?.access_token !== 'string' || typeof body.expires_in !== 'number') return nonStrict('JWT exp', 'expected an access_token JWT and a numeric expires_in to compare (judged by their own rules)');
  let claims: { exp?: unknown; iat?: unknown };
  try {
    claims = decodeJwt(body.access_token);
  } catch {
    return nonStrict('JWT exp', 'the access token does not decode as a JWT (judged by oauth.token-response.access-token-jwt)');
  }
  const issued = typeof claims.iat === 'number' ? claims.iat : typeof body.server_time === 'number' ? body.server_time : undefined;
  if (typeof claims.exp !== 'number' || issued === undefined) return observed('JWT exp', `no exp, or neither iat nor server_time, to compare with expires_in (exp ${show(claims.exp)}, iat ${show(claims.iat)}; both claims are optional in RFC 7519 and the spec names neither), recorded`);
  const lifetime = claims.exp - issued;
  const from = typeof claims.iat === 'number' ? 'iat' : 'server_time';
  return Math.abs(lifetime - body.expires_in) <= 60
    ? pass('JWT exp', `exp − ${from} = ${lifetime} s, expires_in ${body.expires_in}`)
    : nonStrict('JWT exp', `expected exp − ${from} = expires_in (${body.expires_in} s), observed ${lifetime} s`);
};

/**
 * Of parallel exchanges of one refresh token, at most one answers 200 with a token pair (§2.2 "exchangeable once only",
 * REQ-3.1-refresh-concurrent-single-use): two winners fail; none at all (every racer refused) is non_strict (K13).
 */
export const singleWinner: Judge<readonly HttpResponse[]> = (answers) => {
  const statuses = answers.map((r) => r.status).join(', ');
  if (answers.some((r) => r.status >= 500)) return fail('no 5xx', `a parallel refresh exchange answered a server error (statuses ${statuses})`);
  const winners = answers.filter((r) => r.status >= 200 && r.status < 300 && tokenPairOf(r.text)).length;
  if (winners === 1) return pass('single use', `one of ${answers.length} parallel exchanges succeeded (statuses ${statuses})`);
  return winners === 0
    ? nonStrict('single use', `expected one of ${answers.length} parallel exchanges to succeed, observed none (statuses ${statuses}): still single use, but the valid token bought nothing`)
    : fail('single use', `expected exactly one of ${answers.length} parallel exchanges to succeed, observed ${winners} (statuses ${statuses})`);
};

/**
 * After a race of one refresh token, whether the winner's new refresh token still exchanges: recorded (REQ-3.1-refresh-
 * concurrent-single-use), since the losers replayed a rotated token and RFC 6749 §10.4 lets a server revoke the family (K14).
 */
export const winnerRefreshObserved: Judge<HttpResponse | undefined> = (res) => {
  if (!res) return observed('winner works', 'no exchange won the race, so no new refresh token to try');
  return res.status >= 200 && res.status < 300
    ? pass('winner works', `the winner's new refresh token exchanged (status ${res.status})`)
    : observed('winner works', `the winner's new refresh token was refused (status ${res.status}): the family revoked after the replays, recorded`);
};

/**
 * Whether GET /api/v4/account names the chosen account's id: recorded, the body is "not shown" (§4.1, K33). Its
 * status is judged by its own check.
 */
export function accountIdRecorded(accountId: number): Check {
  return (res) => {
    if (res.status < 200 || res.status >= 300) return pass('account id', `status ${res.status}: no body to read`);
    const body = parseJson(res);
    const id = body !== null && typeof body === 'object' ? (body as Record<string, unknown>).id : undefined;
    return id === accountId
      ? pass('account id', `the account answer names account ${accountId}`)
      : observed('account id', `the account answer names ${id === undefined ? 'no id' : `id ${show(id)}`}, not ${accountId} (its body is not shown in the spec), recorded`);
  };
}

/** A code exchanged at an account's address (`{base_url}`), and the API at that address asked with the token it gave. */
export interface ExchangeAtAddress {
  readonly exchanged: HttpResponse;
  /** GET /api/v4/account at the same address with the access token, when the exchange gave one. */
  readonly probe?: HttpResponse;
}

/**
 * A credential granted in the run's account (a fresh code, or the refresh token of a fresh pair), exchanged at another
 * account's address, must give no token (REQ-0-base-url-per-account, R2-A7). Which token came back says how it went
 * wrong: one that works at that address reaches an account the user never chose, and fails; one it refuses is the
 * credential's own account's, exchanged across accounts, and is recorded (observed). Without a token, the status is
 * judged apart.
 */
export function noTokenAtAnotherAddress(credential: 'code' | 'refresh token'): Judge<ExchangeAtAddress> {
  return ({ exchanged, probe }) => {
    const name = 'no token at another address';
    if (!probe) return pass(name, `no token issued (status ${exchanged.status})`);
    return probe.status === 200
      ? fail(name, `the ${credential}, granted in the run's account, was exchanged at another account's address for a token that works there: access to an account the user never chose`)
      // Recorded (R2-A7): the token reaches only the account the user chose; nothing the spec states refuses the exchange.
      : observed(name, `the ${credential}, granted in the run's account, was exchanged at another account's address for a token that address refuses (GET /api/v4/account answered ${probe.status}): the token is its own account's`);
  };
}
