/**
 * RS256 access tokens. One key pair per process, generated lazily and shared by every emulator instance:
 * RSA key generation takes long enough to slow a test suite that starts many emulators. Instances still refuse
 * each other's tokens, because a token is only accepted when its `jti` is in the instance's own registry.
 */
import { SignJWT, errors, generateKeyPair, jwtVerify, type JWTPayload } from 'jose';
import { randomUUID } from 'node:crypto';

type KeyPair = Awaited<ReturnType<typeof generateKeyPair>> & { readonly kid: string };

let keys: Promise<KeyPair> | undefined;

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
}

export async function signAccessToken(claims: AccessClaims): Promise<string> {
  const { privateKey, kid } = await signingKeys();
  const { aud, jti, iat, nbf, exp, sub, ...rest } = claims;
  return new SignJWT({ ...rest, scopes: [...claims.scopes] })
    .setProtectedHeader({ alg: 'RS256', typ: 'JWT', kid })
    .setAudience(aud)
    .setJti(jti)
    .setIssuedAt(iat)
    .setNotBefore(nbf)
    .setExpirationTime(exp)
    .setSubject(sub)
    .sign(privateKey);
}

export type VerifiedToken =
  | { readonly ok: true; readonly payload: JWTPayload; readonly expired: boolean }
  | { readonly ok: false };

/**
 * Checks the signature and `nbf` at `now`. An expired token is still reported with its payload, flagged
 * `expired`, so the caller decides (the `ignore-token-expiry` fault lives with the caller, in one place).
 */
export async function verifyAccessToken(token: string, now: Date, options: { ignoreNbf?: boolean } = {}): Promise<VerifiedToken> {
  const { publicKey } = await signingKeys();
  try {
    const { payload } = await jwtVerify(token, publicKey, { algorithms: ['RS256'], currentDate: now });
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
