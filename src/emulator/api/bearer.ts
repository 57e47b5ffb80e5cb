/**
 * Bearer authentication for every `/api/v4` route (§5.1 item 1, RFC 6750), as a fastify preHandler so the list
 * endpoints reuse it unchanged. A token is accepted only if this instance issued it (its `jti`, or its value
 * for opaque tokens, is in the registry), it is not revoked and not expired by the emulator clock.
 */
import type { JWTPayload } from 'jose';
import type { FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import type { EmulatorContext } from '../context.js';
import { ProblemError } from '../errors.js';
import { decodeJwt } from 'jose';
import { looksLikeJwt, verifyAccessToken } from '../oauth/jwt.js';
import type { BearerRecord } from '../state.js';
import { grantedElsewhere, isRevoked } from '../oauth/revocation.js';
import { addressedAccount } from '../account-address.js';

/** Who the request acts as, set by the bearer check for the route handler. */
export interface Principal {
  readonly userId: number;
  readonly accountId: number;
  readonly clientId: string;
  /** Absent only under the `bearer-not-checked` fault. */
  readonly token?: BearerRecord;
}

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
  }
}

/** Only for the `access-expiry-from-refresh-lifetime` fault: §2.2's refresh token lifetime, 3 months. */
const REFRESH_LIFETIME_MS = 90 * 86_400_000;

const unauthorized = (detail: string): ProblemError => new ProblemError({ status: 401, detail });

