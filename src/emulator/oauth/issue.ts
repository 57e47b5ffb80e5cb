/**
 * Minting of authorization codes and tokens. Every value minted here is recorded in the store (so it can be
 * checked and revoked) and in the secret ledger (so tests can prove it never leaks into a report).
 */
import { randomUUID } from 'node:crypto';
import { addCalendarMonthsUtc } from '../clock.js';
import type { EmulatorContext } from '../context.js';
import { secretToken } from '../random.js';
import type { Account } from '../world.js';
import { signAccessToken } from './jwt.js';

/** §2.2: "Valid 20 minutes". */
export const CODE_TTL_MS = 20 * 60 * 1000;
/** §2.2: "Valid 3 months". */
export const REFRESH_TTL_MONTHS = 3;
/** What `expires_in` announces; the live service uses one day. */
export const ACCESS_TOKEN_TTL_SECONDS = 86_400;

/** Who granted access to which integration; carried from the code to every token of the chain. */
export interface Grant {
  readonly clientId: string;
  readonly userId: number;
  readonly accountId: number;
  readonly grantId: string;
}

/** Random bytes of a code or refresh token: 48 (384 bits), or 6 under the `short-credentials` fault. */
function credentialBytes(ctx: EmulatorContext): number {
  return ctx.faults.isOn('short-credentials') ? 6 : 48;
}

/** Only for the `counter-credentials` fault: credentials issued so far, the counter their values end with. */
const issuedCount = new WeakMap<EmulatorContext, number>();

/**
 * A new code or refresh token: random, or under the `counter-credentials` fault a long constant prefix and a counter
 * (as long as a random value, and of the same alphabet: only its varying part tells it apart).
 */
function credentialValue(ctx: EmulatorContext): string {
  if (!ctx.faults.isOn('counter-credentials')) return secretToken(credentialBytes(ctx));
  const n = (issuedCount.get(ctx) ?? 0) + 1;
  issuedCount.set(ctx, n);
  return `Zm9yZ2VkLWNvdW50ZXItY3JlZGVudGlhbHMtcHJlZml4LWxvbmctZW5vdWdo${String(n).padStart(6, '0')}`;
}

export function issueCode(ctx: EmulatorContext, who: Omit<Grant, 'grantId'>): string {
  const value = ctx.secrets.add(credentialValue(ctx));
  ctx.store.addCode({ ...who, value, grantId: randomUUID(), issuedAtMs: ctx.clock.nowMs() });
  return value;
}

/** Where the token is issued: the host the client called, which `api_domain` and `base_domain` name (../origin.ts). */
export interface IssueSite {
  readonly host: string;
  /** The account whose own address (`{base_url}`) the exchange was sent to; none for the instance's root address. */
  readonly addressed?: Account;
}

export interface IssuedAccessToken {
  readonly token: string;
  readonly expiresIn: number;
}

/** The access token lifetime: a day, or what a lifetime variation says (§2.2: "Lifetime is returned as expires_in"). */
export function accessTokenTtlSeconds(ctx: EmulatorContext): number {
  if (ctx.variations.isOn('access-token-lifetime-2h')) return 2 * 3_600;
  if (ctx.variations.isOn('access-token-lifetime-48h')) return 48 * 3_600;
  return ACCESS_TOKEN_TTL_SECONDS;
}

/** How access and long-lived JWTs are signed and which claims they leave out, by the variations. */
function jwtForm(ctx: EmulatorContext): { alg: 'RS256' | 'HS256'; omit: ('jti' | 'exp' | 'iat')[] } {
  const v = ctx.variations;
  return {
    alg: v.isOn('jwt-hs256') ? 'HS256' : 'RS256',
    omit: [...(v.isOn('jwt-without-jti') ? ['jti' as const] : []), ...(v.isOn('jwt-without-exp-iat') ? ['exp' as const, 'iat' as const] : [])],
  };
}

/**
 * `extraClaims` only for the `jwt-carries-refresh-token` variation; `lifetimeFrom` (Unix seconds) only for the
 * `refreshed-access-expiry-from-issue` fault, which counts the lifetime from then instead of from now; `refreshed` (the
 * refresh grant issues it) only for the faults that break the refresh answer's token alone.
 */
