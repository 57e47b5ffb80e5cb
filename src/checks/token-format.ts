/**
 * Checks of what a token answer and a bearer refusal carry beyond the spec's own fields: the JWT's signature and claims
 * (RFC 7519, RFC 8725), caching (RFC 6749 §5.1), the WWW-Authenticate challenge (RFC 6750 §3), and how guessable the
 * issued credentials are (RFC 6749 §10.10). Each judges one thing.
 */
import { decodeJwt, decodeProtectedHeader } from 'jose';
import type { Check, Judge } from '../model/check.js';
import type { HttpResponse } from '../model/http.js';
import { fail, nonStrict, observed, pass } from '../model/outcome.js';
import { tokenPairOf } from '../protocol/oauth.js';

function accessTokenOf(res: HttpResponse): string | undefined {
  return tokenPairOf(res.text)?.access_token;
}

function claimsOf(res: HttpResponse): Record<string, unknown> | undefined {
  const token = accessTokenOf(res);
  if (!token) return undefined;
  try {
    return decodeJwt(token) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

const mask = (s: string) => `${s.slice(0, 4)}…`;

/**
 * The access token is a JWS whose header names a signature or MAC algorithm and which carries the signature (RFC 8725
 * §3.1–3.2, REQ-2.2-jwt-signed): HS*, RS*, PS*, ES* and EdDSA all pass (K24); alg none or an empty signature fails.
 */
export const accessTokenSigned: Check = (res) => {
  const token = accessTokenOf(res);
  if (!token) return fail('signed JWT', 'expected a token answer with an access_token, observed none');
  let alg: unknown;
  try {
    alg = decodeProtectedHeader(token).alg;
  } catch {
    return fail('signed JWT', 'the access token has no JWT header that decodes');
  }
  const signature = token.split('.')[2] ?? '';
  if (typeof alg !== 'string' || alg.toLowerCase() === 'none') return fail('signed JWT', `expected a signature algorithm in the header, observed alg ${JSON.stringify(alg)}`);
  if (!signature) return fail('signed JWT', `the header names ${alg} but the signature part is empty`);
  return pass('signed JWT', `alg ${alg}, signature present`);
};

/**
 * No claim of the access token holds a secret of the integration: its client secret or a channel secret (the claims are
 * readable by anyone who holds the token, REQ-2.2-jwt-no-secrets). `recorded` are values whose presence is only
 * recorded: an authorization code, already spent once the token exists (K23), and the refresh token, which the one
 * application that must keep the access token private holds anyway (§2.2, R2-A4).
 */
export function claimsHoldNoSecret(secrets: readonly (string | undefined)[], recorded: readonly (string | undefined)[] = []): Check {
  const known = secrets.filter((s): s is string => typeof s === 'string' && s.length >= 8);
  const noted = recorded.filter((s): s is string => typeof s === 'string' && s.length >= 8);
  return (res) => {
    const claims = claimsOf(res);
    if (!claims) return fail('no secret in claims', 'expected an access token whose claims decode');
    const text = JSON.stringify(claims);
    const found = known.filter((s) => text.includes(s));
    if (found.length > 0) return fail('no secret in claims', `the access token's claims carry ${found.length} secret value(s) of the integration (masked: ${found.map(mask).join(', ')})`);
    const refresh = tokenPairOf(res.text)?.refresh_token;
    const seen = [...noted, ...(refresh && refresh.length >= 8 ? [refresh] : [])].filter((s) => text.includes(s));
    return seen.length === 0
      ? pass('no secret in claims', `claims ${Object.keys(claims).join(', ')}`)
      : observed('no secret in claims', `the claims carry ${seen.length} value(s) the application holds anyway, such as the spent authorization code or the refresh token (masked: ${seen.map(mask).join(', ')}), recorded`);
  };
}

/**
 * The access tokens differ, and so do their jti claims where they carry one (RFC 7519 §4.1.7 makes jti optional,
 * REQ-2.2-jwt-jti-unique): tokens without a jti pass when they are distinct (K25); two equal tokens or jtis fail.
 */
export const distinctJti: Judge<readonly HttpResponse[]> = (answers) => {
  const tokens = answers.map((r) => accessTokenOf(r));
  if (tokens.some((tk) => tk === undefined)) return fail('unique jti', `expected an access token in each of ${answers.length} answers, observed ${tokens.filter((tk) => tk === undefined).length} without one`);
  if (new Set(tokens).size !== tokens.length) return fail('unique jti', `expected ${tokens.length} distinct access tokens, observed ${new Set(tokens).size}`);
  const jtis = answers.map((r) => claimsOf(r)?.jti).filter((j) => typeof j === 'string' && j !== '');
  if (new Set(jtis).size !== jtis.length) return fail('unique jti', `expected distinct jti claims, observed ${jtis.length} jtis of which ${new Set(jtis).size} distinct`);
  return pass('unique jti', jtis.length === tokens.length
    ? `${tokens.length} access tokens, ${jtis.length} distinct jti`
    : `${tokens.length} distinct access tokens, ${jtis.length} with a jti (the claim is optional, RFC 7519 §4.1.7)`);
};

/** Records the claim names and audience of the access token (info). */
export const claimsObserved: Check = (res) => {
  const claims = claimsOf(res);
  if (!claims) return observed('claims', 'the access token does not decode as a JWT');
  const { aud } = claims;
  return observed('claims', `claims ${Object.keys(claims).sort().join(', ')}; aud ${aud === undefined ? 'absent' : typeof aud === 'string' ? 'a string' : Array.isArray(aud) ? 'an array' : typeof aud}`);
};

/** RFC 6749 §5.1: a token answer carries Cache-Control: no-store; the spec does not restate it, so its absence is non_strict (K26). */
export const cacheControlNoStore: Check = (res) => {
  const value = res.headers['cache-control'] ?? '';
  return /(^|,)\s*no-store\s*(,|$)/i.test(value)
    ? pass('Cache-Control no-store', `Cache-Control: ${value}`)
    : nonStrict('Cache-Control no-store', `expected Cache-Control: no-store on a token answer (RFC 6749 §5.1), observed ${value ? `Cache-Control: ${value}` : 'none'}`);
};

/**
 * RFC 6750 §3: a 401 of a protected resource carries a WWW-Authenticate challenge of the Bearer scheme, with any
 * parameters (realm, error, error_description). The spec does not restate it: a 401 without it is non_strict (K30).
 */
export const wwwAuthenticateBearer: Check = (res) => {
  if (res.status !== 401) return pass('WWW-Authenticate', `status ${res.status}: no challenge is due`);
  const value = res.headers['www-authenticate'] ?? '';
  return /^\s*bearer(\s|,|$)/i.test(value)
    ? pass('WWW-Authenticate', `WWW-Authenticate: ${value}`)
    : nonStrict('WWW-Authenticate', `expected a 401 to carry WWW-Authenticate: Bearer (RFC 6750 §3), observed ${value ? `WWW-Authenticate: ${value}` : 'none'}`);
};

/**
 * RFC 6750 §3.1: the challenge names the error code (`invalid_token` for a token that is not valid). The spec does not
 * restate it: a challenge without it, or without any challenge, is non_strict (K30). Judged only on a 401 (the status
 * is judged by its own check).
 */
export function wwwAuthenticateError(code: string): Check {
  return (res) => {
    if (res.status !== 401) return pass('error attribute', `status ${res.status}: no challenge is judged`);
    const value = res.headers['www-authenticate'] ?? '';
    const m = /(?:^|[\s,])error\s*=\s*"?([^",\s]+)"?/i.exec(value);
    if (m?.[1] === code) return pass('error attribute', `error="${code}"`);
    return nonStrict('error attribute', `expected WWW-Authenticate to carry error="${code}" (RFC 6750 §3.1), observed ${value ? `WWW-Authenticate: ${value}` : 'no WWW-Authenticate'}`);
  };
}

