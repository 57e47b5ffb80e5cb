/**
 * A new message stored (§4.3 rules 1–3): its quotes and forwards resolved, the chat it belongs to found or made, the
 * reply time window checked, and for an incoming one the account's notification and unsorted lead.
 */
import { randomUUID } from 'node:crypto';
import type { EmulatorContext } from '../../context.js';
import { raceWindow } from '../../race-window.js';
import { invalidRequest } from '../errors.js';
import { hookRecord } from '../outgoing-hook.js';
import { insertInOrder, type Chat, type ChatState, type Connection, type Person, type StoredMessage } from '../state.js';
import { storedQuote, storedSharedPost } from '../stored.js';
import { checkReplyWindow, clientWrote } from '../time-window.js';
import type { EmbeddedIn } from '../validate.js';
import { phoneShown } from '../views.js';
import { responseOf } from './message-answer.js';
import type { MessageEvent } from './message-event.js';
import { lagNew } from '../history-lag.js';

export async function newMessage(ctx: EmulatorContext, state: ChatState, conn: Connection, v: MessageEvent): Promise<{ new_message: Record<string, unknown> }> {
  const f = ctx.faults;
  const outgoing = v.receiver !== undefined;
  const client = state.client(conn, (outgoing ? v.receiver : v.sender)!);
  let chat = state.chatOf(conn, v.conversationId)
    // The comment isolation fault: a comment's conversation the scope does not hold is looked up in every scope.
    ?? (v.message.postId !== undefined && f.isOn('chat-comment-any-scope') ? [...state.connections.values()].map((o) => state.chatOf(o, v.conversationId)).find((c) => c !== undefined) : undefined);
  // Existence of quoted and forwarded messages (§4.3 reply_to: the same chat; forwards: any chat of the integration).
  const resolve = (e: EmbeddedIn) => (e.id !== undefined ? state.messageNamed(conn, e.id, 'chat') : e.msgid !== undefined ? state.messageNamed(conn, e.msgid, 'integration') : undefined)
    // The isolation fault: a forwarded message's chat-interface id is taken as unique and looked up in every scope.
    ?? (e.id !== undefined && f.isOn('chat-forwards-any-scope') ? state.messageInAnyScope(e.id)?.m : undefined)
    // The source-chat faults: a forwarded msgid is looked up in the chat the forward names as its source, in any scope.
    ?? (e.msgid !== undefined && v.forwards.includes(e) ? forwardSourceAcross(ctx, state, v)?.messages.find((m) => m.clientId === e.msgid) : undefined);
  let replyAcross: StoredMessage | undefined;
  if (v.replyTo && (v.replyTo.id !== undefined || v.replyTo.msgid !== undefined)) {
    if (v.replyTo.msgid === undefined && f.isOn('chat-crash-on-reply-by-id-only')) throw new Error('simulated crash: the quote is looked up by an undefined msgid');
    const found = resolve(v.replyTo);
    if (!found && v.replyTo.msgid !== undefined && f.isOn('chat-crash-on-unknown-reply-msgid')) throw new Error('simulated crash: the quoted message is not there');
    // The two lookup faults search a quote named by one id only among the other side's ids, where it is not found.
    const quoted = found && ((v.replyTo.msgid === undefined && f.isOn('chat-reply-by-id-unresolved') && found.clientId !== v.replyTo.id)
      || (v.replyTo.id === undefined && f.isOn('chat-reply-by-msgid-unresolved') && found.id !== v.replyTo.msgid)) ? undefined : found;
    // The isolation fault: a quote named by a chat-interface id its scope does not hold is looked up in every scope and taken.
    if (!found && v.replyTo.id !== undefined && f.isOn('chat-reply-to-any-scope')) replyAcross = state.messageInAnyScope(v.replyTo.id)?.m;
    if (!replyAcross && (!quoted || (!ctx.variations.isOn('chat-reply-to-any-chat') && quoted.chat !== chat))) {
      throw invalidRequest([{ field: 'payload.reply_to.message', message: 'must be a message of the same chat' }]);
    }
  }
  for (const [i, e] of v.forwards.entries()) {
    if (e.id === undefined && e.msgid === undefined && f.isOn('chat-forwards-foreign-refused')) throw invalidRequest([{ field: `payload.forwards.messages.${i}`, message: 'names no message of this account' }]);
    if ((e.id !== undefined || e.msgid !== undefined) && !resolve(e) && f.isOn('chat-crash-on-unknown-forward-msgid')) throw new Error('simulated crash: the forwarded message is not there');
    if ((e.id !== undefined || e.msgid !== undefined) && !resolve(e)) throw invalidRequest([{ field: `payload.forwards.messages.${i}`, message: 'is not a message of this integration' }]);
  }
  // The fault: a forward's source conversation_id must be a chat of the scope (any external chat is allowed, §4.3).
  if (v.forwardsConversationId !== undefined && !state.chatOf(conn, v.forwardsConversationId) && f.isOn('chat-forwards-unknown-conversation-refused')) {
    throw invalidRequest([{ field: 'payload.forwards.conversation_id', message: 'is not a chat of this channel connection' }]);
  }
  if (v.forwardsRefId !== undefined && !state.chatByEitherId(conn, v.forwardsRefId) && f.isOn('chat-crash-on-forwards-unknown-ref-id')) throw new Error('simulated crash: the forwards\' source chat is not there');
  if (v.forwardsRefId !== undefined && !forwardedChatKnown(ctx, state, conn, v.forwardsRefId)) {
    throw invalidRequest([{ field: 'payload.forwards.conversation_ref_id', message: 'is not a chat of this integration' }]);
  }
  // §4.3: conversation_ref_id names a chat of this connection (write-first); one of another scope or none is refused.
  const ref = typeof v.p.conversation_ref_id === 'string' ? v.p.conversation_ref_id : undefined;
  const referred = ref !== undefined ? state.chatByEitherId(conn, ref) : undefined;
  if (ref !== undefined && !referred && !f.isOn('chat-conversation-ref-id-unchecked')) {
    throw invalidRequest([{ field: 'payload.conversation_ref_id', message: 'is not a chat of this channel connection' }]);
  }
  // The client's reply to a write-first chat links it: the conversation continues in the chat the account started.
  if (!chat && referred && referred.conversationId === '' && f.isOn('chat-write-first-reply-refused')) {
    throw invalidRequest([{ field: 'payload.conversation_ref_id', message: 'names a chat without conversation_id' }]);
  }
  if (!chat && referred && referred.conversationId === '' && !ctx.variations.isOn('chat-write-first-not-linked')) {
    state.linkConversation(conn, v.conversationId, referred);
    chat = referred;
  }
  chat ??= state.newChat(conn, v.conversationId, client, v.externalId);
  const existing = state.message(conn, v.msgid!);
  if (existing && existing.chat === chat && existing.postId === v.message.postId) return responseOf(existing, v.conversationId, ctx);
  if (outgoing) checkReplyWindow(ctx, conn, chat);
  // The race fault: the msgid was looked up before the yield and is not looked up again before the insert.
  if (!existing && f.isOn('chat-msgid-race')) await raceWindow(ctx).hold(`msgid ${chat.id} ${v.msgid!}`);

  const sender: Person = outgoing ? accountSide(conn, v.sender!) : client;
  const { sharedPost, deliveryStatus: given } = v.message;
  const status = given ?? (f.isOn('chat-status-default-delivered') ? { code: 1 } : undefined);
  const m: StoredMessage = {
    id: randomUUID(), clientId: v.msgid!, chat, seq: state.nextSeq(), timestamp: v.timestamp, msecTimestamp: v.msecTimestamp, receivedMs: ctx.clock.nowMs(),
    sender, ...(outgoing && { receiver: client }), content: v.message, reactions: new Map(),
    ...(v.message.postId !== undefined && !f.isOn('chat-comments-merged') && !(outgoing && f.isOn('chat-comment-reply-to-private')) && { postId: outgoing && f.isOn('chat-comment-reply-own-conversation') ? `${v.message.postId}#reply` : v.message.postId }),
    ...(status && { status }),
    ...(sharedPost && { sharedPost: storedSharedPost(sharedPost, ctx.baseUrl(), f, ctx.variations) }),
    ...(v.replyTo && { replyTo: storedQuote(v.replyTo, resolve(v.replyTo) ?? replyAcross, f) }),
    ...(v.forwards.length > 0 && { forwards: v.forwards.map((e) => storedQuote(e, resolve(e), f)) }),
  };
  state.indexMessage(conn, m);
  if (ctx.variations.isOn('chat-history-lags')) lagNew(m);
  if (m.postId !== undefined) {
    const list = chat.comments.get(m.postId) ?? [];
    list.push(m);
    chat.comments.set(m.postId, list);
  } else if (f.isOn('chat-message-lost-under-concurrency')) {
    const snapshot = chat.messages;
    await raceWindow(ctx).hold(`messages ${chat.id}`);
    const next = [...snapshot];
    insertInOrder(next, m);
    chat.messages = next;
  } else insertInOrder(chat.messages, m);

  if (!outgoing) clientWrote(ctx, chat);
  // §4.3 rule 3: an imported bot message is the integration's own; no outgoing-message hook echoes it back.
  if (outgoing && v.silent && sender.id === conn.channel.botId && f.isOn('chat-imported-bot-hook')) {
    state.hooks.push(hookRecord(conn.hookApiVersion, { conn, chat, msgid: m.id, managerId: sender.id, text: m.content.text ?? '', nowMs: ctx.clock.nowMs() }));
  }
  if (!outgoing && (!v.silent || f.isOn('chat-silent-ignored'))) recordIncoming(ctx, state, conn, chat, m, v.externalId);
  else if (!outgoing && f.isOn('chat-silent-still-creates-lead')) {
    const kept = state.notifications.length;
    recordIncoming(ctx, state, conn, chat, m, v.externalId);
    state.notifications.length = kept;
  }
  return responseOf(m, v.conversationId, ctx);
}

