/**
 * §4.3 forwards.conversation_ref_id names a chat that belongs to the integration (a made-up id, or a chat of a second
 * account, is refused; one of the integration's own chats is accepted), and rule 3: an imported bot message sends no
 * outgoing-message hook. The forward rules quote a message of another conversation of the same client, so that the
 * conversation_ref_id is the only thing that can make the forward refused.
 */
import {
  absentFromHistory, conversationHookCount, type Conversation, conversationWith, chatSession, type ChatSession, defineSpec, equals, type ForeignChat,
  foreignHistory, forwardNaming, type ForwardSource, forwardSource, heldOnce, type HistoryItem, hooksAfterAccountMessage, hooksBeyond, importedBotMessage,
  type ParticipantBody, foreignChat, scenarioRule, status, step, uniqueId, valueIs, refusalPreferred, isSuccess, jsonContentTypeIfRefused,
} from './kit.js';

const SEND = (f: string) => `4.3/Send, edit or import a message/${f}`;

/** A conversation, the message a forward carries, and the msgids of the forwards sent (accepted, then refused). */
interface Forwarding extends Conversation {
  readonly from: ForwardSource;
  accepted: string;
  refused: string;
  /** The answer to the forward that should be refused: when it was accepted (non_strict, C48), the message may be stored. */
  refusedStatus: number;
}

async function forwarding(t: Parameters<typeof conversationWith>[0]): Promise<Forwarding> {
  const c = await conversationWith(t, 1);
  return { ...c, from: await forwardSource(c), accepted: '', refused: '', refusedStatus: 0 };
}

/** The same, and a chat of the configured channel in a second account. */
interface ForwardingForeign extends Forwarding {
  readonly foreign: ForeignChat;
}

/** A conversation of the client on the configured channel, and the hooks the control API counted for it so far. */
interface Import {
  readonly s: ChatSession;
  readonly conv: string;
  readonly client: ParticipantBody;
  readonly msgid: string;
  hooks: number;
}