export function bearerAuth(ctx: EmulatorContext): preHandlerAsyncHookHandler {
  return async function checkBearer(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    // Only for the `account-api-down` fault: the account API's store is unreachable.
    if (ctx.faults.isOn('account-api-down')) throw new ProblemError({ status: 503, detail: 'The account store is unavailable' });
    if (ctx.faults.isOn('bearer-not-checked')) {
      request.principal = administrator(ctx);
      return;
    }
    crashOnOddQuery(ctx, request.url);
    const onList = !request.url.startsWith('/api/v4/account');
    const laterPage = onList && laterPageOf(request.url);
    const where = { onList, laterPage };
    // Only for the `later-page-bearer-unchecked` fault: the bearer is checked for a list's first page; the pages its
    // next links name ride on that check and are served to whatever credential they carry.
    if (laterPage && ctx.faults.isOn('later-page-bearer-unchecked')) {
      request.principal = administrator(ctx);
      return;
    }
    if (ctx.faults.isOn('bearer-skipped-on-lists') && request.headers.authorization === undefined && !request.url.startsWith('/api/v4/account')) {
      request.principal = administrator(ctx);
      return;
    }
    // Only for the `api-accepts-client-basic` fault: the integration's own credentials as HTTP Basic act as the administrator.
    if ((ctx.faults.isOn('api-accepts-client-basic') || (onList && ctx.faults.isOn('lists-accept-client-basic'))) && isClientBasic(ctx, request.headers.authorization)) {
      request.principal = administrator(ctx);
      return;
    }
    // Only for the `api-accepts-any-basic` fault: any HTTP Basic credential is taken for a user's password login.
    if (ctx.faults.isOn('api-accepts-any-basic') && /^Basic\s+\S+/i.test(request.headers.authorization ?? '')) {
      request.principal = administrator(ctx);
      return;
    }
    // Only for the `bearer-lower-case-crash` fault: the scheme is looked up in a table keyed by its canonical spelling.
    if (ctx.faults.isOn('bearer-lower-case-crash') && /^bearer /i.test(request.headers.authorization ?? '') && !request.headers.authorization!.startsWith('Bearer ')) {
      throw new ProblemError({ status: 500, detail: 'No handler for this authentication scheme' });
    }
    // Only for the `bearer-empty-as-administrator` fault: a Bearer scheme with no token falls back to the default token.
    if (ctx.faults.isOn('bearer-empty-as-administrator') && /^Bearer *$/i.test(request.headers.authorization ?? '')) {
      request.principal = administrator(ctx);
      return;
    }
    const token = bearerToken(request.headers.authorization, !ctx.variations.isOn('bearer-scheme-exact-case'));
    if (token === undefined) {
      if (!ctx.faults.isOn('no-www-authenticate')) reply.header('www-authenticate', challenge(ctx));
      throw unauthorized('An Authorization: Bearer header is required');
    }
    const record = await resolve(ctx, token, onList);
    // Only for the `lists-any-bearer` fault: the lists check that a bearer is there, not that anyone issued it.
    if (!record && ctx.faults.isOn('lists-any-bearer') && !request.url.startsWith('/api/v4/account')) {
      request.principal = administrator(ctx);
      return;
    }
    // Only for the `opaque-miss-as-administrator` fault: a registry miss on an opaque token falls back to the default token.
    if (!record && ctx.faults.isOn('opaque-miss-as-administrator') && !looksLikeJwt(token)) {
      request.principal = administrator(ctx);
      return;
    }
    if (!record) throw invalidToken(ctx, reply, 'The access token is not valid', where);
    // Only for the `later-page-refuses-bearer` fault: a later page checks a signature of its own next link, which a client's page 2 lacks.
    if (laterPage && ctx.faults.isOn('later-page-refuses-bearer')) throw invalidToken(ctx, reply, 'The access token is not valid for this page', where);
    const addressed = addressedAccount(request.raw);
    const revocationSkipped = revocationUnread(ctx, record, request.url) || (laterPage && ctx.faults.isOn('later-page-revocation-unread')) || deactivationSpares(ctx, record);
    if (isRevoked(ctx, record, 'bearer', addressed) && !ctx.faults.isOn('accept-revoked-token') && !revocationSkipped) {
      throw invalidToken(ctx, reply, 'The access token has been revoked', { ...where, stale: true });
    }
    // Only for the `access-token-dies-early` fault: the token lives half of what expires_in said.
    const expiresAtMs = ctx.faults.isOn('access-token-dies-early') ? record.issuedAtMs + (record.expiresAtMs - record.issuedAtMs) / 2
      // Only for the `access-expiry-from-refresh-lifetime` fault: the access token is given its grant's lifetime (3 months).
      : record.kind === 'access' && ctx.faults.isOn('access-expiry-from-refresh-lifetime') ? record.issuedAtMs + REFRESH_LIFETIME_MS : record.expiresAtMs;
    // Only for the `long-lived-expiry-unchecked` fault: the expiry is checked for access tokens, not for long-lived ones.
    const expiryChecked = !(record.kind === 'long_lived' && ctx.faults.isOn('long-lived-expiry-unchecked'));
    // Only for the `lists-ignore-token-expiry` fault: expiry is checked at the account, not at the lists.
    const expirySkipped = (ctx.faults.isOn('lists-ignore-token-expiry') && onList)
      // Only for the `later-page-expiry-unchecked` fault: the expiry is read on a list's first page, not on the pages after it.
      || (laterPage && ctx.faults.isOn('later-page-expiry-unchecked'));
    if (expiresAtMs <= ctx.clock.nowMs() && !ctx.faults.isOn('ignore-token-expiry') && expiryChecked && !expirySkipped) {
      throw invalidToken(ctx, reply, 'The access token has expired', { ...where, stale: true });
    }
    if (record.kind === 'long_lived' && ctx.faults.isOn('long-lived-token-refused')) throw invalidToken(ctx, reply, 'The access token is not valid', where);
    // Only for the `long-lived-refused-at-account` fault: the account route asks the token for a grant, which a long-lived token has not.
    if (record.kind === 'long_lived' && !record.grantId && ctx.faults.isOn('long-lived-refused-at-account') && request.url.startsWith('/api/v4/account')) {
      throw invalidToken(ctx, reply, 'The access token has no grant', where);
    }
    // Only for the `long-lived-account-html` fault: the account route serves a long-lived token a 200 HTML page (the
    // front server's login page, as a route that does not know the token kind falls through to it).
    if (record.kind === 'long_lived' && ctx.faults.isOn('long-lived-account-html') && request.url.startsWith('/api/v4/account')) {
      return reply.code(200).header('content-type', 'text/html; charset=utf-8').send('<!doctype html><html><head><title>Log in</title></head><body><form method="post"><input name="login"></form></body></html>');
    }
    // Only for the `long-lived-any-account-address` fault: the account binding is read from the grant, which a long-lived token has not.
    const unbound = ctx.faults.isOn('base-url-any-account') || (record.kind === 'long_lived' && ctx.faults.isOn('long-lived-any-account-address'))
      // Only for the `oauth-access-any-account-address` fault: an access token's signature is checked, its account is not.
      || (record.kind === 'access' && ctx.faults.isOn('oauth-access-any-account-address'))
      // Only for the `lists-any-account-address` fault: the account handler compares the token's account with the address's, the lists do not.
      || (ctx.faults.isOn('lists-any-account-address') && !request.url.startsWith('/api/v4/account'));
    if (grantedElsewhere(ctx, addressed, record.accountId, unbound)) throw invalidToken(ctx, reply, 'The access token was not issued for this account', where);
    request.principal = { userId: record.userId, accountId: record.accountId, clientId: record.clientId, token: record };
  };
}

