/**
 * §4.3 payload conversation_ref_id: the chat-interface id of a chat of this integration's connection (the write-first
 * case). One naming a chat of a second account's scope, or no chat at all, must not link the message anywhere.
 */
import {
  clientError, type Conversation, conversationWith, defineSpec, type ForeignChat, foreignChat, foreignHistory, scenarioRule, status, step, uniqueId,
} from './kit.js';

interface WithForeign extends Conversation {
  readonly foreign: ForeignChat;
}

const naming = (c: WithForeign, ref: string, text: string) =>
  c.s.sendMessage(c.s.payload(c.conv, c.client, { conversation_ref_id: ref, message: { type: 'text', text } }));

export default defineSpec({
  section: '4.3',
  title: 'Chat interface: conversation_ref_id of another scope',
  level: 'should',
  rules: [
    scenarioRule<WithForeign>(
      { id: 'chat.message.conversation-ref-id-foreign', requires: ['write', 'control'],
        title: 'A message whose conversation_ref_id is the chat id of a second account\'s scope, or names no chat, is refused (4xx); the foreign chat stays without messages',
        reading: '§4.3: conversation_ref_id is the chat-interface id of a chat the client replies in (write-first, same integration and connection); a chat of another account\'s scope is not one the message may link to. Any 4xx passes. The second account comes from the control API.',
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
