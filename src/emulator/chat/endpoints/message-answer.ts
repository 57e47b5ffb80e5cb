/**
 * The answer to a new or edited message (§4.3 "Response 200"): new_message with the ids of the message stored.
 */
import { randomUUID } from 'node:crypto';
import type { EmulatorContext } from '../../context.js';
import { chatState, type Chat, type ChatState, type StoredMessage } from '../state.js';

export function responseOf(m: StoredMessage, conversationId: string, ctx?: EmulatorContext): { new_message: Record<string, unknown> } {
  const f = ctx?.faults;
  const va = ctx?.variations;
  // Only for the `chat-answer-msgid-not-stored` fault: the answer names an id the message is not stored under.
  const msgid = f?.isOn('chat-answer-msgid-not-stored') ? randomUUID() : f?.isOn('chat-answer-msgid-integration-side') ? m.clientId : m.id;
  const nm: Record<string, unknown> = {
    conversation_id: va?.isOn('chat-answer-conversation-chat-id') ? m.chat.id : conversationId,
    sender_id: m.sender.id, receiver_id: m.receiver?.id ?? null, msgid, ref_id: m.clientId,
  };
  if (!ctx || !f) return { new_message: nm };
  // The faults below answer ids of something other than the message's own chat, sender, receiver and msgid.
  if (f.isOn('chat-answer-conversation-id-last-chat')) nm.conversation_id = lastChatOf(chatState(ctx), m.chat.scopeId)?.conversationId ?? conversationId;
  if (f.isOn('chat-answer-sender-receiver-swapped') && m.receiver) Object.assign(nm, { sender_id: m.receiver.id, receiver_id: m.sender.id });
  if (f.isOn('chat-answer-sender-id-chat-id')) nm.sender_id = m.chat.id;
  if (f.isOn('chat-answer-ref-id-chat-interface-id')) nm.ref_id = m.id;
  if (f.isOn('chat-answer-receiver-id-incoming-bot') && !m.receiver) nm.receiver_id = chatState(ctx).channelOfScope(m.chat.scopeId)?.botId ?? null;
  return { new_message: nm };
}

/** The chat created last under a scope (what the `chat-answer-conversation-id-last-chat` fault answers). */
function lastChatOf(state: ChatState, scopeId: string): Chat | undefined {
  let last: Chat | undefined;
  for (const c of state.chatsById.values()) if (c.scopeId === scopeId) last = c;
  return last;
}
