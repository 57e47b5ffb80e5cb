/**
 * The two grants of the token exchange (§4.1, §3.1, §5.1). Each validates its request completely before any state
 * changes, so a refused request never consumes a code or refresh token. Faults are checked at the single place
 * each behaviour is decided.
 */
import { randomUUID } from 'node:crypto';
import { decodeJwt } from 'jose';
import type { EmulatorContext } from '../context.js';
import { ProblemError } from '../errors.js';
import type { Integration } from '../world.js';
import { CODE_TTL_MS, issueAccessToken, issueRefreshToken, type Grant, type IssueSite } from './issue.js';
import { integrationById, secretMatches } from './lifecycle.js';
import { checkParam, invalid, type TokenParams } from './params.js';
import { grantedElsewhere, isRevoked } from './revocation.js';
import { raceWindow } from '../race-window.js';

/** The `short-code-lifetime` fault's lifetime. */
const SHORT_CODE_TTL_MS = 15 * 60 * 1000;
/** The `code-lifetime-utc-offset` fault's lifetime: 20 minutes plus the one-hour offset of a local-time issue stamp. */
const LOCAL_CODE_TTL_MS = 80 * 60 * 1000;

export interface IssuedTokens {
  readonly accessToken: string;
  readonly expiresIn: number;
  readonly refreshToken: string;
}

/** The integration named by client_id: the public one or the private one of the world. */
function checkClientId(ctx: EmulatorContext, params: TokenParams, grant: 'code' | 'refresh' = 'code'): Integration {
  if (ctx.faults.isOn('skip-client-id-check') || looselyTrue(ctx, params, 'client_id')) return ctx.world.integration;
  // Only for the `client-id-missing-defaults` fault: a code grant without client_id is taken for the public integration's.
  if (grant === 'code' && !params.has('client_id') && ctx.faults.isOn('client-id-missing-defaults')) return ctx.world.integration;
  const integration = integrationById(ctx, params.required('client_id')) ?? integrationBySecret(ctx, params);
  if (!integration) throw invalid(checkParam('client_id'), 'Client authentication failed', 'invalid_client');
  return integration;
}

/** Only for the `client-id-from-secret` fault: an unknown client_id is forgiven when the secret names an integration. */
function integrationBySecret(ctx: EmulatorContext, params: TokenParams): Integration | undefined {
  const secret = params.raw('client_secret');
  if (!ctx.faults.isOn('client-id-from-secret') || typeof secret !== 'string') return undefined;
  return [ctx.world.integration, ctx.world.privateIntegration].find((i) => secretMatches(ctx, i, secret));
}

function checkClientSecret(ctx: EmulatorContext, integration: Integration, given: string | undefined, grant: 'code' | 'refresh' = 'code'): void {
  if (given === undefined) {
    throw invalid(checkParam('client_secret'), 'The request is missing the required `client_secret` parameter', 'invalid_client');
  }
  if (!secretMatches(ctx, integration, given, grant)) {
    throw invalid(checkParam('client_secret'), 'Client authentication failed', 'invalid_client');
  }
}

/** Only for the `loose-secret-comparison` fault: a JSON true compares equal to any value (PHP ==). */
function looselyTrue(ctx: EmulatorContext, params: TokenParams, field: 'client_id' | 'client_secret' | 'code'): boolean {
  return ctx.faults.isOn('loose-secret-comparison') && params.raw(field) === true;
}

/**
 * The `redirect-uri-equivalent-spellings` variation: a URI as RFC 3986 §6.2.2 normalises it (scheme and host case, the
 * default port, dot segments, percent-encoded unreserved characters decoded); the query and fragment stay.
 */
function normalisedUri(uri: string): string {
  // WHATWG URL parsing drops surrounding spaces and tabs: a URI with them is another string, not another spelling.
  if (/[\s\u0000-\u001f]/.test(uri)) return uri;
  try {
    const u = new URL(uri);
    u.pathname = u.pathname.replace(/%([0-9A-Fa-f]{2})/g, (m, hex: string) => {
      const c = String.fromCharCode(parseInt(hex, 16));
      return /[A-Za-z0-9\-._~]/.test(c) ? c : m.toUpperCase();
    });
    return u.href;
  } catch {
    return uri;
  }
}

