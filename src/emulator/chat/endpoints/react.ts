/**
 * §4.3 "Reaction": `POST /{scope_id}/react` sets or removes a user's reaction on a message; 200, no body.
 */
import type { FastifyInstance } from 'fastify';
import type { EmulatorContext } from '../../context.js';
import type { ChatState } from '../state.js';
import { invalidRequest, notFound } from '../errors.js';
import { connected, emptyOk, gate, objectOf, type P } from '../route-kit.js';
import { isObj } from '../validate.js';

export function reactEndpoint(app: FastifyInstance, ctx: EmulatorContext, state: ChatState): void {
  const f = ctx.faults;
  const va = ctx.variations;
  app.post<P>('/:scopeId/react', async (request, reply) => {
    const scopeId = request.params.scopeId!;
    const v = gate(ctx, request, {
      channel: state.channelOfScope(scopeId),
      // The fault: a reaction naming the message by its chat-interface id is taken as the account's own and not verified.
      skipSignature: (body) => f.isOn('chat-react-unsigned-by-id') && isObj(body) && typeof body.id === 'string',
      validate: (c, raw) => {
        const body = objectOf(c, raw);
        const lax = f.isOn('chat-react-unvalidated');
        const conversationId = c.str(body, 'conversation_id', '');
        const conversationRefId = c.str(body, 'conversation_ref_id', '');
        if (conversationId === undefined && conversationRefId === undefined && !lax) c.add('conversation_id', 'or conversation_ref_id is required');
        const id = c.str(body, 'id', '');
        const msgid = c.str(body, 'msgid', '');
        if (id === undefined && msgid === undefined && !lax) c.add('msgid', 'or id is required');
        const user = c.obj(body, 'user', '', { required: !lax });
        if (user) { c.str(user, 'id', 'user', { required: !lax }); c.str(user, 'ref_id', 'user'); }
        const type = lax ? 'react' : c.oneOf(body, 'type', '', ['react', 'unreact'] as const, { required: true });
        const emoji = c.str(body, 'emoji', '', { required: (type === 'react' && va.isOn('chat-react-emoji-required')) || f.isOn('chat-reaction-emoji-required') });
        return { conversationId, conversationRefId, id, msgid, type: type ?? 'react', emoji: emoji ?? '', userId: String((user?.id as string | undefined) ?? '') };
      },
    });
    const conn = connected(state, scopeId);
    if (v.conversationId === undefined && f.isOn('chat-crash-on-react-by-ref-id-only')) throw new Error('simulated crash: the reaction\'s chat is looked up by an undefined conversation_id');
    if (v.msgid === undefined && f.isOn('chat-crash-on-react-by-id-only')) throw new Error('simulated crash: the reaction\'s message is looked up by an undefined msgid');
    if (!state.hasClient(conn, v.userId) && f.isOn('chat-crash-on-react-unknown-user')) throw new Error('simulated crash: the reacting user is not there');
    if (v.type === 'react' && v.emoji === '' && f.isOn('chat-crash-on-react-without-emoji')) throw new Error('simulated crash: the missing emoji is stored');
    const inScopeChat = v.conversationId !== undefined ? state.chatOf(conn, v.conversationId) : v.conversationRefId !== undefined ? state.chatByEitherId(conn, v.conversationRefId) : undefined;
    // The isolation fault: a chat named by conversation_ref_id is looked up among every scope's chats, and the message in it.
    const refAcross = !inScopeChat && v.conversationId === undefined && v.conversationRefId !== undefined && f.isOn('chat-react-ref-id-any-scope') ? state.chatsById.get(v.conversationRefId) : undefined;
    const chat = inScopeChat ?? refAcross;
    if (!chat && f.isOn('chat-crash-on-react-unknown-conversation')) throw new Error('simulated crash: the reaction\'s chat is not there');
    const inScope = v.id !== undefined && !f.isOn('chat-react-msgid-only') ? state.messageNamed(conn, v.id, 'chat') : undefined;
    // The isolation fault: a chat-interface id is taken as unique across scopes, and the message's own chat is used.
    const across = !inScope && v.id !== undefined && f.isOn('chat-react-by-id-any-scope') ? state.messageInAnyScope(v.id)?.m : undefined;
    const byId = inScope ?? across;
    const m = byId ?? (v.msgid !== undefined ? state.messageNamed(conn, v.msgid, 'integration') : undefined)
      ?? refAcross?.messages.find((x) => (v.msgid !== undefined && x.clientId === v.msgid) || (v.id !== undefined && x.id === v.id));
    if (!m && !byId && v.msgid !== undefined && f.isOn('chat-crash-on-unknown-react-msgid')) throw new Error('simulated crash: the reaction\'s message is not there');
    const chatMatters = !f.isOn('chat-react-ignores-conversation') && across === undefined;
    if (!m || (chatMatters && chat && m.chat !== chat) || (chatMatters && !chat && (v.conversationId !== undefined || v.conversationRefId !== undefined) && !f.isOn('chat-react-unvalidated'))) {
      throw notFound('MESSAGE_NOT_FOUND', 'message does not exist');
    }
    const onto = f.isOn('chat-react-on-latest') ? m.chat.messages.at(-1) ?? m : m;
    if (v.type === 'react' && onto.reactions.get(v.userId) === v.emoji && f.isOn('chat-crash-on-repeated-react')) throw new Error('simulated crash: duplicate key on the user\'s reaction');
    if (v.type === 'unreact' && !onto.reactions.has(v.userId) && va.isOn('chat-repeat-refused')) throw invalidRequest([{ field: 'type', message: 'the user has no reaction on the message' }]);
    if (v.type === 'unreact' && !onto.reactions.has(v.userId) && f.isOn('chat-crash-on-second-unreact')) throw new Error('simulated crash: the user\'s reaction is not there to remove');
    if (v.type === 'react') onto.reactions.set(v.userId, v.emoji);
    else if (!f.isOn('chat-unreact-ignored')) onto.reactions.delete(v.userId);
    if (f.isOn('chat-react-answers-ok-text')) return reply.code(200).header('content-type', 'text/plain; charset=utf-8').send('OK');
    return emptyOk(reply);
  });
}
