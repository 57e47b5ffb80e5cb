/**
 * The two grants of the token exchange (§4.1, §3.1, §5.1). Each validates its request completely before any state
 * changes, so a refused request never consumes a code or refresh token. Faults are checked at the single place
 * each behaviour is decided.
 */
import { randomUUID } from 'node:crypto';
import type { EmulatorContext } from '../context.js';
import { CODE_TTL_MS, issueAccessToken, issueRefreshToken, type Grant } from './issue.js';
import { checkParam, invalid, sameSecret, type TokenParams } from './params.js';

export interface IssuedTokens {
  readonly accessToken: string;
  readonly expiresIn: number;
  readonly refreshToken: string;
}

function checkClientId(ctx: EmulatorContext, params: TokenParams): string {
  const { clientId } = ctx.world.integration;
  if (ctx.faults.isOn('skip-client-id-check')) return clientId;
  const given = params.required('client_id');
  if (given !== clientId) throw invalid(checkParam('client_id'), 'Client authentication failed', 'invalid_client');
  return clientId;
}

function checkClientSecret(ctx: EmulatorContext, given: string | undefined): void {
  if (given === undefined) {
    throw invalid(checkParam('client_secret'), 'The request is missing the required `client_secret` parameter', 'invalid_client');
  }
  if (!sameSecret(given, ctx.world.integration.clientSecret)) {
    throw invalid(checkParam('client_secret'), 'Client authentication failed', 'invalid_client');
  }
}

/** §5.1 item 4: identical to the registered Redirect URI, byte for byte (no normalisation, no prefix match). */
function checkRedirectUri(ctx: EmulatorContext, params: TokenParams, required: boolean): void {
  if (ctx.faults.isOn('skip-redirect-uri-check')) return;
  const given = required ? params.required('redirect_uri') : params.optional('redirect_uri');
  if (given !== undefined && given !== ctx.world.integration.redirectUri) {
    throw invalid('Redirect URI is not associated with client', 'The `redirect_uri` does not match the registered Redirect URI', 'invalid_grant');
  }
}

export async function authorizationCodeGrant(ctx: EmulatorContext, params: TokenParams): Promise<IssuedTokens> {
  const clientId = checkClientId(ctx, params);
  if (!ctx.faults.isOn('skip-client-secret-check')) checkClientSecret(ctx, params.optional('client_secret'));
  checkRedirectUri(ctx, params, true);

  if (!params.has('code') && ctx.faults.isOn('accept-missing-code')) {
    const { account, admin } = ctx.world;
    return issuePair(ctx, { clientId, userId: admin.id, accountId: account.id, grantId: randomUUID() });
  }
  const code = ctx.store.codes.get(params.required('code'));
  if (!code) throw invalid('Authorization code is not valid', 'The authorization code is unknown', 'invalid_grant');
  if (code.clientId !== clientId) {
    throw invalid('Authorization code was not issued to this client', 'The authorization code belongs to another client', 'invalid_grant');
  }
  const now = ctx.clock.nowMs();
  if (code.usedAtMs !== undefined && !ctx.faults.isOn('accept-reused-code')) {
    // RFC 6749 §4.1.2: a second use suggests the code leaked, so the tokens issued from it go too.
    if (!ctx.faults.isOn('no-revoke-on-code-reuse')) ctx.store.revokeGrant(code.grantId, now);
    throw invalid('Authorization code has been revoked', 'The authorization code was already used', 'invalid_grant');
  }
  if (now >= code.issuedAtMs + CODE_TTL_MS && !ctx.faults.isOn('accept-expired-code')) {
    throw invalid('Authorization code has expired', 'The authorization code is older than 20 minutes', 'invalid_grant');
  }

  code.usedAtMs ??= now;
  return issuePair(ctx, { clientId, userId: code.userId, accountId: code.accountId, grantId: code.grantId });
}

async function issuePair(ctx: EmulatorContext, grant: Grant): Promise<IssuedTokens> {
  const access = await issueAccessToken(ctx, grant);
  return { accessToken: access.token, expiresIn: access.expiresIn, refreshToken: issueRefreshToken(ctx, grant) };
}

export async function refreshTokenGrant(ctx: EmulatorContext, params: TokenParams): Promise<IssuedTokens> {
  const clientId = checkClientId(ctx, params);
  // §5.1 item 3: the secret is optional on refresh, but a secret that is sent must be right.
  const secret = params.optional('client_secret');
  if (secret !== undefined || ctx.faults.isOn('refresh-requires-secret')) checkClientSecret(ctx, secret);
  checkRedirectUri(ctx, params, false);

  const value = params.required('refresh_token');
  const record = ctx.store.refreshTokens.get(value);
  if (!record) throw invalid('Refresh token is not valid', 'The refresh token is unknown', 'invalid_grant');
  if (record.clientId !== clientId) {
    throw invalid('Refresh token was not issued to this client', 'The refresh token belongs to another client', 'invalid_grant');
  }
  if (record.revokedAtMs !== undefined) throw invalid('Token has been revoked', 'The refresh token was revoked', 'invalid_grant');
  if (record.usedAtMs !== undefined && !ctx.faults.isOn('reuse-old-refresh-token')) {
    throw invalid('Token has been revoked', 'The refresh token was already exchanged', 'invalid_grant');
  }
  const now = ctx.clock.nowMs();
  if (now >= record.expiresAtMs && !ctx.faults.isOn('accept-expired-refresh-token')) {
    throw invalid('Token has expired', 'The refresh token is older than 3 months', 'invalid_grant');
  }

  const grant: Grant = { clientId, userId: record.userId, accountId: record.accountId, grantId: record.grantId };
  const sameToken = ctx.faults.isOn('refresh-returns-same-token');
  if (!sameToken) record.usedAtMs ??= now;
  const access = await issueAccessToken(ctx, grant);
  const refreshToken = sameToken ? value : issueRefreshToken(ctx, grant, !ctx.faults.isOn('new-refresh-token-dead'));
  return { accessToken: access.token, expiresIn: access.expiresIn, refreshToken };
}