/** §5.1 item 4: identical to the registered Redirect URI, byte for byte (no normalisation, no prefix match). */
function checkRedirectUri(ctx: EmulatorContext, integration: Integration, params: TokenParams, required: boolean): void {
  if (ctx.faults.isOn('skip-redirect-uri-check')) return;
  const given = required ? params.required('redirect_uri') : params.optional('redirect_uri');
  const equivalent = ctx.variations.isOn('redirect-uri-equivalent-spellings') && given !== undefined && normalisedUri(given) === normalisedUri(integration.redirectUri);
  if (given !== undefined && given !== integration.redirectUri && !equivalent && !laxMatch(ctx, given, integration.redirectUri)) {
    throw invalid('Redirect URI is not associated with client', 'The `redirect_uri` does not match the registered Redirect URI', 'invalid_grant');
  }
}

/**
 * Only for the lax comparisons of the faults: normalised (`redirect-uri-normalised`), a prefix of the given URI
 * (`redirect-uri-prefix-match`), case-insensitive (`redirect-uri-case-insensitive`), or without the scheme
 * (`redirect-uri-scheme-ignored`).
 */
function laxMatch(ctx: EmulatorContext, given: string, registered: string): boolean {
  const f = ctx.faults;
  if (f.isOn('redirect-uri-normalised') && loosely(given) === loosely(registered)) return true;
  if (f.isOn('redirect-uri-prefix-match') && given.startsWith(registered)) return true;
  if (f.isOn('redirect-uri-case-insensitive') && given.toLowerCase() === registered.toLowerCase()) return true;
  const schemeless = (u: string) => u.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '');
  return f.isOn('redirect-uri-scheme-ignored') && schemeless(given) === schemeless(registered);
}

/** Only for the `redirect-uri-normalised` fault: what a lax comparison keeps of a URI (the last host label and the path). */
function loosely(uri: string): string {
  try {
    const u = new URL(uri);
    return `${u.hostname.toLowerCase().split('.').slice(-2).join('.')}${decodeURIComponent(u.pathname).toLowerCase().replace(/\/\.\//g, '/').replace(/\/$/, '')}`;
  } catch {
    return uri;
  }
}

export async function authorizationCodeGrant(ctx: EmulatorContext, params: TokenParams, site: IssueSite): Promise<IssuedTokens> {
  const integration = checkClientId(ctx, params);
  const { clientId } = integration;
  // The `client-secret-optional-on-code` fault applies the refresh grant's optional secret to the code grant.
  const secretSkipped = ctx.faults.isOn('client-secret-optional-on-code') && !params.has('client_secret');
  if (!ctx.faults.isOn('skip-client-secret-check') && !looselyTrue(ctx, params, 'client_secret') && !secretSkipped) checkClientSecret(ctx, integration, params.optional('client_secret'));
  checkRedirectUri(ctx, integration, params, true);

  if (!params.has('code') && ctx.faults.isOn('accept-missing-code')) {
    const { account, admin } = ctx.world;
    return issuePair(ctx, { clientId, userId: admin.id, accountId: account.id, grantId: randomUUID() }, site);
  }
  const code = looselyTrue(ctx, params, 'code')
    ? [...ctx.store.codes.values()].find((c) => c.clientId === clientId && c.usedAtMs === undefined && c.revokedAtMs === undefined)
    : ctx.store.codes.get(params.required('code'));
  if (!code) throw invalid('Authorization code is not valid', 'The authorization code is unknown', 'invalid_grant');
  // {base_url} is one account's address: a code granted in another account is not this account's to exchange.
  const across = ctx.faults.isOn('code-any-account-address') || ctx.variations.isOn('code-any-account-address-own-account');
  if (grantedElsewhere(ctx, site.addressed, code.accountId, across)) throw foreignCredential(ctx, 'code');
  if (code.clientId !== clientId && !ctx.faults.isOn('code-not-bound-to-client')) {
    throw invalid('Authorization code was not issued to this client', 'The authorization code belongs to another client', 'invalid_grant');
  }
  const now = ctx.clock.nowMs();
  if (code.usedAtMs !== undefined && !ctx.faults.isOn('accept-reused-code')) {
    // RFC 6749 §4.1.2: a second use suggests the code leaked, so the tokens issued from it go too.
    if (!ctx.variations.isOn('code-replay-keeps-tokens')) ctx.store.revokeGrant(code.grantId, now);
    throw invalid('Authorization code has been revoked', 'The authorization code was already used', 'invalid_grant');
  }
  if (code.revokedAtMs !== undefined) {
    throw invalid('Authorization code has been revoked', 'The installation was deactivated or disconnected', 'invalid_grant');
  }
  if (ctx.faults.isOn('reinstall-after-deactivation-refused') && onceDeactivated(ctx, code.clientId, code.accountId)) {
    throw invalid('Authorization code has been revoked', 'The installation was deactivated in this account', 'invalid_grant');
  }
  const ttl = ctx.faults.isOn('short-code-lifetime') ? SHORT_CODE_TTL_MS : ctx.faults.isOn('code-lifetime-utc-offset') ? LOCAL_CODE_TTL_MS : CODE_TTL_MS;
  if (now >= code.issuedAtMs + ttl && !ctx.faults.isOn('accept-expired-code')) {
    throw invalid('Authorization code has expired', 'The authorization code is older than 20 minutes', 'invalid_grant');
  }

  // Only for the `code-grant-account-from-default` fault: the pair is minted for the developer account, not the code's;
  // only for `code-any-account-address`: for the account of the address it is exchanged at (one the user never chose).
  const accountId = ctx.faults.isOn('code-grant-account-from-default') ? ctx.world.account.id
    : ctx.faults.isOn('code-any-account-address') && site.addressed ? site.addressed.id : code.accountId;
  const grant = { clientId, userId: code.userId, accountId, grantId: code.grantId };
  // Checked and marked with no await in between: parallel exchanges of one code cannot both pass (single use).
  if (!ctx.faults.isOn('code-check-then-act')) {
    code.usedAtMs ??= now;
    return issuePair(ctx, grant, site);
  }
  // The fault models a slow store between check and write: the window parallel exchanges slip through.
  await raceWindow(ctx).hold(`code ${code.grantId}`);
  code.usedAtMs ??= now;
  return issuePair(ctx, grant, site);
}

