/**
 * RS256 access tokens. One key pair per process, generated lazily and shared by every emulator instance:
 * RSA key generation takes long enough to slow a test suite that starts many emulators. Instances still refuse
 * each other's tokens, because a token is only accepted when its `jti` is in the instance's own registry.
 */
import { SignJWT, decodeProtectedHeader, errors, exportJWK, generateKeyPair, importJWK, jwtVerify, type JWK, type JWTPayload } from 'jose';
import { randomBytes, randomUUID } from 'node:crypto';

/** The HMAC key of the `jwt-hs256` variation: one per process, held by the emulator alone. */
const HMAC_KEY = randomBytes(32);

type KeyPair = Awaited<ReturnType<typeof generateKeyPair>> & { readonly kid: string };

let keys: Promise<KeyPair> | undefined;

/** Public keys of earlier processes whose tokens a kept state holds (./../state-file.ts), by `kid`. */
const TRUSTED = new Map<string, ReturnType<typeof importJWK>>();

/** A public verification key by `kid`: this process's, or one of a kept state's. */
export interface PublicKeyJwk {
  readonly kid: string;
  readonly jwk: JWK;
}

/** This process's public key, for a kept state: tokens it signed verify after a restart. */
export async function publicSigningKey(): Promise<PublicKeyJwk> {
  const { publicKey, kid } = await signingKeys();
  return { kid, jwk: await exportJWK(publicKey) };
}

/** Public keys a kept state holds: tokens they signed verify in this process too (an instance still checks its jti). */
export function trustPublicKeys(list: readonly PublicKeyJwk[]): void {
  for (const { kid, jwk } of list) if (!TRUSTED.has(kid)) TRUSTED.set(kid, importJWK(jwk, 'RS256'));
}

/** The public keys trusted beyond this process's own. */
export function trustedPublicKeys(): string[] {
  return [...TRUSTED.keys()];
}

export function signingKeys(): Promise<KeyPair> {
  keys ??= generateKeyPair('RS256', { modulusLength: 2048 }).then((k) => ({ ...k, kid: randomUUID() }));
  return keys;
}

export interface AccessClaims {
  readonly aud: string;
  readonly jti: string;
  readonly iat: number;
  readonly nbf: number;
  readonly exp: number;
  readonly sub: string;
  readonly account_id: number;
  readonly base_domain: string;
  readonly api_domain: string;
  readonly scopes: readonly string[];
  /** A session id, under the `jwt-without-jti` variation: what keeps two tokens of one second apart without a jti. */
  readonly sid?: string;
}

/**
 * Signs the claims RS256, or HS256 under the `jwt-hs256` variation; `omit` leaves claims out (the `jwt-without-jti`
 * and `jwt-without-exp-iat` variations: the registry still knows the token's lifetime).
 */
export async function signAccessToken(claims: AccessClaims, options: { alg?: 'RS256' | 'HS256'; omit?: readonly ('jti' | 'exp' | 'iat')[] } = {}): Promise<string> {
  const { privateKey, kid } = await signingKeys();
  const { aud, jti, iat, nbf, exp, sub, ...rest } = claims;
  const omit = new Set(options.omit ?? []);
  const hmac = options.alg === 'HS256';
  let jwt = new SignJWT({ ...rest, scopes: [...claims.scopes] })
    .setProtectedHeader(hmac ? { alg: 'HS256', typ: 'JWT' } : { alg: 'RS256', typ: 'JWT', kid })
    .setAudience(aud)
    .setNotBefore(nbf)
    .setSubject(sub);
  if (!omit.has('jti')) jwt = jwt.setJti(jti);
  if (!omit.has('iat')) jwt = jwt.setIssuedAt(iat);
  if (!omit.has('exp')) jwt = jwt.setExpirationTime(exp);
  return jwt.sign(hmac ? HMAC_KEY : privateKey);
}

export type VerifiedToken =
  | { readonly ok: true; readonly payload: JWTPayload; readonly expired: boolean }
  | { readonly ok: false };

/**
 * Checks the signature and `nbf` at `now`. An expired token is still reported with its payload, flagged
 * `expired`, so the caller decides (the `ignore-token-expiry` fault lives with the caller, in one place).
 */
export async function verifyAccessToken(token: string, now: Date, options: { ignoreNbf?: boolean } = {}): Promise<VerifiedToken> {
  const own = await signingKeys();
  let hmac = false;
  let publicKey: Awaited<ReturnType<typeof importJWK>> = own.publicKey;
  try {
    const header = decodeProtectedHeader(token);
    hmac = header.alg === 'HS256';
    const kept = header.kid === undefined || header.kid === own.kid ? undefined : TRUSTED.get(header.kid);
    if (kept) publicKey = await kept;
  } catch {
    return { ok: false };
  }
  try {
    // An HS256 token verifies only under the emulator's own HMAC key (the `jwt-hs256` variation); never under the RSA key.
    const { payload } = hmac
      ? await jwtVerify(token, HMAC_KEY, { algorithms: ['HS256'], currentDate: now })
      : await jwtVerify(token, publicKey, { algorithms: ['RS256'], currentDate: now });
    return { ok: true, payload, expired: false };
  } catch (e) {
    // jose checks the signature before the claims, so an expired token here is authentic.
    if (e instanceof errors.JWTExpired) return { ok: true, payload: e.payload, expired: true };
    // Only for the `skip-nbf-check` fault: a token used before its nbf is taken as valid.
    if (options.ignoreNbf && e instanceof errors.JWTClaimValidationFailed && e.claim === 'nbf') return { ok: true, payload: e.payload, expired: false };
    return { ok: false };
  }
}

export function looksLikeJwt(token: string): boolean {
  return /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/.test(token);
}
