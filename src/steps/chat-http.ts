/**
 * Round trips of the chat interface (§4.3) for the UTF-8 rules: a value sent in one request and read back from
 * another (the history, the create-chat answer), each in a conversation of its own. What came back is returned as
 * observed; the rule's checks judge it.
 */
import { sampleMessage } from '../protocol/chat.js';
import type { NameRoundTrip, RoundTrip } from '../checks/chat-http.js';
import type { HistoryItem } from '../protocol/answers.js';
import type { ChatSession } from './chat.js';

/** The history item of the message sent with `msgid`, once the history holds it (or after the window, none). */
async function itemOf(s: ChatSession, conversationId: string, msgid: string): Promise<HistoryItem | undefined> {
  const mine = (items: HistoryItem[]) => items.find((i) => i.message?.client_id === msgid);
  return mine(await s.allHistory(conversationId, (items) => mine(items) !== undefined));
}

/** A message of `text`, and its text as the history gives it back. */
export async function textRoundTrip(s: ChatSession, text: string): Promise<RoundTrip> {
  const conv = s.conversationId();
  const payload = s.payload(conv, s.client(), { message: sampleMessage('text', text) });
  const sent = await s.sendMessage(payload);
  const item = sent.status === 200 ? await itemOf(s, conv, payload.msgid) : undefined;
  return { sent, readBack: item?.message?.text };
}

/** A chat created for a user named `name`, a message from that user, and the sender's name as the history gives it. */
export async function nameRoundTrip(s: ChatSession, name: string): Promise<NameRoundTrip> {
  const conv = s.conversationId();
  const client = s.client(name);
  const created = await s.createChat(conv, client);
  const payload = s.payload(conv, client);
  const sent = await s.sendMessage(payload);
  const item = sent.status === 200 ? await itemOf(s, conv, payload.msgid) : undefined;
  return { created, sent, readBack: item?.sender?.name };
}