export default defineSpec({
  section: '4.3',
  title: 'Chat interface: forwarded chats belong to the integration; imported bot messages send no hooks',
  level: 'must',
  rules: [
    scenarioRule<Forwarding>(
      { id: 'chat.forwards.ref-id-unknown', requires: ['write'],
        title: 'A forward whose conversation_ref_id names one of the integration\'s chats is accepted; one naming no chat (a made-up id) is refused with 400 and stored nowhere',
        reading: '§4.3 forwards: optional conversation_ref_id, "the chat must belong to the integration"; a made-up id names no chat at all. The spec\'s code for invalid data is 400; another 4xx, or the forward accepted with nothing foreign in it (the forwarded message is the client\'s own), is non_strict (C48). The accepted forward names the chat-interface id (create chat\'s id) of the conversation the forwarded message comes from.',
        covers: [SEND('forwards')] },
      {
        setup: forwarding,
        steps: [
          step<Forwarding>('naming its own chat', (_t, f) => {
            const p = forwardNaming(f, f.from, f.from.chatId, 'forwarded from my own chat');
            f.accepted = p.msgid;
            return f.s.sendMessage(p);
          }, [status(200)]),
          step<Forwarding>('naming a made-up chat', async (_t, f) => {
            const p = forwardNaming(f, f.from, uniqueId(f.s.t, 'no-such-chat'), 'forwarded from nowhere');
            f.refused = p.msgid;
            const res = await f.s.sendMessage(p);
            f.refusedStatus = res.status;
            return res;
          }, [refusalPreferred('a made-up chat refused'), jsonContentTypeIfRefused]),
          step<Forwarding, HistoryItem[]>('history', (_t, f) => f.s.allHistory(f.conv, (items) => items.length >= 2), (_t, f) => [
            heldOnce(f.accepted), ...(isSuccess(f.refusedStatus) ? [] : [absentFromHistory(f.refused)]),
          ]),
        ],
      },
    ),
    scenarioRule<ForwardingForeign>(
      { id: 'chat.forwards.ref-id-other-account', requires: ['write'], needs: ['second-account'],
        title: 'A forward whose conversation_ref_id is a chat of a second account is refused with 400; neither conversation changes',
        reading: '§4.3 forwards: conversation_ref_id names a chat that "must belong to the integration"; a chat of another account\'s connection is not one a message sent under this scope_id may name (§2.4: a scope is one account\'s connection). 400 is the spec\'s code for invalid data; another 4xx, or the forward accepted with nothing foreign in it (the forwarded message is the client\'s own), is non_strict (C48), and the second account\'s chat must stay without messages. A forward naming the client\'s own chat is accepted first. The second account comes from the control API, else CHAT_ACCOUNT_ID_2.',
        covers: [SEND('forwards'), '2.4/scope_id'] },
      {
        setup: async (t) => {
          const f = await forwarding(t);
          return { ...f, foreign: await foreignChat(f.s) };
        },
        steps: [
          step<ForwardingForeign>('naming its own chat', (_t, f) => f.s.sendMessage(forwardNaming(f, f.from, f.from.chatId, 'forwarded from my own chat')), [status(200)]),
          step<ForwardingForeign>('naming the second account\'s chat', async (_t, f) => {
            const p = forwardNaming(f, f.from, f.foreign.chatId, 'forwarded from another account');
            f.refused = p.msgid;
            const res = await f.s.sendMessage(p);
            f.refusedStatus = res.status;
            return res;
          }, [refusalPreferred('another account\'s chat refused'), jsonContentTypeIfRefused]),
          step<ForwardingForeign, HistoryItem[]>('history', (_t, f) => f.s.allHistory(f.conv), (_t, f) => (isSuccess(f.refusedStatus) ? [] : [absentFromHistory(f.refused)])),
          step('the second account\'s chat', (_t, f) => foreignHistory(f.s, f.foreign), [status(204)]),
        ],
      },
    ),
    scenarioRule<Import>(
      { id: 'chat.import.bot-no-hooks', requires: ['write', 'control'], needs: ['counters'],
        title: 'An imported bot message (silent, sender.ref_id the bot id, receiver the client) is stored and sends no outgoing-message hook',
        reading: '§4.3 rule 3: "Hooks are not sent for imported bot messages"; rule 2: an import is sent with silent true. The hooks are counted per conversation through the control API (GET /_control/chat/hooks), as chat.connection.hooks-stop counts them: a manager\'s message from the account first shows that a hook of the conversation is counted; then none may follow the import within the hook window.',
        covers: [SEND('silent'), SEND('sender'), SEND('receiver')] },
      {
        setup: async (t) => {
          const s = await chatSession(t);
          const conv = s.conversationId();
          const client = s.client();
          await s.mustSend(s.payload(conv, client));
          return { s, conv, client, msgid: s.msgid(), hooks: 0 };
        },
        steps: [
          step<Import, number>('', async (_t, i) => {
            const sent = await hooksAfterAccountMessage(i.s, i.conv);
            i.hooks = await conversationHookCount(i.s, i.conv);
            return sent;
          }, [valueIs(equals(1), 'hook for a message from the account', 'the hooks for a manager\'s message')]),
          step<Import>('the imported bot message', (_t, i) => i.s.sendMessage({ ...importedBotMessage(i.s, i.conv, i.client, 'imported from the bot'), msgid: i.msgid }), [status(200)]),
          step<Import, HistoryItem[]>('history', (_t, i) => i.s.allHistory(i.conv, (items) => items.some((x) => x.message?.client_id === i.msgid)), (_t, i) => [heldOnce(i.msgid)]),
          step<Import, number>('', (_t, i) => hooksBeyond(i.s, i.conv, i.hooks), [valueIs(equals(0), 'no hook for the imported bot message', 'the hooks after the import')]),
        ],
      },
    ),
  ],
});
