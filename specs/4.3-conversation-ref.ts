/**
 * §4.3 payload conversation_ref_id: the chat-interface id of a chat of this integration's connection (the write-first
 * case). One naming a chat of a second account's scope, or no chat at all, must not link the message anywhere.
 */
import {
  chatSession, type ChatSession, clientError, type Conversation, conversationWith, defineSpec, type ForeignChat, foreignHistory, heldOnce,
  holdsMessages, foreignChat, scenarioRule, status, step, textIs, uniqueId, writeFirst, keptAsNotes,
} from './kit.js';

interface WithForeign extends Conversation {
  readonly foreign: ForeignChat;
}

const naming = (c: WithForeign, ref: string, text: string) =>
  c.s.sendMessage(c.s.payload(c.conv, c.client, { conversation_ref_id: ref, message: { type: 'text', text } }));

/** A chat the account started (write-first) and the client who replies to it under a conversation_id of its own. */
interface WriteFirst {
  readonly s: ChatSession;
  readonly chatId: string;
  readonly conv: string;
  readonly reply: string;
}

export default defineSpec({
  section: '4.3',
  title: 'Chat interface: conversation_ref_id',
  level: 'should',
  rules: [
    scenarioRule<WriteFirst>(
      { id: 'chat.message.conversation-ref-id-write-first', level: 'must', requires: ['write', 'control'],
        title: 'A client\'s reply naming a write-first chat by conversation_ref_id continues that chat: its history holds the account\'s message and the reply',
        reading: '§4.3: conversation_ref_id "must be sent when a client replies to a message sent through the write-first option, so the two chats are linked". The write-first chat is started through the control API (POST /_control/chat/write-first); the reply carries a new conversation_id, under which the history then shows both messages. The reply\'s 200 is judged; whether the chats are linked is recorded (C46: only the account shows it).',
        covers: ['4.3/Send, edit or import a message/conversation_ref_id', '4.3/Send, edit or import a message/conversation_id'] },
      {
        setup: async (t) => {
          const s = await chatSession(t);
          return { s, chatId: await writeFirst(s, 'written first by the account'), conv: s.conversationId(), reply: s.msgid() };
        },
        steps: [
          step('the client\'s reply', (_t, w) => w.s.sendMessage({ ...w.s.payload(w.conv, w.s.client('Replying Client'), { conversation_ref_id: w.chatId, message: { type: 'text', text: 'the client replies' } }), msgid: w.reply }), [status(200)]),
          step('history under the reply\'s conversation_id', (_t, w) => w.s.allHistory(w.conv, (items) => items.length >= 2), (_t, w) => keptAsNotes([
            holdsMessages(2), heldOnce(w.reply), textIs(w.reply, 'the client replies'),
          ])),
        ],
      },
    ),
    scenarioRule<WithForeign>(
      { id: 'chat.message.conversation-ref-id-foreign', requires: ['write'], needs: ['second-account'],
        title: 'A message whose conversation_ref_id is the chat id of a second account\'s scope, or names no chat, is refused (4xx); the foreign chat stays without messages',
        reading: '§4.3: conversation_ref_id is the chat-interface id of a chat the client replies in (write-first, same integration and connection); a chat of another account\'s scope is not one the message may link to. Any 4xx passes. The second account comes from the control API, else CHAT_ACCOUNT_ID_2.',
        covers: ['4.3/Send, edit or import a message/conversation_ref_id'] },
      {
        setup: async (t) => {
          const c = await conversationWith(t, 1);
          return { ...c, foreign: await foreignChat(c.s) };
        },
        steps: [
          step('naming the second account\'s chat', (_t, c) => naming(c, c.foreign.chatId, 'linked to a foreign chat?'), [clientError()]),
          step('the foreign chat\'s history', (_t, c) => foreignHistory(c.s, c.foreign), [status(204)]),
          step('naming no chat', (_t, c) => naming(c, uniqueId(c.s.t, 'no-such-chat'), 'linked to nothing?'), [clientError()]),
        ],
      },
    ),
  ],
});
