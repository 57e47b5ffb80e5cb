/**
 * The control API (docs/design.md §5) under `/_control`: lets the kit advance the clock, act as the user on the
 * access-granting page, switch faults and allowed variations and reset, instead of sleeping or needing a person. Documented in
 * docs/control-api.md, a public interface. Answers never contain the client or channel secret; the only secret
 * it hands out is a freshly minted authorization code, which is what consent is for.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { EmulatorContext, RouteOptions } from '../context.js';
import { methodNotAllowed } from '../errors.js';
import { FAULTS } from '../faults.js';
import type { Switches } from '../switches.js';
import { UnknownSwitchError } from '../switches.js';
import { VARIATIONS } from '../variations.js';
import { decideConsent } from '../oauth/consent.js';
import { clientOrigin } from '../origin.js';
import { accountUsers, userById } from '../world.js';
import { badRequest, controlBody, optionalString, optionalStringArray, requiredString } from './validate.js';
import { lockRoutes } from './lock.js';

export const CONTROL_PREFIX = '/_control';

/** A century: far beyond any lifetime in the spec (5 years at most), and far from Date's range limit. */
const MAX_ADVANCE_SECONDS = 100 * 366 * 86_400;

const json = (reply: FastifyReply, status: number, body: unknown): FastifyReply =>
  reply.code(status).header('content-type', 'application/json; charset=utf-8').send(JSON.stringify(body));

export async function controlRoutes(app: FastifyInstance, { ctx }: RouteOptions): Promise<void> {
  const p = CONTROL_PREFIX;

  app.get(p, async (_request, reply) => json(reply, 200, overview(ctx)));
  methodNotAllowed(app, p, ['GET']);

  app.get(`${p}/clock`, async (_request, reply) => json(reply, 200, clockView(ctx)));
  app.post(`${p}/clock`, async (request, reply) => {
    const body = controlBody(request.body);
    const n = body.advance_seconds;
    if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 0 || n > MAX_ADVANCE_SECONDS) {
      throw badRequest(`\`advance_seconds\` must be an integer from 0 to ${MAX_ADVANCE_SECONDS}`);
    }
    ctx.clock.advance(n);
    return json(reply, 200, clockView(ctx));
  });
  methodNotAllowed(app, `${p}/clock`, ['GET', 'POST']);
  app.post(`${p}/clock/reset`, async (_request, reply) => {
    ctx.clock.reset();
    return json(reply, 200, clockView(ctx));
  });
  methodNotAllowed(app, `${p}/clock/reset`, ['POST']);

  app.post(`${p}/consent`, async (request, reply) => {
    const body = controlBody(request.body);
    const clientId = requiredString(body, 'client_id');
    const decision = requiredString(body, 'decision');
    if (decision !== 'allow' && decision !== 'deny') throw badRequest('`decision` must be "allow" or "deny"');
    const state = optionalString(body, 'state');
    const accountId = body.account_id;
    if (accountId !== undefined && !Number.isSafeInteger(accountId)) throw badRequest('`account_id` must be an integer');
    if (body.widget !== undefined && typeof body.widget !== 'boolean') throw badRequest('`widget` must be a boolean');
    const userId = grantingUser(ctx, body, accountId as number | undefined);
    const outcome = decideConsent(ctx, {
      clientId, decision,
      ...(state === undefined ? {} : { state }),
      ...(accountId === undefined ? {} : { accountId: accountId as number }),
      ...(body.widget === true ? { widget: true } : {}),
      ...(userId === undefined ? {} : { userId }),
    }, { host: clientOrigin(ctx, request).host });
    return json(reply, 200, outcome);
  });
  methodNotAllowed(app, `${p}/consent`, ['POST']);

  // The users of the developer account and their rights: whose consent gives a token that sees less (docs/control-api.md).
  app.get(`${p}/users`, async (_request, reply) => json(reply, 200, {
    users: accountUsers(ctx.world).map((u) => ({ id: u.id, name: u.name, is_admin: u.isAdmin, deals: u.deals ?? 'all' })),
  }));
  methodNotAllowed(app, `${p}/users`, ['GET']);

  switchRoutes(app, `${p}/faults`, FAULTS, ctx.faults);
  switchRoutes(app, `${p}/variations`, VARIATIONS, ctx.variations);

  app.post(`${p}/reset`, async (_request, reply) => {
    ctx.reset();
    return json(reply, 200, overview(ctx));
  });
  methodNotAllowed(app, `${p}/reset`, ['POST']);

  // The current credentials, registered channels, list records, installations and secret keys become what a reset
  // restores: `conformance emulator` marks them once it has made the settings it prints.
  app.post(`${p}/baseline`, async (_request, reply) => {
    ctx.markBaseline();
    return json(reply, 200, overview(ctx));
  });
  methodNotAllowed(app, `${p}/baseline`, ['POST']);

  // One run at a time (./lock.ts): outside the state a reset restores.
  lockRoutes(app, `${p}/lock`);
}

/**
 * `user_id` of a consent or a long-lived token: a user of the developer account (GET /_control/users), whose rights
 * the token carries; a user who is not the administrator grants in the developer account only. Undefined: the
 * administrator.
 */
export function grantingUser(ctx: EmulatorContext, body: Record<string, unknown>, accountId: number | undefined): number | undefined {
  const id = body.user_id;
  if (id === undefined) return undefined;
  if (typeof id !== 'number' || !Number.isSafeInteger(id)) throw badRequest('`user_id` must be an integer');
  const user = userById(ctx.world, id);
  if (!user) throw badRequest(`\`user_id\` ${id} is no user of the account (GET ${CONTROL_PREFIX}/users lists them)`);
  if (user !== ctx.world.admin && accountId !== undefined && accountId !== ctx.world.account.id) {
    throw badRequest(`user ${id} is a user of account ${ctx.world.account.id} only`);
  }
  return id;
}

/** GET lists the switches and the active ones; POST `{ enable, disable }` changes them, all or nothing. */
function switchRoutes(app: FastifyInstance, path: string, available: readonly unknown[], switches: Switches<string>): void {
  app.get(path, async (_request, reply) => json(reply, 200, { available, active: switches.active() }));
  app.post(path, async (request, reply) => {
    const body = controlBody(request.body);
    const enable = optionalStringArray(body, 'enable') ?? [];
    const disable = optionalStringArray(body, 'disable') ?? [];
    try {
      switches.set({ enable, disable });
    } catch (e) {
      if (e instanceof UnknownSwitchError) throw badRequest(e.message);
      throw e;
    }
    return json(reply, 200, { active: switches.active() });
  });
  methodNotAllowed(app, path, ['GET', 'POST']);
}

function clockView(ctx: EmulatorContext): { now: number; offset_seconds: number } {
  return { now: ctx.clock.nowSeconds(), offset_seconds: ctx.clock.offsetSeconds };
}

function overview(ctx: EmulatorContext): Record<string, unknown> {
  const { integration, account, admin, channel } = ctx.world;
  return {
    now: ctx.clock.nowSeconds(),
    faults: ctx.faults.active(),
    variations: ctx.variations.active(),
    integration: { client_id: integration.clientId, redirect_uri: integration.redirectUri },
    account: { id: account.id, subdomain: account.subdomain, amojo_id: account.amojoId },
    user: { id: admin.id },
    channel: { id: channel.id, bot_id: channel.botId },
  };
}
