/**
 * The richest valid request of each chat route, built on a conversation of the configured channel, and what a case of
 * its valid space (generators/chat-valid-space.ts) sends. The request is one document, `{ params, query, body }`, so
 * a case can walk a path segment or a query value as it walks a body member.
 */
import { applySpaceCase, type SpaceCase, type SpaceRoute } from '../../generators/chat-valid-space.js';
import { chatPaths, createChatBody, editMessageBody, newMessageBody, sampleMessage, type ChatCall, type ParticipantBody } from '../protocol/chat.js';
import type { RuleContext } from '../model/context.js';
import type { HttpResponse } from '../model/http.js';
import { TargetAnswer } from '../errors.js';
import { STEP_OWNERS } from './owners.js';
import { parseJson } from '../checks/json.js';
import { isSuccess } from '../model/http.js';
import { chatSession, uniqueId, type ChatSession } from './chat.js';
import { untilShown } from './chat-written.js';

/** A conversation with its chat id and three messages: one to quote, one to forward, one to edit and react to. */
export interface SpaceFixture {
  readonly s: ChatSession;
  readonly scopeId: string;
  readonly conversationId: string;
  /** The chat-interface id of the conversation's chat (create chat's `id`). */
  readonly chatId: string;
  readonly client: ParticipantBody;
  readonly quoted: SpaceMessage;
  readonly forwarded: SpaceMessage;
  readonly target: SpaceMessage;
}

/** A message as both sides name it: the integration's msgid and the chat interface's id (new_message.msgid). */
export interface SpaceMessage {
  readonly msgid: string;
  readonly id: string;
}

export async function spaceFixture(t: RuleContext): Promise<SpaceFixture> {
  const s = await chatSession(t);
  const scopeId = await s.scope();
  const conversationId = s.conversationId();
  const client = s.client('Space Client');
  const created = await s.createChat(conversationId, client);
  const chatId = (parseJson(created) as { id?: unknown } | undefined)?.id;
  if (!isSuccess(created.status) || typeof chatId !== 'string') throw new TargetAnswer(STEP_OWNERS.createChat, `creating the chat answered ${created.status} without a string id`);
  const sent = async (): Promise<SpaceMessage> => {
    const m = await s.mustSend(s.payload(conversationId, client));
    if (m.id === '') throw new TargetAnswer(STEP_OWNERS.sendMessage, 'a new message was answered without new_message.msgid');
    return m;
  };
  const fixture = { s, scopeId, conversationId, chatId, client, quoted: await sent(), forwarded: await sent(), target: await sent() };
  // The history route's cases read one page: the messages "appear after processing" (§4.3), so wait until they do.
  await untilShown(s, conversationId);
  return fixture;
}

/** The request as one document: what the valid-space cases walk. */
export interface SpaceRequest {
  readonly params: Record<string, string>;
  readonly query?: Record<string, number>;
  readonly body?: Record<string, unknown>;
}

/** A participant with every optional member of §2.5. */
function fullParticipant(p: ParticipantBody): ParticipantBody {
  return { ...p, avatar: 'https://files.example/avatar.png', profile: { phone: '+10000000002', email: 'space@example.com' }, profile_link: 'https://social.example/space' };
}

/** The richest valid request of the route; message ids and conversations that must be new are new on every call. */
export function spaceRequest(route: SpaceRoute, f: SpaceFixture): SpaceRequest {
  const { s } = f;
  const ms = s.now().getTime();
  switch (route) {
    case 'message': return {
      params: {},
      body: newMessageBody(s.payload(f.conversationId, fullParticipant(f.client), {
        source: { external_id: 'space-source' },
        reply_to: { message: { id: f.quoted.id, msgid: f.quoted.msgid } },
        forwards: { messages: [{ id: f.forwarded.id, msgid: f.forwarded.msgid }], conversation_id: f.conversationId, conversation_ref_id: f.chatId },
      })),
    };
    case 'edit': return {
      params: {},
      body: editMessageBody({
        conversation_id: f.conversationId, id: f.target.id, msgid: f.target.msgid, message: sampleMessage('text', `edited ${uniqueId(s.t, 'text')}`),
        timestamp: Math.floor(ms / 1000), msec_timestamp: ms, silent: false,
      }),
    };
    case 'chats': return { params: {}, body: createChatBody(s.conversationId(), fullParticipant(s.client('Space User')), { source: { external_id: 'space-source' } }) };
    case 'status': return { params: { msgid: f.target.id }, body: { status_code: 1 } };
    case 'typing': return { params: {}, body: { conversation_id: f.conversationId, duration_ms: 3000, sender: { id: f.client.id } } };
    case 'react': return {
      params: {},
      body: { conversation_id: f.conversationId, conversation_ref_id: f.chatId, id: f.target.id, msgid: f.target.msgid, user: { id: f.client.id }, type: 'react', emoji: '👍' },
    };
    case 'history': return { params: { conversation_id: f.conversationId }, query: { offset: 0, limit: 10 } };
  }
}

/** The call a request document makes on its route. */
function callOf(route: SpaceRoute, f: SpaceFixture, r: SpaceRequest): ChatCall {
  const json = r.body === undefined ? {} : { json: r.body };
  switch (route) {
    case 'message': case 'edit': return { method: 'POST', path: chatPaths.message(f.scopeId), ...json };
    case 'chats': return { method: 'POST', path: chatPaths.chats(f.scopeId), ...json };
    case 'status': return { method: 'POST', path: chatPaths.deliveryStatus(f.scopeId, r.params.msgid ?? ''), ...json };
    case 'typing': return { method: 'POST', path: chatPaths.typing(f.scopeId), ...json };
    case 'react': return { method: 'POST', path: chatPaths.react(f.scopeId), ...json };
    case 'history': return { method: 'GET', path: chatPaths.history(f.scopeId, r.params.conversation_id ?? '', r.query ?? {}) };
  }
}

/** Sends the route's richest valid request with the case applied; an unknown id carries the run id, so it names nothing. */
export function sendSpaceCase(route: SpaceRoute, f: SpaceFixture, c: SpaceCase): Promise<HttpResponse> {
  const request = applySpaceCase(spaceRequest(route, f), c, (token) => `${uniqueId(f.s.t, 'unknown')}-${token}`);
  return f.s.send(callOf(route, f, request));
}
