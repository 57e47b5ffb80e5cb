/**
 * Any other method or path under the chat prefix: 405 with Allow on the path of an endpoint, 404 elsewhere (§4.3, §7).
 */
import type { FastifyInstance } from 'fastify';
import type { EmulatorContext } from '../../context.js';
import type { ChatState } from '../state.js';
import { ChatError, notFound, sendChatError } from '../errors.js';
import { allowedMethods, CHAT_PREFIX, pathBelow } from '../http.js';
import { verifySignature } from '../signature.js';

/**
 * Anything else under the prefix: still signature first when the channel is known, then 405 with Allow on the
 * path of an endpoint (RFC 9110 §15.5.6), 404 elsewhere.
 */
export function otherPaths(app: FastifyInstance, ctx: EmulatorContext, state: ChatState): void {
  const f = ctx.faults;
  app.all('/*', async (request, reply) => {
    const below = pathBelow(request, CHAT_PREFIX);
    const first = (below.slice(1).split(/[/?]/, 1)[0]) ?? '';
    const channel = state.channels.get(first) ?? state.channelOfScope(first);
    if (channel) verifySignature(ctx, request, channel.secret);
    const allow = allowedMethods(below);
    if (allow.length > 0) {
      // Only for the `chat-wrong-method-crash` fault: the fallback of the router throws.
      if (f.isOn('chat-wrong-method-crash')) throw new Error(`no handler for ${request.method}`);
      // Only for the `chat-other-method-accepted` fault: a catch-all that answers 200 to whatever method it was sent.
      if (f.isOn('chat-other-method-accepted')) return reply.code(200).header('content-type', 'application/json; charset=utf-8').send('{}');
      // Only for the `chat-history-405-html` fault: the read-only history path sits behind a proxy that answers other methods itself.
      if (allow.includes('GET') && f.isOn('chat-history-405-html')) return reply.code(405).header('allow', allow.join(', ')).header('content-type', 'text/html; charset=utf-8').send('<html><body><h1>405 Not Allowed</h1></body></html>');
      if (!ctx.variations.isOn('chat-405-without-allow')) reply.header('allow', allow.join(', '));
      return sendChatError(reply, new ChatError(405, 'METHOD_NOT_ALLOWED', `${request.method} is not served on this path; allowed: ${allow.join(', ')}`), f);
    }
    if (f.isOn('chat-unknown-path-html')) return reply.code(404).header('content-type', 'text/html; charset=utf-8').send('<html><body><h1>404 Not Found</h1></body></html>');
    throw notFound('NOT_FOUND', `no chat endpoint for ${request.method} on this path`);
  });
}
