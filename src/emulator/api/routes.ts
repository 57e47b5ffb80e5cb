/**
 * The `/api/v4` scope. Its errors are `application/problem+json` like the live service's (docs/field-notes.md; one public
 * client only recognises an API error by exactly that type). List endpoints (§4.2) register here beside the
 * account and reuse `bearerAuth` from ./bearer.js.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { RouteOptions } from '../context.js';
import { PROBLEM_JSON, sendProblem, toProblem } from '../errors.js';
import { accountRoutes } from './account.js';

export async function apiRoutes(app: FastifyInstance, opts: RouteOptions): Promise<void> {
  app.decorateRequest('principal', null);
  app.setErrorHandler((err: unknown, request: FastifyRequest, reply: FastifyReply) => {
    const p = toProblem(err);
    if (p.status >= 500) request.log.error({ err }, 'unhandled emulator error');
    return sendProblem(reply, p, PROBLEM_JSON);
  });
  await app.register(accountRoutes, opts);
}