/**
 * Only for the faults that read a revocation at the account and not at the lists: any revocation
 * (`lists-accept-revoked-token`), a deactivation's (`lists-accept-deactivated-token`) or a disconnect's
 * (`lists-accept-disconnected-token`) when the installation's state is kept apart from the token registry, and both at the
 * customers list alone (`customers-skip-installation-state`), a later module that checks the token but not its installation.
 */
function revocationUnread(ctx: EmulatorContext, record: BearerRecord, url: string): boolean {
  const f = ctx.faults;
  if (url.startsWith('/api/v4/account')) return false;
  if (f.isOn('lists-accept-revoked-token')) return true;
  // A disconnect ends the installation's grants; its long-lived token, which has none, is left to the account handler.
  if (record.kind === 'long_lived' && record.revokedBy === 'disconnect' && f.isOn('lists-accept-disconnected-long-lived')) return true;
  const byInstallation = record.revokedBy === 'deactivation' || record.revokedBy === 'disconnect';
  if (byInstallation && f.isOn('customers-skip-installation-state') && url.startsWith('/api/v4/customers')) return true;
  return (record.revokedBy === 'deactivation' && f.isOn('lists-accept-deactivated-token'))
    || (record.revokedBy === 'disconnect' && f.isOn('lists-accept-disconnected-token'));
}

/**
 * Only for the faults where a deactivation (or a disconnect) ends one access token of a grant, not every one: the
 * latest only (`deactivation-spares-older-pair`, `disconnect-spares-older-pair`: the older pair a refresh left is
 * accepted) or the first only (`…-spares-refreshed-pair`: the pair a refresh issued is accepted).
 */
function deactivationSpares(ctx: EmulatorContext, record: BearerRecord): boolean {
  const f = ctx.faults;
  const by = record.revokedBy;
  if (record.kind !== 'access' || !record.grantId || (by !== 'deactivation' && by !== 'disconnect')) return false;
  const older = by === 'deactivation' ? f.isOn('deactivation-spares-older-pair') : f.isOn('disconnect-spares-older-pair');
  const refreshed = by === 'deactivation' ? f.isOn('deactivation-spares-refreshed-pair') : f.isOn('disconnect-spares-refreshed-pair');
  if (!older && !refreshed) return false;
  // The registry keeps tokens in the order they were issued (two can share a millisecond).
  const grant = [...ctx.store.bearers.values()].filter((b) => b.kind === 'access' && b.grantId === record.grantId);
  const at = grant.findIndex((b) => b.jti === record.jti);
  return (older && at < grant.length - 1) || (refreshed && at > 0);
}

