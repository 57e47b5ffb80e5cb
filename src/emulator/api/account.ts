/**
 * `GET /api/v4/account` (§4.1 account API calls). The spec does not show the body; the fields follow the live
 * service (docs/field-notes.md) so public clients that read them without checks keep working.
 */
import type { FastifyInstance } from 'fastify';
import type { RouteOptions } from '../context.js';
import type { Account } from '../world.js';
import { methodNotAllowed } from '../errors.js';
import { bearerAuth } from './bearer.js';
import { linkBase, withSet } from './links.js';

export const ACCOUNT_PATH = '/api/v4/account';

export async function accountRoutes(app: FastifyInstance, { ctx }: RouteOptions): Promise<void> {
  app.get(ACCOUNT_PATH, { preHandler: bearerAuth(ctx) }, async (request, reply) => {
    const { admin } = ctx.world;
    const account = tokenAccount(ctx, request.principal?.accountId);
    const extras = withSet(request.query);
    const body: Record<string, unknown> = {
      id: account.id,
      name: account.name,
      subdomain: account.subdomain,
      created_at: account.createdAt,
      current_user_id: request.principal?.userId ?? admin.id,
      country: account.country,
      currency: account.currency,
      customers_mode: account.customersMode,
      is_unsorted_on: account.isUnsortedOn,
      is_technical_account: account.isTechnicalAccount,
    };
    if (extras.has('amojo_id')) body.amojo_id = account.amojoId;
    if (extras.has('is_api_filter_enabled')) body.is_api_filter_enabled = account.isApiFilterEnabled;
    const base = ctx.faults.isOn('api-links-plain-http') ? `http://${account.subdomain}.example.com` : linkBase(ctx, request);
    body._links = { self: { href: `${base}${ACCOUNT_PATH}` } };
    const type = ctx.faults.isOn('account-answer-text-plain') ? 'text/plain; charset=utf-8' : 'application/hal+json; charset=utf-8';
    return reply.code(200).header('content-type', type).send(JSON.stringify(body));
  });
  methodNotAllowed(app, ACCOUNT_PATH, ['GET']);
}

/** The account the token was granted in (§4.1: Allow installs the integration in the account the user chose). */
function tokenAccount(ctx: RouteOptions['ctx'], accountId: number | undefined): Account {
  const { account, otherAccounts } = ctx.world;
  return [account, ...otherAccounts].find((a) => a.id === accountId) ?? account;
}