/**
 * §4.3 forwards: conversation_ref_id names a chat that belongs to the integration, here one of this channel
 * connection (a chat of another account's connection is not; the scope is what a request reaches, §2.4).
 */
function forwardedChatKnown(ctx: EmulatorContext, state: ChatState, conn: Connection, refId: string): boolean {
  if (ctx.faults.isOn('chat-forwards-ref-id-unchecked') || ctx.variations.isOn('chat-forwards-ref-id-unchecked')) return true;
  if (state.chatByEitherId(conn, refId)) return true;
  if (ctx.faults.isOn('chat-forwards-ref-id-source-any-scope') && state.chatsById.has(refId)) return true;
  return ctx.faults.isOn('chat-forwards-ref-id-any-account') && [...state.connections.values()].some((other) => state.chatByEitherId(other, refId) !== undefined);
}

/**
 * Only for the two source-chat faults: the chat a forward names as its source (forwards.conversation_id, or
 * forwards.conversation_ref_id), looked up in every scope rather than in the scope the message is sent to.
 */
function forwardSourceAcross(ctx: EmulatorContext, state: ChatState, v: MessageEvent): Chat | undefined {
  const f = ctx.faults;
  const byConversation = typeof v.forwardsConversationId === 'string' && f.isOn('chat-forwards-source-any-scope')
    ? [...state.connections.values()].map((o) => state.chatOf(o, v.forwardsConversationId!)).find((c) => c !== undefined) : undefined;
  return byConversation ?? (v.forwardsRefId !== undefined && f.isOn('chat-forwards-ref-id-source-any-scope') ? state.chatsById.get(v.forwardsRefId) : undefined);
}