/** A list request for page 2 or later (`page` as its next links name it). */
function laterPageOf(url: string): boolean {
  const page = new URLSearchParams(url.split('?')[1] ?? '').get('page');
  return page !== null && Number(page) >= 2;
}

/** Only for faults that skip a check: the request acts as the account's administrator through the integration. */
function administrator(ctx: EmulatorContext): Principal {
  const { account, admin, integration } = ctx.world;
  return { userId: admin.id, accountId: account.id, clientId: integration.clientId };
}

/** The integration's client_id and secret as an HTTP Basic credential (RFC 7617). */
function isClientBasic(ctx: EmulatorContext, header: string | undefined): boolean {
  const m = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(header ?? '');
  if (!m) return false;
  const { clientId, clientSecret } = ctx.world.integration;
  return Buffer.from(m[1]!, 'base64').toString('utf8') === `${clientId}:${clientSecret}`;
}

/** Where a bearer was refused: a list (any page), and a page after the first. */
interface RefusedAt {
  readonly onList?: boolean;
  readonly laterPage?: boolean;
}

/**
 * `stale`: a token that was valid once (expired or revoked), where the `stale-token-challenge-bare` fault applies;
 * `onList`, `laterPage`: where it was sent, for the faults that drop the challenge's error at some places only.
 */
function invalidToken(ctx: EmulatorContext, reply: FastifyReply, detail: string, options: RefusedAt & { stale?: boolean } = {}): ProblemError {
  const f = ctx.faults;
  const bare = ctx.variations.isOn('www-authenticate-without-error') || (options.stale === true && f.isOn('stale-token-challenge-bare'))
    // Only for the `lists-challenge-bare` and `later-page-challenge-bare` faults: a list's handler (or a later page's)
    // answers the refusal with its own bare challenge, without the error the account's names.
    || (options.onList === true && f.isOn('lists-challenge-bare')) || (options.laterPage === true && f.isOn('later-page-challenge-bare'));
  if (!f.isOn('no-www-authenticate')) reply.header('www-authenticate', challenge(ctx, bare ? undefined : detail));
  // Only for the `stale-token-403` fault: a token that was valid once (expired or revoked) is answered 403 Forbidden.
  if (options.stale === true && f.isOn('stale-token-403')) return new ProblemError({ status: 403, detail });
  return unauthorized(detail);
}

/**
 * The Bearer challenge (RFC 6750 §3): bare without a token, with error="invalid_token" for a token that is not valid
 * (`detail` given). The `www-authenticate-extra-params` and `www-authenticate-without-error` variations add a realm
 * and error_description, or keep only the realm.
 */
function challenge(ctx: EmulatorContext, detail?: string): string {
  const v = ctx.variations;
  if (v.isOn('www-authenticate-without-error')) return 'Bearer realm="api"';
  if (v.isOn('www-authenticate-extra-params')) {
    return detail === undefined ? 'Bearer realm="api"' : `Bearer realm="api", error="invalid_token", error_description="${detail.replace(/["\\]/g, '')}"`;
  }
  return detail === undefined ? 'Bearer' : 'Bearer error="invalid_token"';
}

/** RFC 6750 §2.1: the scheme is case-insensitive, the token is one b64token. */
export function bearerToken(header: string | undefined, anyCase = true): string | undefined {
  const m = (anyCase ? /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i : /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/).exec(header ?? '');
  return m?.[1];
}

/**
 * Expiry is left to the caller (one place for the expiry fault): an authentic but expired JWT still resolves.
 * The registry, not the JWT, decides which record applies, so a token from another instance resolves to nothing.
 */
