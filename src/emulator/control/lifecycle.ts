/**
 * Control API of the access lifecycle (docs/design.md §5; documented in docs/control-api.md): what a person does in the
 * service's UI, done by the kit. Integrations and their disconnect hook URL, the accounts of the administrator and
 * his login for the access-granting page, deactivation and disconnection of an installation, long-lived tokens
 * (§2.2, Keys tab), and regeneration of the secret key (§2.1).
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { addCalendarMonthsUtc } from '../clock.js';
import type { EmulatorContext, RouteOptions } from '../context.js';
import { methodNotAllowed, ProblemError } from '../errors.js';
import { integrationOrNotFound } from '../oauth/consent.js';
import { disconnectIntegration } from '../oauth/disconnect.js';
import { issueLongLivedToken } from '../oauth/issue.js';
import { clientOrigin } from '../origin.js';
import { accountAddress } from '../shape.js';
import { accountById, allAccounts, isInstalled, lifecycle, platformOf, regenerateSecret, uninstall } from '../oauth/lifecycle.js';
import type { BearerRecord } from '../state.js';
import type { Account, Integration } from '../world.js';
import { CONTROL_PREFIX, grantingUser } from './routes.js';
import { badRequest, controlBody, optionalString } from './validate.js';

const DAY_S = 86_400;

const json = (reply: FastifyReply, status: number, body: unknown): FastifyReply =>
  reply.code(status).header('content-type', 'application/json; charset=utf-8').send(JSON.stringify(body));

function optionalInteger(body: Record<string, unknown>, field: string): number | undefined {
  if (!Object.hasOwn(body, field)) return undefined;
  const v = body[field];
  if (typeof v !== 'number' || !Number.isSafeInteger(v)) throw badRequest(`\`${field}\` must be an integer`);
  return v;
}

/** `client_id` (default: the integration of CLIENT_ID) and `account_id` (default: the developer account). */
function target(ctx: EmulatorContext, body: Record<string, unknown>): { integration: Integration; account: Account } {
  const clientId = optionalString(body, 'client_id');
  const integration = clientId === undefined ? ctx.world.integration : integrationOrNotFound(ctx, clientId);
  const accountId = optionalInteger(body, 'account_id');
  const account = accountId === undefined ? ctx.world.account : accountById(ctx, accountId);
  if (!account) throw new ProblemError({ status: 404, detail: 'No account has this account_id' });
  return { integration, account };
}

function integrationView(ctx: EmulatorContext, i: Integration): Record<string, unknown> {
  return {
    client_id: i.clientId,
    name: i.name,
    private: i.isPrivate === true,
    redirect_uri: i.redirectUri,
    hook_url: i.hookUrl ?? null,
    installed_in: allAccounts(ctx).filter((a) => isInstalled(ctx, i.clientId, a.id)).map((a) => a.id),
  };
}

function longLivedView(b: BearerRecord): Record<string, unknown> {
  return {
    id: b.jti,
    client_id: b.clientId,
    account_id: b.accountId,
    user_id: b.userId,
    issued_at: Math.floor(b.issuedAtMs / 1000),
    expires_at: Math.floor(b.expiresAtMs / 1000),
    revoked_at: b.revokedAtMs === undefined ? null : Math.floor(b.revokedAtMs / 1000),
  };
}