/**
 * The refusal of a code or refresh token granted in another account than the address's: 400 invalid_grant, or what the
 * `foreign-credential-401` and `foreign-credential-404` variations answer (the address knows no such credential).
 */
function foreignCredential(ctx: EmulatorContext, what: 'code' | 'refresh'): ProblemError {
  const name = what === 'code' ? 'Authorization code' : 'Refresh token';
  const detail = `The ${what === 'code' ? 'authorization code' : 'refresh token'} was granted in another account than this address's`;
  const status = ctx.variations.isOn('foreign-credential-401') ? 401 : ctx.variations.isOn('foreign-credential-404') ? 404 : 400;
  return new ProblemError({ status, detail, hint: `${name} was issued for another account`, error: 'invalid_grant' });
}

/** Only for the `reinstall-after-deactivation-refused` fault: a deactivation ever revoked a token of this installation. */
function onceDeactivated(ctx: EmulatorContext, clientId: string, accountId: number): boolean {
  return [...ctx.store.bearers.values()].some((b) => b.clientId === clientId && b.accountId === accountId && b.revokedBy === 'deactivation');
}

async function issuePair(ctx: EmulatorContext, grant: Grant, site: IssueSite): Promise<IssuedTokens> {
  // The `jwt-carries-refresh-token` variation: the refresh token is minted first and written into the access token's claims.
  if (ctx.variations.isOn('jwt-carries-refresh-token')) {
    const refreshToken = issueRefreshToken(ctx, grant);
    const access = await issueAccessToken(ctx, grant, site, { refresh_token: refreshToken });
    return { accessToken: access.token, expiresIn: access.expiresIn, refreshToken };
  }
  const access = await issueAccessToken(ctx, grant, site);
  return { accessToken: access.token, expiresIn: access.expiresIn, refreshToken: issueRefreshToken(ctx, grant) };
}

