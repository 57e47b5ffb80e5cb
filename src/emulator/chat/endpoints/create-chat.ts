/**
 * §4.3 "Create chat": `POST /{scope_id}/chats` creates the chat of a conversation_id once and answers its id and user (§2.5, §2.6).
 */
import type { FastifyInstance } from 'fastify';
import type { EmulatorContext } from '../../context.js';
import type { ChatState } from '../state.js';
import { randomUUID } from 'node:crypto';
import { raceWindow } from '../../race-window.js';
import { participant, source, Validator } from '../validate.js';
import { connected, gate, json, objectOf, type P } from '../route-kit.js';
import { lookOf, personView } from '../views.js';

export function createChatEndpoint(app: FastifyInstance, ctx: EmulatorContext, state: ChatState): void {
  const f = ctx.faults;
  const va = ctx.variations;
  app.post<P>('/:scopeId/chats', async (request, reply) => {
    const scopeId = request.params.scopeId!;
    const v = gate(ctx, request, {
      channel: state.channelOfScope(scopeId),
      validate: (c, raw) => {
        const body = objectOf(c, raw);
        const madeUp = va.isOn('chat-create-conversation-id-optional') && (typeof body.conversation_id !== 'string' || body.conversation_id === '');
        const conversationId = madeUp ? `made-up-${randomUUID()}` : c.str(body, 'conversation_id', '', { required: true, nonEmpty: true });
        // The unchecked-source fault reads external_id through a validator whose errors are thrown away.
        const externalId = source(f.isOn('chat-create-source-unchecked') ? new Validator(f) : c, body, '');
        const user = participant(c, body, 'user', '', { required: true });
        return { conversationId: conversationId ?? '', externalId, user };
      },
    });
    const conn = connected(state, scopeId);
    // Only for the `chat-keyed-by-user` fault: the chat is looked up by its user, not by conversation_id.
    let chat = f.isOn('chat-keyed-by-user')
      ? [...state.chatsById.values()].find((c) => c.scopeId === conn.scopeId && c.user.clientId === v.user?.id)
      : state.chatOf(conn, v.conversationId);
    if (chat && f.isOn('chat-crash-on-second-create-chat')) throw new Error('simulated crash: duplicate key on the chat\'s conversation_id');
    if (!chat || f.isOn('chat-create-not-idempotent')) {
      if (f.isOn('chat-create-race')) await raceWindow(ctx).hold(`chat ${scopeId} ${v.conversationId}`);
      chat = state.newChat(conn, v.conversationId, state.client(conn, v.user!), v.externalId);
    } else if (v.user) state.client(conn, v.user);
    const user = personView(chat.user, f.isOn('chat-create-user-no-client-id') ? 'drop-client-id' : 'as-is', lookOf(ctx));
    if (f.isOn('chat-create-user-id-empty')) user.id = '';
    if (f.isOn('chat-create-user-id-per-call')) user.id = randomUUID();
    if (f.isOn('chat-create-avatar-dropped')) user.avatar = '';
    return json(reply, { id: chat.id, user });
  });
}
