/**
 * Conversations prepared for the edit, quote, comment and conversation_ref_id rules (§2.4, §2.11, §4.3): a client's
 * messages already accepted, a chat in a second account's scope, a write-first chat, and the ground truth the control
 * API gives about them (lead, conversations, per-message state).
 */
import { briefBody } from '../checks/status.js';
import { stringAt } from '../checks/fields.js';
import type { SentAndRead } from '../checks/chat-history.js';
import type { ConversationView, StoredParticipant, StoredQuoteView, StoredSharedPostView } from '../protocol/answers.js';
import type { RuleContext } from '../model/context.js';
import { ControlError, Precondition, TargetAnswer } from '../errors.js';
import { STEP_OWNERS } from './owners.js';
import type { HttpResponse } from '../model/http.js';
import { isSuccess } from '../model/http.js';
import { chatPaths, createChatBody, type MessagePayload, type ParticipantBody } from '../protocol/chat.js';
import { chatSession, type ChatSession } from './chat.js';
import { secondAccountId } from './live-chat.js';
import { POLICY_EFFECT_WINDOW_MS } from '../model/readings.js';

export interface SentMessage {
  readonly msgid: string;
  /** The chat-interface message id (new_message.msgid of the answer). */
  readonly id: string;
}

/** Sends `message` as the client in a fresh conversation and reads the history back once it shows a message. */
export async function sendAndReadBack(s: ChatSession, message: Record<string, unknown>): Promise<SentAndRead> {
  const conv = s.conversationId();
  const payload = s.payload(conv, s.client(), { message });
  const res = await s.sendMessage(payload);
  const items = res.status === 200 ? await s.allHistory(conv, (i) => i.length >= 1) : [];
  return { res, items, msgid: payload.msgid, message };
}

export interface Conversation {
  readonly s: ChatSession;
  readonly conv: string;
  readonly client: ParticipantBody;
  /** The client's messages, in the order sent; each text is `message <n>`. */
  readonly sent: readonly SentMessage[];
  /** The client's chat-interface id (new_message.sender_id of the first answer). */
  readonly clientRef: string;
}

/**
 * A fresh conversation where the client has sent `count` (≥ 1) text messages, all accepted; `over` adds payload fields
 * to the first (a source). TargetAnswer when one is not accepted or the first answer names no sender.
 */
export async function conversationWith(t: RuleContext, count: number, over: Partial<MessagePayload> = {}): Promise<Conversation> {
  const s = await chatSession(t);
  const conv = s.conversationId();
  const client = s.client('Quoted Client');
  const sent: SentMessage[] = [];
  let clientRef = '';
  for (let n = 1; n <= count; n += 1) {
    const payload = s.payload(conv, client, { ...(n === 1 ? over : {}), message: { type: 'text', text: `message ${n}` } });
    const res = await s.sendMessage(payload);
    if (!isSuccess(res.status)) throw new TargetAnswer(STEP_OWNERS.sendMessage, `sending message ${n} of the conversation answered ${res.status}${briefBody(res)}`);
    sent.push({ msgid: payload.msgid, id: stringAt(res, ['new_message', 'msgid']) ?? '' });
    if (n === 1) clientRef = stringAt(res, ['new_message', 'sender_id']) ?? '';
  }
  if (clientRef === '') throw new TargetAnswer(STEP_OWNERS.sendMessage, 'the first message\'s answer named no new_message.sender_id');
  return { s, conv, client, sent, clientRef };
}

/** The unsorted leads of one conversation (control API): how many, and the source of the first. */
export interface LeadView {
  readonly count: number;
  readonly source: string | null | undefined;
}

export async function leadOf(s: ChatSession, conv: string): Promise<LeadView> {
  const q = `?scope_id=${encodeURIComponent(await s.scope())}&conversation_id=${encodeURIComponent(conv)}`;
  const { leads } = await s.t.control.call<{ leads: { source_external_id: string | null }[] }>('GET', `/chat/unsorted${q}`);
  return { count: leads.length, source: leads[0]?.source_external_id };
}

/** The conversations of one chat (control API): the private one and one per commented post. */
export async function conversationsOf(s: ChatSession, conv: string): Promise<readonly ConversationView[]> {
  const q = `?scope_id=${encodeURIComponent(await s.scope())}&conversation_id=${encodeURIComponent(conv)}`;
  return (await s.t.control.call<{ conversations: ConversationView[] }>('GET', `/chat/conversations${q}`)).conversations;
}

