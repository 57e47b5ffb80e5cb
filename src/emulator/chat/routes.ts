/**
 * The chat channel interface (§4.3) at `{chat_url}/v2/origin/custom/...`. Every request goes through the same
 * three gates in this order (./route-kit.ts): the signature (§5.2, 403), validation (400 with every bad field named),
 * existence (404). Bodies are kept as raw bytes by this scope's own parser so that Content-MD5 is checked against
 * exactly what was received. Each endpoint is one file of ./endpoints/.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { RouteOptions } from '../context.js';
import { toProblem } from '../errors.js';
import { ChatError, sendChatError } from './errors.js';
import { CHAT_PREFIX, CHAT_READ_LIMIT, checkBodySize } from './http.js';
import { JSON_TYPE, type ChatEndpoint } from './route-kit.js';
import { chatState } from './state.js';
import { connectEndpoint } from './endpoints/connect.js';
import { createChatEndpoint } from './endpoints/create-chat.js';
import { deliveryStatusEndpoint } from './endpoints/delivery-status.js';
import { disconnectEndpoint } from './endpoints/disconnect.js';
import { historyEndpoint } from './endpoints/history.js';
import { messageEndpoint } from './endpoints/message.js';
import { otherPaths } from './endpoints/other-paths.js';
import { reactEndpoint } from './endpoints/react.js';
import { typingEndpoint } from './endpoints/typing.js';

/** The endpoints in the order of §4.3, then the answer to any other method or path under the prefix. */
const ENDPOINTS: readonly ChatEndpoint[] = [
  connectEndpoint, disconnectEndpoint, createChatEndpoint, messageEndpoint, deliveryStatusEndpoint, historyEndpoint, typingEndpoint,
  reactEndpoint, otherPaths,
];

export async function chatRoutes(app: FastifyInstance, { ctx }: RouteOptions): Promise<void> {
  const state = chatState(ctx);
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: CHAT_READ_LIMIT }, (request: FastifyRequest, body: Buffer, done) => {
      request.rawBody = body;
      try {
        checkBodySize(body, ctx.faults, ctx.variations);
      } catch (err) {
        return done(err as Error, undefined);
      }
      done(null, undefined);
    });
    scope.setErrorHandler((err: unknown, request: FastifyRequest, reply: FastifyReply) => {
      if (err instanceof ChatError) return sendChatError(reply, err, ctx.faults);
      const p = toProblem(err);
      if (p.status >= 500) {
        request.log.error({ err }, 'unhandled emulator error');
        return reply.code(500).header('content-type', JSON_TYPE).send(JSON.stringify({ status: 0, error_code: 500, error_type: 'INTERNAL_ERROR', error_description: 'internal error' }));
      }
      if (p.status === 413) return sendChatError(reply, new ChatError(413, 'REQUEST_TOO_LARGE', p.detail), ctx.faults);
      return sendChatError(reply, new ChatError(p.status === 404 ? 404 : 400, 'BAD_REQUEST', p.detail), ctx.faults);
    });
    for (const endpoint of ENDPOINTS) endpoint(scope, ctx, state);
  }, { prefix: CHAT_PREFIX });
}