export async function refreshTokenGrant(ctx: EmulatorContext, params: TokenParams, site: IssueSite): Promise<IssuedTokens> {
  const f = ctx.faults;
  if (f.isOn('refresh-consumed-on-refusal')) burnBeforeValidation(ctx, params);
  const integration = f.isOn('refresh-ignores-client-id') ? refreshClientLeniently(ctx, params) : checkClientId(ctx, params, 'refresh');
  const { clientId } = integration;
  // §5.1 item 3: the secret is optional on refresh, but a secret that is sent must be right.
  // The `refresh-secret-null-as-absent` variation: `client_secret: null` read as no secret sent.
  const nullSecret = ctx.variations.isOn('refresh-secret-null-as-absent') && params.raw('client_secret') === null;
  const secret = f.isOn('refresh-ignores-wrong-secret') || nullSecret ? undefined : params.optional('client_secret');
  if (secret !== undefined || ctx.variations.isOn('refresh-requires-secret')) checkClientSecret(ctx, integration, secret, 'refresh');
  if (!ctx.variations.isOn('refresh-ignores-redirect-uri')) checkRedirectUri(ctx, integration, params, false);

  if (!params.has('refresh_token') && f.isOn('refresh-missing-token-issues')) {
    const { account, admin } = ctx.world;
    return issuePair(ctx, { clientId, userId: admin.id, accountId: account.id, grantId: randomUUID() }, site);
  }
  const value = refreshTokenValue(ctx, params);
  const record = lookUpRefreshToken(ctx, value);
  if (!record && f.isOn('long-lived-refreshable')) {
    const longLived = longLivedRecord(ctx, value);
    if (longLived) return issuePair(ctx, { clientId, userId: longLived.userId, accountId: longLived.accountId, grantId: randomUUID() }, site);
  }
  if (!record && f.isOn('refresh-accepts-code')) {
    const code = ctx.store.codes.get(value);
    if (code && code.usedAtMs === undefined) {
      code.usedAtMs = ctx.clock.nowMs();
      return issuePair(ctx, { clientId, userId: code.userId, accountId: code.accountId, grantId: code.grantId }, site);
    }
  }
  if (!record) throw invalid('Refresh token is not valid', 'The refresh token is unknown', 'invalid_grant');
  // {base_url} is one account's address: a refresh token of another account is not this account's to exchange.
  const refreshAcross = f.isOn('refresh-any-account-address') || ctx.variations.isOn('refresh-any-account-address-own-account');
  if (grantedElsewhere(ctx, site.addressed, record.accountId, refreshAcross)) throw foreignCredential(ctx, 'refresh');
  if (record.clientId !== clientId && !f.isOn('refresh-not-bound-to-client')) {
    throw invalid('Refresh token was not issued to this client', 'The refresh token belongs to another client', 'invalid_grant');
  }
  if (isRevoked(ctx, record, 'refresh', site.addressed)) throw invalid('Token has been revoked', 'The refresh token was revoked', 'invalid_grant');
  // Only for the `refresh-replay-crash` fault: the replay of a rotated refresh token breaks the endpoint.
  if (record.usedAtMs !== undefined && f.isOn('refresh-replay-crash')) throw new ProblemError({ status: 500, detail: 'simulated crash on a replayed refresh token' });
  if (record.usedAtMs !== undefined && !f.isOn('reuse-old-refresh-token')) {
    // The `refresh-replay-revokes-family` variation: a replayed refresh token revokes every token of its grant (RFC 6749 §10.4).
    if (ctx.variations.isOn('refresh-replay-revokes-family')) ctx.store.revokeGrant(record.grantId, ctx.clock.nowMs());
    throw invalid('Token has been revoked', 'The refresh token was already exchanged', 'invalid_grant');
  }
  const now = ctx.clock.nowMs();
  if (now >= record.expiresAtMs && !f.isOn('accept-expired-refresh-token')) {
    throw invalid('Token has expired', 'The refresh token is older than 3 months', 'invalid_grant');
  }

  // Only for the `refresh-grant-account-from-default` fault: the new pair is minted for the developer account.
  // only for `refresh-any-account-address`: for the account of the address it is exchanged at.
  const accountId = f.isOn('refresh-grant-account-from-default') ? ctx.world.account.id
    : f.isOn('refresh-any-account-address') && site.addressed ? site.addressed.id : record.accountId;
  // Only for the `refresh-grant-user-from-default` fault: the new pair is minted for the administrator, who sees every record.
  const userId = f.isOn('refresh-grant-user-from-default') ? ctx.world.admin.id : record.userId;
  const grant: Grant = { clientId, userId, accountId, grantId: record.grantId };
  const sameToken = f.isOn('refresh-returns-same-token');
  // Checked and marked with no await in between: parallel exchanges of one token cannot both pass (§3.1 single use).
  const late = f.isOn('refresh-check-then-act');
  // The `old-refresh-valid-until-successor-used` fault spends a refresh token only when its successor is first exchanged.
  const deferred = f.isOn('old-refresh-valid-until-successor-used');
  if (deferred) spendPredecessors(ctx, record, now);
  if (!sameToken && !late && !deferred) record.usedAtMs ??= now;
  // The fault models a slow store between check and write: the window parallel exchanges slip through.
  if (late) await raceWindow(ctx).hold(`refresh ${value}`);
  // Only for the `refreshed-access-expiry-from-issue` fault: the new access token's day counts from the refresh token's issue.
  const lifetimeFrom = f.isOn('refreshed-access-expiry-from-issue') ? Math.floor(record.issuedAtMs / 1000) : undefined;
  const access = await issueAccessToken(ctx, grant, site, {}, lifetimeFrom, true);
  if (!sameToken && late) record.usedAtMs ??= now;
  const refreshToken = sameToken ? value : issueRefreshToken(ctx, grant, !f.isOn('new-refresh-token-dead'), f.isOn('new-refresh-token-expired'));
  return { accessToken: access.token, expiresIn: access.expiresIn, refreshToken };
}