export async function lifecycleControlRoutes(app: FastifyInstance, { ctx }: RouteOptions): Promise<void> {
  const p = CONTROL_PREFIX;
  lifecycle(ctx); // registers its reset hook now, not on first use
  if (ctx.world.admin.password) ctx.secrets.add(ctx.world.admin.password);
  ctx.secrets.add(ctx.world.privateIntegration.clientSecret);

  app.get(`${p}/integrations`, async (_request, reply) =>
    json(reply, 200, { integrations: [ctx.world.integration, ctx.world.privateIntegration].map((i) => integrationView(ctx, i)) }));
  methodNotAllowed(app, `${p}/integrations`, ['GET']);

  app.post(`${p}/hook-url`, async (request, reply) => {
    const body = controlBody(request.body);
    const { integration } = target(ctx, body);
    const raw = body.hook_url;
    if (raw === null) delete integration.hookUrl;
    else {
      if (typeof raw !== 'string') throw badRequest('`hook_url` must be an http(s) URL or null');
      let url: URL;
      try { url = new URL(raw); } catch { throw badRequest('`hook_url` must be an http(s) URL or null'); }
      if (url.protocol !== 'http:' && url.protocol !== 'https:') throw badRequest('`hook_url` must be an http(s) URL or null');
      integration.hookUrl = raw;
    }
    return json(reply, 200, integrationView(ctx, integration));
  });
  methodNotAllowed(app, `${p}/hook-url`, ['POST']);

  app.get(`${p}/accounts`, async (request, reply) => {
    const { account, otherAccounts, admin } = ctx.world;
    const origin = clientOrigin(ctx, request);
    const view = (a: Account, role: string) => ({
      id: a.id, name: a.name, subdomain: a.subdomain, amojo_id: a.amojoId, platform: platformOf(a), admin_role: role, base_url: accountAddress(ctx.addresses, origin, a),
    });
    return json(reply, 200, {
      user: { id: admin.id, login: admin.login },
      accounts: [view(account, 'administrator'), ...otherAccounts.map((a) => view(a, a.adminRole))],
    });
  });
  methodNotAllowed(app, `${p}/accounts`, ['GET']);

  app.get(`${p}/login`, async (_request, reply) => json(reply, 200, { login: ctx.world.admin.login, password: ctx.world.admin.password }));
  methodNotAllowed(app, `${p}/login`, ['GET']);

  app.post(`${p}/deactivate`, async (request, reply) => {
    const { integration, account } = target(ctx, controlBody(request.body ?? {}));
    const wasInstalled = uninstall(ctx, integration.clientId, account.id);
    // Only for the `deactivation-revokes-all-accounts` fault: the installation's tokens in every account go, not this one's.
    const accounts = ctx.faults.isOn('deactivation-revokes-all-accounts') ? [ctx.world.account, ...ctx.world.otherAccounts] : [account];
    const revoked = ctx.faults.isOn('deactivation-keeps-tokens') ? 0
      : accounts.reduce((n, a) => n + ctx.store.revokeInstallation(integration.clientId, a.id, ctx.clock.nowMs()), 0);
    return json(reply, 200, { client_id: integration.clientId, account_id: account.id, was_installed: wasInstalled, revoked });
  });
  methodNotAllowed(app, `${p}/deactivate`, ['POST']);

  app.post(`${p}/disconnect`, async (request, reply) => {
    const { integration, account } = target(ctx, controlBody(request.body ?? {}));
    return json(reply, 200, await disconnectIntegration(ctx, integration, account));
  });
  methodNotAllowed(app, `${p}/disconnect`, ['POST']);

  app.get(`${p}/long-lived-tokens`, async (_request, reply) => json(reply, 200, { tokens: ctx.store.longLived().map(longLivedView) }));
  app.post(`${p}/long-lived-tokens`, async (request, reply) => {
    const body = controlBody(request.body);
    const { integration, account } = target(ctx, body);
    const expiresAt = optionalInteger(body, 'expires_at');
    const nowMs = ctx.clock.nowMs();
    const earliest = Math.floor(nowMs / 1000) + DAY_S;
    const latest = Math.floor(addCalendarMonthsUtc(nowMs, 60) / 1000);
    if (expiresAt === undefined || expiresAt < earliest || expiresAt > latest) {
      throw badRequest(`\`expires_at\` must be a timestamp from 1 day to 5 years ahead (${earliest} to ${latest})`);
    }
    const userId = grantingUser(ctx, body, account.id) ?? ctx.world.admin.id;
    const { token, jti } = await issueLongLivedToken(ctx, { clientId: integration.clientId, userId, accountId: account.id }, expiresAt * 1000, { host: clientOrigin(ctx, request).host });
    return json(reply, 201, { ...longLivedView(ctx.store.bearers.get(jti)!), long_lived_token: token });
  });
  methodNotAllowed(app, `${p}/long-lived-tokens`, ['GET', 'POST']);

  app.delete<{ Params: { id: string } }>(`${p}/long-lived-tokens/:id`, async (request, reply) => {
    const record = ctx.store.bearers.get(request.params.id);
    if (!record || record.kind !== 'long_lived') throw new ProblemError({ status: 404, detail: 'No long-lived token has this id' });
    record.revokedAtMs ??= ctx.clock.nowMs();
    return json(reply, 200, longLivedView(record));
  });
  methodNotAllowed(app, `${p}/long-lived-tokens/:id`, ['DELETE']);

  app.post(`${p}/secret`, async (request, reply) => {
    const body = controlBody(request.body ?? {});
    const { integration } = target(ctx, body);
    const value = optionalString(body, 'client_secret');
    if (value !== undefined && !/^[A-Za-z0-9]{32,128}$/.test(value)) throw badRequest('`client_secret` must be 32 to 128 letters and digits');
    return json(reply, 200, { client_id: integration.clientId, client_secret: regenerateSecret(ctx, integration, value) });
  });
  methodNotAllowed(app, `${p}/secret`, ['POST']);
}