/** A non-silent incoming message notifies the account, and the first one of a chat creates its unsorted lead. */
function recordIncoming(ctx: EmulatorContext, state: ChatState, conn: Connection, chat: Chat, m: StoredMessage, externalId: string | undefined): void {
  // The late-effects variation records both 10 s after the answer (they are decided now, as the message is).
  const later = (record: () => void) => (ctx.variations.isOn('chat-effects-late') ? void setTimeout(record, LATE_EFFECT_MS).unref() : record());
  const now = ctx.clock.nowSeconds();
  const first = chat.leadId === undefined;
  if (first || !ctx.faults.isOn('chat-notification-first-only')) {
    // Two notifications (the new chat, and its message) only for a chat's very first message, not after a silent import.
    const times = first && chat.messages.length <= 1 && ctx.variations.isOn('chat-first-message-notifies-twice') ? 2 : 1;
    later(() => {
      for (let i = 0; i < times; i += 1) state.notifications.push({ id: state.notifications.length + 1, scope_id: conn.scopeId, chat_id: chat.id, conversation_id: chat.conversationId, msgid: m.clientId, text: m.content.text, created_at: now });
    });
  }
  if (!first && !ctx.faults.isOn('chat-lead-per-message')) return;
  const ext = externalId ?? chat.sourceExternalId;
  const leadId = (chat.leadId = state.nextLeadId());
  const u = chat.user;
  const pipelineId = state.pipelineFor(conn, ext);
  later(() => state.leads.push({
    id: leadId, scope_id: conn.scopeId, account_id: conn.account.amojoId, chat_id: chat.id, conversation_id: chat.conversationId,
    pipeline_id: pipelineId, source_external_id: ext ?? null,
    contact: { name: u.name, ...(!ctx.faults.isOn('chat-profile-not-in-contact') && { ...(u.phone !== undefined && { phone: phoneShown(u.phone, ctx.variations) }), ...(u.email !== undefined && !ctx.faults.isOn('chat-profile-email-not-in-contact') && { email: u.email }) }) }, created_at: now,
  }));
}

/** How late the `chat-effects-late` variation records a lead or a notification: inside the 15 s effect window. */
const LATE_EFFECT_MS = 10_000;

/** The sender of an outgoing message: an account user (ref_id = user id) or the bot (ref_id = bot id); no client id. */
function accountSide(conn: Connection, p: NonNullable<MessageEvent['sender']>): Person {
  return { id: p.refId === conn.channel.botId ? conn.channel.botId : p.refId!, name: p.name, avatar: p.avatar ?? '' };
}