/** Only for the `old-refresh-valid-until-successor-used` fault: the earlier refresh tokens of the grant are spent now. */
function spendPredecessors(ctx: EmulatorContext, record: { readonly grantId: string; readonly issuedAtMs: number; readonly value: string }, now: number): void {
  for (const r of ctx.store.refreshTokens.values()) {
    if (r.grantId === record.grantId && r.value !== record.value && r.issuedAtMs <= record.issuedAtMs) r.usedAtMs ??= now;
  }
}

/** Only for the `refresh-consumed-on-refusal` fault: the token named in the body is marked used before anything is checked. */
function burnBeforeValidation(ctx: EmulatorContext, params: TokenParams): void {
  const raw = params.raw('refresh_token');
  const record = typeof raw === 'string' ? ctx.store.refreshTokens.get(raw) : undefined;
  if (record) record.usedAtMs ??= ctx.clock.nowMs();
}

/** Only for the `refresh-ignores-client-id` fault: a missing, unknown or non-string client_id falls back to the token's client. */
function refreshClientLeniently(ctx: EmulatorContext, params: TokenParams): Integration {
  const raw = params.raw('client_id');
  const named = typeof raw === 'string' ? integrationById(ctx, raw) : undefined;
  if (named) return named;
  const token = params.raw('refresh_token');
  const record = typeof token === 'string' ? ctx.store.refreshTokens.get(token) : undefined;
  return (record && integrationById(ctx, record.clientId)) ?? ctx.world.integration;
}

/** The refresh_token field; the `refresh-token-coerced` fault reads a non-string one with String(). */
function refreshTokenValue(ctx: EmulatorContext, params: TokenParams): string {
  const raw = params.raw('refresh_token');
  // Only for the `loose-secret-comparison` fault: true equals the first unused refresh token of any grant.
  if (raw === true && ctx.faults.isOn('loose-secret-comparison')) {
    const any = [...ctx.store.refreshTokens.values()].find((r) => r.usedAtMs === undefined && r.revokedAtMs === undefined);
    if (any) return any.value;
  }
  if (raw !== undefined && typeof raw !== 'string' && ctx.faults.isOn('refresh-token-coerced')) return String(raw);
  return params.required('refresh_token');
}

function lookUpRefreshToken(ctx: EmulatorContext, value: string) {
  const exact = ctx.store.refreshTokens.get(value);
  if (exact || !ctx.faults.isOn('refresh-token-prefix-match')) return exact;
  const prefix = value.trim().slice(0, 32);
  if (prefix.length < 32) return undefined;
  return [...ctx.store.refreshTokens.values()].find((r) => r.value.startsWith(prefix));
}

/** Only for the `long-lived-refreshable` fault: the long-lived token record a refresh_token value names, if any. */
function longLivedRecord(ctx: EmulatorContext, value: string) {
  try {
    const { jti } = decodeJwt(value);
    const record = typeof jti === 'string' ? ctx.store.bearers.get(jti) : undefined;
    return record?.kind === 'long_lived' ? record : undefined;
  } catch {
    return undefined;
  }
}
