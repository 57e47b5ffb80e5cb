/**
 * §4.3 "Send, edit or import a message" and "Send a comment": `POST /{scope_id}` with a new_message or edit_message
 * event (./message-event.ts); a new message is stored by ./new-message.ts, an edit by ./edit-message.ts, and both are
 * answered by ./message-answer.ts. Messages are processed synchronously: a message is in the history as soon as the
 * 200 is sent.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { EmulatorContext } from '../../context.js';
import type { ChatState } from '../state.js';
import { isObj } from '../validate.js';
import { connected, emptyOk, gate, json, type P } from '../route-kit.js';
import { editMessage } from './edit-message.js';
import { verifySignature } from '../signature.js';
import { ignoredOnEditRefused, validateMessageEvent } from './message-event.js';
import { newMessage } from './new-message.js';

export function messageEndpoint(app: FastifyInstance, ctx: EmulatorContext, state: ChatState): void {
  const f = ctx.faults;
  const va = ctx.variations;
  app.post<P>('/:scopeId', async (request, reply) => {
    const scopeId = request.params.scopeId!;
    if (f.isOn('chat-crash-on-odd-payload')) {
      const raw = readJsonLoose(request);
      if (isObj(raw) && isObj(raw.payload) && raw.payload.message !== undefined && !isObj(raw.payload.message)) throw new Error('simulated crash on an odd payload');
    }
    const channel = state.channelOfScope(scopeId);
    // The fault: an event without payload is taken as an empty event (nothing stored), once the signature holds.
    if (f.isOn('chat-event-without-payload-taken') && channel) {
      const raw = readJsonLoose(request);
      if (isObj(raw) && raw.payload === undefined) {
        verifySignature(ctx, request, channel.secret);
        return emptyOk(reply);
      }
    }
    const conn0 = state.connections.get(scopeId);
    const v = gate(ctx, request, {
      channel,
      // The faults: one event kind is taken as signed whatever its signature (the check sits on the new-message path).
      skipSignature: (raw) => isObj(raw) && ((raw.event_type === 'edit_message' && f.isOn('chat-edit-signature-unchecked'))
        || (raw.event_type !== 'edit_message' && isObj(raw.payload) && isObj(raw.payload.message) && isObj(raw.payload.message.post) && f.isOn('chat-comment-signature-unchecked'))),
      validate: (c, raw) => ignoredOnEditRefused(c, validateMessageEvent(c, raw, conn0, channel)),
    });
    const conn = connected(state, scopeId);
    const body = v.event === 'edit_message' ? await editMessage(ctx, state, conn, v) : await newMessage(ctx, state, conn, v);
    if (v.event === 'edit_message' && va.isOn('chat-edit-answer-empty')) return emptyOk(reply);
    const nm = body.new_message;
    if (va.isOn('chat-new-message-answer-without-ids')) { delete nm.conversation_id; delete nm.ref_id; }
    if (va.isOn('chat-receiver-id-omitted') && nm.receiver_id === null) delete nm.receiver_id;
    if (va.isOn('chat-receiver-id-empty') && nm.receiver_id === null) nm.receiver_id = '';
    if (f.isOn('chat-answer-without-msgid')) delete nm.msgid;
    if (va.isOn('chat-answer-sender-id-alias') && typeof nm.sender_id === 'string') nm.sender_id = `contact-${nm.sender_id}`;
    return json(reply, f.isOn('chat-message-response-flat') ? nm : body);
  });
}

function readJsonLoose(request: FastifyRequest): unknown {
  try {
    return request.rawBody && request.rawBody.length > 0 ? JSON.parse(request.rawBody.toString('utf8')) : undefined;
  } catch {
    return undefined;
  }
}
