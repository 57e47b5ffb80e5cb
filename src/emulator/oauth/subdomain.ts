/**
 * `GET /oauth2/account/current/subdomain` with `X-Refresh-Token: <refresh token>`: the account a refresh token was
 * granted in, as the live service answers it (`{id, subdomain, domain, top_level_domain}`). The official PHP client
 * calls it after a 401 to find the account's current address (`getAccountDomainByRefreshToken`), then calls
 * `domain`: the account's own host on the deployed shape, the host the client called on the one-origin one (whose
 * root serves every account's API). Not in the spec;
 * asking does not use the refresh token up. Errors are the token endpoint's JSON errors: 400 without the header,
 * 401 for a refresh token that is unknown, used, revoked or expired.
 */
import type { FastifyInstance } from 'fastify';
import type { EmulatorContext } from '../context.js';
import { methodNotAllowed, ProblemError } from '../errors.js';
import { clientOrigin } from '../origin.js';
import { accountHost } from '../shape.js';
import { accountById, platformOf } from './lifecycle.js';
import { isRevoked } from './revocation.js';

export const SUBDOMAIN_PATH = '/oauth2/account/current/subdomain';

export function subdomainRoute(app: FastifyInstance, ctx: EmulatorContext): void {
  app.get(SUBDOMAIN_PATH, async (request, reply) => {
    const raw = request.headers['x-refresh-token'];
    const value = Array.isArray(raw) ? raw[0] : raw;
    if (!value) throw new ProblemError({ status: 400, detail: 'The X-Refresh-Token header is required', hint: 'Send the refresh token in X-Refresh-Token', error: 'invalid_request' });
    const record = ctx.store.refreshTokens.get(value);
    const usable = record !== undefined && record.usedAtMs === undefined && !isRevoked(ctx, record, 'refresh') && ctx.clock.nowMs() < record.expiresAtMs;
    const account = usable ? accountById(ctx, record.accountId) : undefined;
    if (!account) throw new ProblemError({ status: 401, detail: 'The refresh token is unknown, exchanged, revoked or expired', hint: 'Refresh token is not valid', error: 'invalid_grant' });
    const body = {
      id: account.id,
      subdomain: account.subdomain,
      // The deployed shape serves each account at its own host alone; the one-origin root serves them all.
      domain: ctx.addresses.shape === 'deployed' ? accountHost(ctx.addresses, clientOrigin(ctx, request).host, account) : clientOrigin(ctx, request).host,
      top_level_domain: platformOf(account) === 1 ? 'ru' : 'com',
    };
    return reply.code(200).header('content-type', 'application/json; charset=utf-8').header('cache-control', 'no-store').send(JSON.stringify(body));
  });
  methodNotAllowed(app, SUBDOMAIN_PATH, ['GET']);
}
