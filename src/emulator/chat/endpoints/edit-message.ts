/**
 * An edit applied (§4.3 rule 4, §2.7): the message named by msgid or id changed in place, the fields ignored on edit left alone.
 */
import { randomUUID } from 'node:crypto';
import type { EmulatorContext } from '../../context.js';
import { notFound } from '../errors.js';
import { overlapped } from '../overlap.js';
import { insertInOrder, type Chat, type ChatState, type Connection, type Person, type StoredMessage } from '../state.js';
import { isObj, type Obj } from '../validate.js';
import { responseOf } from './message-answer.js';
import type { MessageEvent } from './message-event.js';
import { lagEdit } from '../history-lag.js';

export async function editMessage(ctx: EmulatorContext, state: ChatState, conn: Connection, v: MessageEvent): Promise<{ new_message: Record<string, unknown> }> {
  const f = ctx.faults;
  const chat = state.chatOf(conn, v.conversationId);
  const key = v.id ?? v.msgid!;
  const inScope = state.messageNamed(conn, key, v.id !== undefined ? 'chat' : 'integration');
  // The two isolation faults: any id looked up in every scope, or the chat-interface id taken as unique across scopes.
  const m = inScope ?? (f.isOn('chat-edit-any-scope') ? [...state.connections.values()].map((other) => state.message(other, key)).find((x) => x !== undefined) : undefined)
    ?? (v.id !== undefined && f.isOn('chat-edit-by-id-any-scope') ? state.messageInAnyScope(v.id)?.m : undefined);
  if (!m && chat && v.msgid !== undefined && f.isOn('chat-edit-unknown-creates')) return createdByEdit(state, conn, chat, v);
  const chatMatters = !f.isOn('chat-edit-ignores-conversation') && !((f.isOn('chat-edit-any-scope') || f.isOn('chat-edit-by-id-any-scope')) && !inScope);
  if (!chat && f.isOn('chat-crash-on-edit-unknown-conversation')) throw new Error('simulated crash: the edited message\'s chat is not there');
  if (!m && f.isOn('chat-crash-on-edit-unknown-message')) throw new Error('simulated crash: the edited message is not there');
  if (!chat || !m || (m.chat !== chat && chatMatters)) throw notFound('MESSAGE_NOT_FOUND', 'message does not exist');
  const old = m.content;
  if (f.isOn('chat-crash-on-repeated-edit') && old.type === v.message.type && old.text === v.message.text) throw new Error('simulated crash: an edit with nothing to change');
  // File fields may be left out when the file is unchanged (§2.7, §4.3 rule 4).
  const keep = !f.isOn('chat-edit-file-fields-cleared');
  const content = keep
    ? { ...v.message, ...(v.message.media === undefined && old.media !== undefined && { media: old.media }), ...(v.message.fileName === undefined && old.fileName !== undefined && { fileName: old.fileName }), ...(v.message.fileSize === undefined && old.fileSize !== undefined && { fileSize: old.fileSize }) }
    : v.message;
  const quotes = isObj(v.p.reply_to) || isObj(v.p.forwards);
  // The race fault: an edit that overlapped another of the same message no longer found it in place and inserted it.
  const raced = f.isOn('chat-edit-race') && await overlapped(ctx, `edit ${m.id}`);
  if (raced || f.isOn('chat-edit-appends') || (quotes && f.isOn('chat-edit-quote-appends'))) {
    const copy: StoredMessage = { ...m, id: randomUUID(), seq: state.nextSeq(), content, reactions: new Map() };
    insertInOrder(m.chat.messages, copy);
    state.indexMessage(conn, copy);
    return responseOf(copy, v.conversationId, ctx);
  }
  // The ignored-edit fault keeps the edit as a revision nothing reads.
  if (!f.isOn('chat-edit-ignored')) {
    if (ctx.variations.isOn('chat-history-lags')) lagEdit(m, old);
    m.content = content;
  }
  if (v.id !== undefined && v.msgid === undefined && f.isOn('chat-edit-by-id-clears-msgid')) m.clientId = '';
  if (f.isOn('chat-edit-takes-source')) takeSource(state, conn, m.chat, v.p);
  if (f.isOn('chat-edit-takes-sender') && isObj(v.p.sender)) (m as { sender: Person }).sender = editedPerson(v.p.sender);
  if (f.isOn('chat-edit-takes-receiver') && isObj(v.p.receiver)) (m as { receiver?: Person }).receiver = editedPerson(v.p.receiver);
  if (v.id !== undefined && v.msgid !== undefined && v.msgid !== m.clientId && !f.isOn('chat-edit-msgid-not-rebound')) {
    m.clientId = v.msgid;
    state.indexMessage(conn, m);
  }
  return responseOf(m, v.conversationId, ctx);
}

/** What the `chat-edit-unknown-creates` fault does with an edit of an unknown msgid: stores it as a new incoming message. */
function createdByEdit(state: ChatState, conn: Connection, chat: Chat, v: MessageEvent): { new_message: Record<string, unknown> } {
  const m: StoredMessage = {
    id: randomUUID(), clientId: v.msgid!, chat, seq: state.nextSeq(), timestamp: v.timestamp, msecTimestamp: v.msecTimestamp,
    sender: chat.user, content: v.message, reactions: new Map(),
  };
  state.indexMessage(conn, m);
  insertInOrder(chat.messages, m);
  return responseOf(m, v.conversationId);
}

/** What the `chat-edit-takes-source` fault does with an edit's source: moves the chat and its lead to it. */
function takeSource(state: ChatState, conn: Connection, chat: Chat, p: Obj): void {
  if (!isObj(p.source) || p.source.external_id === undefined) return;
  const ext = String(p.source.external_id);
  chat.sourceExternalId = ext;
  const i = state.leads.findIndex((l) => l.chat_id === chat.id);
  if (i >= 0) state.leads[i] = { ...state.leads[i]!, source_external_id: ext, pipeline_id: state.pipelineFor(conn, ext) };
}

/** A participant taken from an edit's payload, as the two edit faults wrongly store it. */
function editedPerson(p: Obj): Person {
  return { id: randomUUID(), clientId: String(p.id), name: String(p.name), avatar: '' };
}