export async function issueAccessToken(ctx: EmulatorContext, grant: Grant, site: IssueSite, extraClaims: Record<string, string> = {}, lifetimeFrom?: number, refreshed = false): Promise<IssuedAccessToken> {
  const ttl = accessTokenTtlSeconds(ctx);
  const iat = ctx.clock.nowSeconds();
  const exp = (lifetimeFrom ?? iat) + ttl;
  const jti = ctx.faults.isOn('jwt-jti-per-grant') ? grant.grantId
    // Only for the `jwt-jti-per-installation` fault: the jti names the installation (client and account), not the token.
    : ctx.faults.isOn('jwt-jti-per-installation') ? `${grant.clientId}:${grant.accountId}` : randomUUID();
  const record = {
    jti, kind: 'access' as const, clientId: grant.clientId, userId: grant.userId, accountId: grant.accountId,
    grantId: grant.grantId, issuedAtMs: iat * 1000, expiresAtMs: exp * 1000,
  };
  if (ctx.faults.isOn('access-token-not-jwt')) {
    const token = ctx.secrets.add(secretToken(48));
    ctx.store.addBearer(record, token);
    return { token, expiresIn: ttl };
  }
  const { host } = site;
  const form = jwtForm(ctx);
  const token = ctx.secrets.add(await signAccessToken({
    aud: grant.clientId,
    jti,
    iat,
    nbf: ctx.faults.isOn('nbf-in-future') ? iat + 300 : iat,
    exp: ctx.faults.isOn('jwt-exp-mismatch') || (refreshed && ctx.faults.isOn('refresh-jwt-exp-mismatch')) ? exp + 3600 : exp,
    sub: String(grant.userId),
    account_id: grant.accountId,
    base_domain: host,
    api_domain: host,
    scopes: ctx.world.integration.scopes,
    ...(form.omit.includes('jti') ? { sid: randomUUID() } : {}),
    ...(ctx.faults.isOn('jwt-carries-secret') ? { client_secret: ctx.world.integration.clientSecret } : {}),
    ...(ctx.faults.isOn('jwt-carries-channel-secret') ? { channel: { secret: ctx.world.channel.secret } } : {}),
    ...extraClaims,
  }, form));
  // A token without a jti is kept by its value (the registry's opaque-token map).
  if (form.omit.includes('jti')) ctx.store.addBearer(record, token);
  else ctx.store.addBearer(record);
  // The fault keeps the token's header and claims and drops what makes it trustworthy.
  const issued = ctx.faults.isOn('jwt-signature-stripped') ? `${token.split('.').slice(0, 2).join('.')}.`
    : ctx.faults.isOn('jwt-alg-none') || (refreshed && ctx.faults.isOn('refresh-jwt-alg-none')) ? unsecured(token) : token;
  return { token: issued, expiresIn: ttl };
}

/** Only for the `jwt-alg-none` fault: the token re-issued as an unsecured JWT (RFC 7519 §6), alg none and no signature. */
function unsecured(token: string): string {
  const header = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
  return `${header}.${token.split('.')[1]}.`;
}

/**
 * `store: false` mints a value the emulator will not recognise (the `new-refresh-token-dead` fault); `lifetimeLost`
 * stores it already expired (the `new-refresh-token-expired` fault).
 */
export function issueRefreshToken(ctx: EmulatorContext, grant: Grant, store = true, lifetimeLost = false): string {
  const value = ctx.secrets.add(credentialValue(ctx));
  const issuedAtMs = ctx.clock.nowMs();
  if (store) {
    const months = ctx.faults.isOn('refresh-lifetime-one-year') ? 12 : REFRESH_TTL_MONTHS;
    const expiresAtMs = lifetimeLost ? issuedAtMs
      : ctx.faults.isOn('short-refresh-lifetime') ? issuedAtMs + 60 * 86_400_000 : addCalendarMonthsUtc(issuedAtMs, months);
    ctx.store.addRefreshToken({ ...grant, value, issuedAtMs, expiresAtMs });
  }
  return value;
}

/**
 * The expiry a long-lived token gets for the one the user picked: that one, unless a fault clamps it to a year
 * (`long-lived-expiry-capped-1y`) or reads it as Moscow local time, three hours early (`long-lived-expiry-local-time`).
 */
function longLivedExpiryMs(ctx: EmulatorContext, pickedMs: number): number {
  const f = ctx.faults;
  if (f.isOn('long-lived-expiry-capped-1y')) return Math.min(pickedMs, ctx.clock.nowMs() + 365 * 86_400_000);
  if (f.isOn('long-lived-expiry-local-time')) return pickedMs - 3 * 3_600_000;
  return pickedMs;
}

/** §2.2 long-lived token: a JWT like an access token, with the expiry the user picked, no refresh token, no grant. */
export async function issueLongLivedToken(ctx: EmulatorContext, who: Omit<Grant, 'grantId'>, expiresAtMs: number, site: IssueSite): Promise<{ token: string; jti: string }> {
  const iat = ctx.clock.nowSeconds();
  const exp = Math.floor(longLivedExpiryMs(ctx, expiresAtMs) / 1000);
  const jti = randomUUID();
  const { host } = site;
  const token = ctx.secrets.add(await signAccessToken({
    aud: who.clientId, jti, iat, nbf: iat, exp, sub: String(who.userId), account_id: who.accountId,
    base_domain: host, api_domain: host, scopes: ctx.world.integration.scopes,
  }, { alg: jwtForm(ctx).alg }));
  ctx.store.addBearer({ jti, kind: 'long_lived', clientId: who.clientId, userId: who.userId, accountId: who.accountId, issuedAtMs: iat * 1000, expiresAtMs: exp * 1000 });
  return { token, jti };
}