/**
 * What the account keeps about one message (control API GET /_control/chat/messages): type, text, sender and times,
 * delivery status, reactions, the shared post with its preview, and the quoted and forwarded messages.
 */
export interface MessageTruth {
  /** The chat-interface message id. */
  readonly id?: string;
  readonly type?: string;
  readonly text: string;
  readonly sender?: StoredParticipant;
  readonly timestamp?: number;
  readonly msec_timestamp?: number;
  /** The commented post, for a comment. */
  readonly post_id?: string;
  readonly delivery_status: { readonly status_code: number; readonly error_code?: number; readonly error?: string } | null;
  readonly reactions: readonly { readonly user_id: string; readonly emoji: string }[];
  readonly shared_post?: StoredSharedPostView;
  readonly reply_to?: { readonly message?: StoredQuoteView } | null;
  readonly forwards?: readonly StoredQuoteView[];
}

/**
 * The ground truth of the message stored under `msgid`, read again until it shows (a message is "accepted for
 * processing": POLICY_EFFECT_WINDOW_MS, docs/verdicts.md); Precondition when the account does not hold it by then.
 */
export async function messageTruth(s: ChatSession, conv: string, msgid: string, scopeId?: string): Promise<MessageTruth> {
  const q = `?scope_id=${encodeURIComponent(scopeId ?? await s.scope())}&conversation_id=${encodeURIComponent(conv)}`;
  const read = async () => {
    try {
      const { messages } = await s.t.control.call<{ messages: (MessageTruth & { msgid: string })[] }>('GET', `/chat/messages${q}`);
      return messages.find((x) => x.msgid === msgid);
    } catch (err) {
      // The chat itself may not be there yet while the message is processed.
      if (err instanceof ControlError && err.status === 404) return undefined;
      throw err;
    }
  };
  const { value } = await s.t.eventually(read, { within: POLICY_EFFECT_WINDOW_MS, until: (m) => m !== undefined });
  if (!value) throw new Precondition(`the control API shows no message ${msgid} in the conversation`);
  return value;
}

/** A chat of the configured channel in a second account's scope: what a foreign conversation_ref_id names. */
export interface ForeignChat {
  readonly scopeId: string;
  readonly conversationId: string;
  /** The chat-interface chat id (create chat's `id`). */
  readonly chatId: string;
}

/**
 * Connects the channel to a second account (the control API names it, else CHAT_ACCOUNT_ID_2) and creates a chat
 * there; TargetAnswer otherwise.
 */
export async function foreignChat(s: ChatSession): Promise<ForeignChat> {
  const other = await secondAccountId(s.t, s.channel.accountId);
  const connected = await s.connect({}, {}, other);
  const scopeId = stringAt(connected, ['scope_id']);
  if (!isSuccess(connected.status) || !scopeId) throw new TargetAnswer(STEP_OWNERS.connect, `connecting the channel to a second account answered ${connected.status}${briefBody(connected)}`);
  const conversationId = s.conversationId();
  const made = await s.send({ method: 'POST', path: chatPaths.chats(scopeId), json: createChatBody(conversationId, s.client('Foreign Client')) });
  const chatId = stringAt(made, ['id']);
  if (!isSuccess(made.status) || !chatId) throw new TargetAnswer(STEP_OWNERS.createChat, `creating a chat in the second account answered ${made.status}${briefBody(made)}`);
  return { scopeId, conversationId, chatId };
}

/** The history of a chat of another scope than the session's (one page). */
export function foreignHistory(s: ChatSession, f: ForeignChat): Promise<HttpResponse> {
  return s.send({ method: 'GET', path: chatPaths.history(f.scopeId, f.conversationId, { offset: 0, limit: 50 }) });
}

/** A message event sent to another scope than the session's (a second account's), signed with the channel's secret. */
export function postToScope(s: ChatSession, scopeId: string, body: unknown): Promise<HttpResponse> {
  return s.send({ method: 'POST', path: chatPaths.message(scopeId), json: body });
}

/** A manager starts a chat from the account (write-first, control API): its chat-interface id, the only id it has yet. */
export async function writeFirst(s: ChatSession, text: string): Promise<string> {
  return (await s.t.control.call<{ chat_id: string }>('POST', '/chat/write-first', { scope_id: await s.scope(), text })).chat_id;
}
