/**
 * §4.3 "Typing indicator": `POST /{scope_id}/typing`; 204, no body.
 */
import type { FastifyInstance } from 'fastify';
import type { EmulatorContext } from '../../context.js';
import type { ChatState } from '../state.js';
import { connected, emptyOk, gate, objectOf, type P } from '../route-kit.js';

export function typingEndpoint(app: FastifyInstance, ctx: EmulatorContext, state: ChatState): void {
  const f = ctx.faults;
  const va = ctx.variations;
  app.post<P>('/:scopeId/typing', async (request, reply) => {
    const scopeId = request.params.scopeId!;
    const typing = gate(ctx, request, {
      channel: state.channelOfScope(scopeId),
      validate: (c, raw) => {
        const body = objectOf(c, raw);
        if (va.isOn('chat-typing-unvalidated')) return undefined;
        const conversation = c.str(body, 'conversation_id', '', { required: true, nonEmpty: true });
        if (body.duration_ms === undefined && f.isOn('chat-crash-on-typing-without-duration')) throw new Error('simulated crash: the missing duration is used as a number');
        c.int(body, 'duration_ms', '', { required: f.isOn('chat-typing-requires-duration'), min: 0 });
        const sender = c.obj(body, 'sender', '', { required: true });
        const senderId = sender ? c.str(sender, 'id', 'sender', { required: true }) : undefined;
        return { conversation, senderId };
      },
    });
    if (!f.isOn('chat-typing-any-scope')) {
      const conn = connected(state, scopeId);
      if (typing?.conversation !== undefined && !state.chatOf(conn, typing.conversation) && f.isOn('chat-crash-on-typing-unknown-conversation')) throw new Error('simulated crash: typing in a chat that is not there');
      if (typing?.senderId !== undefined && !state.hasClient(conn, typing.senderId) && f.isOn('chat-crash-on-typing-unknown-sender')) throw new Error('simulated crash: the typing sender is not there');
    }
    return va.isOn('chat-typing-answers-200') ? emptyOk(reply) : reply.code(204).send();
  });
}