async function resolve(ctx: EmulatorContext, token: string, onList: boolean): Promise<BearerRecord | undefined> {
  const f = ctx.faults;
  // Only for the `lists-*` faults: a list handler of its own that trusts what the account handler verifies.
  const unsignedAccepted = (f.isOn('accept-unsigned-jwt') || (onList && f.isOn('lists-accept-unsigned-jwt'))) && looksUnsigned(token);
  if (!looksLikeJwt(token) && !unsignedAccepted) return ctx.store.bearerByOpaqueValue(token) ?? refreshTokenAsBearer(ctx, token, onList);
  if (f.isOn('skip-jwt-signature-check') || (onList && f.isOn('lists-skip-jwt-signature-check')) || unsignedAccepted) return unverifiedLookup(ctx, token);
  const payload = await verifiedClaims(ctx, token);
  if (!payload) return undefined;
  // The `jwt-without-jti` variation's tokens are kept by their value.
  const record = typeof payload.jti === 'string' ? ctx.store.bearers.get(payload.jti) : ctx.store.bearerByOpaqueValue(token);
  return record && record.clientId === payload.aud ? record : undefined;
}

/**
 * RS256 verification costs more than the rest of a list request, and a signature once verified stays verified:
 * valid tokens are remembered per instance (expiry and revocation are still decided per request, from the registry).
 */
const verifiedTokens = new WeakMap<EmulatorContext, Map<string, JWTPayload>>();
const VERIFIED_CACHE_LIMIT = 50_000;

async function verifiedClaims(ctx: EmulatorContext, token: string): Promise<JWTPayload | undefined> {
  let cache = verifiedTokens.get(ctx);
  if (!cache) verifiedTokens.set(ctx, (cache = new Map()));
  const known = cache.get(token);
  if (known) return known;
  const verified = await verifyAccessToken(token, ctx.clock.date(), { ignoreNbf: ctx.faults.isOn('skip-nbf-check') });
  if (!verified.ok) return undefined;
  if (!verified.expired) {
    if (cache.size >= VERIFIED_CACHE_LIMIT) cache.clear();
    cache.set(token, verified.payload);
  }
  return verified.payload;
}

/** Only for the `skip-jwt-signature-check` fault: trusts the claims of any JWT-shaped token. */
function unverifiedLookup(ctx: EmulatorContext, token: string): BearerRecord | undefined {
  try {
    const { jti } = decodeJwt(token);
    return typeof jti === 'string' ? ctx.store.bearers.get(jti) : undefined;
  } catch {
    return undefined;
  }
}

/** Only for the `bearer-accepts-refresh-token` fault: a refresh token (or a code) passes as the access token of its grant. */
function refreshTokenAsBearer(ctx: EmulatorContext, token: string, onList: boolean): BearerRecord | undefined {
  if (!ctx.faults.isOn('bearer-accepts-refresh-token') && !(onList && ctx.faults.isOn('lists-accept-refresh-token'))) return undefined;
  const r = ctx.store.refreshTokens.get(token) ?? ctx.store.codes.get(token);
  if (!r) return undefined;
  return { jti: `refresh:${r.grantId}`, kind: 'access', clientId: r.clientId, userId: r.userId, accountId: r.accountId, grantId: r.grantId, issuedAtMs: r.issuedAtMs, expiresAtMs: r.issuedAtMs + 86_400_000 };
}

/** Only for the `accept-unsigned-jwt` fault: the header names no algorithm (or none), or the signature is empty. */
function looksUnsigned(token: string): boolean {
  const [header, , signature] = token.split('.');
  try {
    const alg: unknown = JSON.parse(Buffer.from(header ?? '', 'base64url').toString('utf8')).alg;
    return !signature || typeof alg !== 'string' || alg.toLowerCase() === 'none';
  } catch {
    return false;
  }
}

/** Only for the `api-crash-on-odd-query` fault: a query key whose brackets do not pair up makes the route throw. */
export function crashOnOddQuery(ctx: EmulatorContext, url: string): void {
  if (!ctx.faults.isOn('api-crash-on-odd-query')) return;
  const query = url.split('?')[1] ?? '';
  const odd = query.split('&').some((pair) => {
    const key = (pair.split('=')[0] ?? '').replace(/%5B/gi, '[').replace(/%5D/gi, ']');
    return key.split('[').length !== key.split(']').length;
  });
  if (odd) throw new ProblemError({ status: 500, detail: 'Unbalanced brackets in the query' });
}