/**
 * Bits of a value drawn from the characters its classes span (the usual estimate of a random string's strength),
 * counted over the part that varies among the samples: a prefix or suffix every sample shares (a constant, the high
 * digits of a counter or a clock) carries none.
 */
export function estimatedBits(values: readonly string[]): number {
  const all = values.join('');
  // Hexadecimal (only 0-9 and one case of a-f) is an alphabet of 16, not of 36: 26 hex digits carry 104 bits.
  if (/^[0-9a-f]+$/.test(all) || /^[0-9A-F]+$/.test(all)) return hexBits(values);
  const classes: [RegExp, number][] = [[/[a-z]/, 26], [/[A-Z]/, 26], [/[0-9]/, 10], [/[-_]/, 2], [/[+/=.~]/, 4]];
  const alphabet = classes.filter(([re]) => re.test(all)).reduce((n, [, size]) => n + size, 0);
  const shortest = Math.min(...values.map((v) => v.length));
  const varying = values.length < 2 ? shortest : shortest - sharedEnds(values);
  return alphabet > 1 ? Math.floor(Math.max(0, varying) * Math.log2(alphabet)) : 0;
}

function hexBits(values: readonly string[]): number {
  const shortest = Math.min(...values.map((v) => v.length));
  const varying = values.length < 2 ? shortest : shortest - sharedEnds(values);
  return Math.max(0, varying) * 4;
}

/** The length of the prefix and of the suffix every value shares. */
function sharedEnds(values: readonly string[]): number {
  const shared = (a: readonly string[]) => {
    let n = 0;
    while (a.every((v) => n < v.length && v[n] === a[0]![n])) n += 1;
    return n;
  };
  const prefix = shared(values);
  const suffix = shared(values.map((v) => [...v].reverse().join('')));
  return Math.min(prefix + suffix, Math.min(...values.map((v) => v.length)));
}

/** RFC 6749 §10.10: issued values are unguessable: at least 128 bits by length and alphabet, none repeated. */
export function unguessable(what: string, minimumBits = 128): Judge<readonly string[]> {
  return (values) => {
    if (values.length === 0) return fail(`${what} unguessable`, 'no values were collected');
    const bits = estimatedBits(values);
    const distinct = new Set(values).size;
    if (distinct !== values.length) return fail(`${what} unguessable`, `${values.length - distinct} of ${values.length} values repeat`);
    return bits >= minimumBits
      ? pass(`${what} unguessable`, `${values.length} distinct values, about ${bits} bits each`)
      : fail(`${what} unguessable`, `expected at least ${minimumBits} bits (RFC 6749 §10.10), estimated ${bits} from the shortest of ${values.length} values and their alphabet`);
  };
}
