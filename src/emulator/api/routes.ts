/**
 * The `/api/v4` scope. Its errors are `application/problem+json` like the live service's (docs/field-notes.md; one public
 * client only recognises an API error by exactly that type). List endpoints (§4.2) register here beside the
 * account and reuse `bearerAuth` from ./bearer.js.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { RouteOptions } from '../context.js';
import { notServedDetail, PROBLEM_JSON, ProblemError, sendProblem, toProblem } from '../errors.js';
import { accountRoutes } from './account.js';
import { crashOnOddQuery } from './bearer.js';

export async function apiRoutes(app: FastifyInstance, opts: RouteOptions): Promise<void> {
  app.decorateRequest('principal', null);
  app.setErrorHandler((err: unknown, request: FastifyRequest, reply: FastifyReply) => {
    const p = toProblem(err);
    if (p.status >= 500) request.log.error({ err }, 'unhandled emulator error');
    return sendProblem(reply, p, PROBLEM_JSON);
  });
  const { ctx } = opts;
  // Only for the `api-any-method` fault: the account answers whatever method reaches it.
  app.addHook('onRequest', async (request, reply) => {
    crashOnOddQuery(ctx, request.url);
    if (ctx.faults.isOn('api-any-method') && request.method !== 'GET' && request.method !== 'HEAD') {
      return reply.code(200).header('content-type', 'application/hal+json').send('{}');
    }
    // Only for the `account-wrong-method-crash` fault: the account's fallback for another method throws.
    if (ctx.faults.isOn('account-wrong-method-crash') && !['GET', 'HEAD'].includes(request.method) && /^\/api\/v4\/account(\?|$)/.test(request.url)) {
      throw new TypeError(`handlers[${JSON.stringify(request.method)}] is not a function`);
    }
    return undefined;
  });
  await app.register(accountRoutes, opts);
  // Any other /api/v4 path: 404 (the `api-unknown-path-200` fault answers an empty object instead).
  app.all('/api/v4/*', async (request, reply) => {
    // Only for the faults: routes matched by their first segment, the rest of the path dropped.
    if (ctx.faults.isOn('account-subpath-served') && /^\/api\/v4\/account\/[^?]/.test(request.url)) {
      return reply.code(200).header('content-type', 'application/hal+json').send(JSON.stringify({ id: ctx.world.account.id, name: ctx.world.account.name }));
    }
    const list = /^\/api\/v4\/(leads|contacts|companies|customers)\/[^/?]+\/[^?]/.exec(request.url)?.[1];
    if (list !== undefined && ctx.faults.isOn('lists-subpath-as-list')) {
      return reply.code(200).header('content-type', 'application/hal+json').send(JSON.stringify({ _page: 1, _links: {}, _embedded: { [list]: [] } }));
    }
    // Only for the fault: a one-segment path is taken for a list and its table, which does not exist, is read.
    if (ctx.faults.isOn('lists-unknown-list-crash') && /^\/api\/v4\/[^/?]+(\?|$)/.test(request.url)) throw new TypeError('Cannot read properties of undefined (reading \'records\')');
    if (!ctx.faults.isOn('api-unknown-path-200')) throw new ProblemError({ status: 404, detail: notServedDetail(request.method) });
    return reply.code(200).header('content-type', 'application/hal+json').send('{}');
  });
}
