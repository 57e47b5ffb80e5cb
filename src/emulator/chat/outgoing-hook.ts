/**
 * The body of the outgoing-message hook a manager's message from the account sends through a connected channel
 * (§6). The spec says "Payload of outgoing-message hooks (v1, v2): not shown": the two shapes here are the emulator's
 * choice, modelled on the service's public chat documentation (docs/control-api.md, "Outgoing-message hooks") so that
 * a receiver written against the emulator meets familiar fields. v1 is flat and names the chat and the client by the
 * integration's ids; v2 nests the message with both sides' ids, the account and the time the hook was made.
 */
import type { Chat, Connection, HookRecord } from './state.js';
import type { VariationSwitches } from '../variations.js';

export type HookApiVersion = 'v1' | 'v2';

export interface OutgoingMessage {
  readonly conn: Connection;
  readonly chat: Chat;
  /** The chat-interface id of the message. */
  readonly msgid: string;
  /** The account user who wrote it. */
  readonly managerId: string;
  readonly text: string;
  readonly nowMs: number;
}

/** The hooks log's record of one hook sent with `version`, its body in the shape of `shape` (a fault may differ). */
export function hookRecord(version: HookApiVersion, m: OutgoingMessage, shape: HookApiVersion = version): HookRecord {
  return {
    channel_id: m.conn.channel.id, scope_id: m.conn.scopeId, hook_api_version: version, conversation_id: m.chat.conversationId,
    msgid: m.msgid, text: m.text, sent_at: Math.floor(m.nowMs / 1000), payload: outgoingHookPayload(shape, m),
  };
}

/** What the hook of `version` carries for one manager message: a JSON object, as sent. */
export function outgoingHookPayload(version: HookApiVersion, m: OutgoingMessage): Record<string, unknown> {
  return version === 'v1' ? v1(m) : v2(m);
}

function v1(m: OutgoingMessage): Record<string, unknown> {
  return {
    receiver: m.chat.user.clientId ?? m.chat.user.id,
    conversation_id: m.chat.conversationId,
    msec_timestamp: m.nowMs,
    type: 'text',
    text: m.text,
    media: '',
    thumbnail: '',
    file_name: '',
    file_size: 0,
  };
}

function v2(m: OutgoingMessage): Record<string, unknown> {
  const { chat } = m;
  const seconds = Math.floor(m.nowMs / 1000);
  return {
    account_id: m.conn.account.amojoId,
    time: seconds,
    message: {
      receiver: { id: chat.user.id, phone: chat.user.phone ?? '', email: chat.user.email ?? '', ...(chat.user.clientId !== undefined && { client_id: chat.user.clientId }) },
      sender: { id: m.managerId },
      // A write-first chat has no integration-side id until a client's reply links one.
      conversation: { id: chat.id, ...(chat.conversationId !== '' && { client_id: chat.conversationId }) },
      ...(chat.sourceExternalId !== undefined && { source: { external_id: chat.sourceExternalId } }),
      timestamp: seconds,
      msec_timestamp: m.nowMs,
      message: { id: m.msgid, type: 'text', text: m.text, markup: null, tag: '', media: '', thumbnail: '', file_name: '', file_size: 0 },
    },
  };
}

/**
 * Sends (logs) a hook. Under `chat-hooks-retried` it goes twice, as a sender that retries a delivery it could not
 * confirm: "outgoing-message hooks arrive" (§3.2) says nothing of how often.
 */
export function sendHook(hooks: HookRecord[], record: HookRecord, variations: VariationSwitches): void {
  hooks.push(record);
  if (variations.isOn('chat-hooks-retried')) hooks.push({ ...record });
}
