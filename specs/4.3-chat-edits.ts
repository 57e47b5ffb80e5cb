/**
 * §4.3 "Send, edit or import a message", edits and identity: sender and receiver are ignored on edit (the history keeps
 * the original participants), and a msgid sent together with id on edit becomes the message's integration-side id.
 */
import {
  absentFromHistory, chatSession, type ChatSession, defineSpec, editMessageBody, heldOnce, type HistoryItem, type ParticipantBody, scenarioRule, exchangeRule, senderIs, status, step, textIs, withoutReceiver, observedTextChange, editCarrying, ignoredOnEdit,
} from './kit.js';

const SEND = (f: string) => `4.3/Send, edit or import a message/${f}`;

/** A conversation holding one incoming message of a client, the message to edit. */
interface Sent {
  readonly s: ChatSession;
  readonly conv: string;
  readonly client: ParticipantBody;
  readonly msgid: string;
  readonly id: string;
  /** The msgid the message is rebound to by an edit. */
  readonly next: string;
}

async function sentMessage(t: Parameters<typeof chatSession>[0]): Promise<Sent> {
  const s = await chatSession(t);
  const conv = s.conversationId();
  const client = s.client('Original Client');
  const sent = await s.mustSend(s.payload(conv, client));
  return { s, conv, client, ...sent, next: s.msgid() };
}

/** The history of the conversation, read until the message stored under `clientId` shows `text`. */
const historyShowing = (clientId: string, text: string) => (_t: unknown, f: Sent): Promise<HistoryItem[]> =>
  f.s.allHistory(f.conv, (items) => items.some((i) => i.message?.client_id === clientId && i.message.text === text));

export default defineSpec({
  section: '4.3',
  title: 'Chat interface: edits and message identity',
  level: 'must',
  rules: [
    scenarioRule<Sent>(
      { id: 'chat.edit.sender-ignored', requires: ['write'],
        title: 'An edit carrying another sender changes the text only: the history keeps the original sender',
        reading: '§4.3 payload table: sender is ignored on edit. The edit is accepted (200; refused with 400 is non_strict, C43, and the edit is then sent without the sender) and the history element keeps the client that sent the message.',
        covers: [SEND('sender')] },
      {
        setup: sentMessage,
        steps: [
          step('edit with another sender', (_t, f) => editCarrying(f.s, editMessageBody({ conversation_id: f.conv, msgid: f.msgid, sender: f.s.client('Someone Else'), message: { type: 'text', text: 'edited, sender ignored' } }), ['sender']), ignoredOnEdit),
          step('history', (t, f) => historyShowing(f.msgid, 'edited, sender ignored')(t, f), (_t, f) => [heldOnce(f.msgid), textIs(f.msgid, 'edited, sender ignored'), senderIs(f.msgid, f.client)]),
        ],
      },
    ),
    scenarioRule<Sent>(
      { id: 'chat.edit.receiver-ignored', requires: ['write'],
        title: 'An edit of an incoming message carrying a receiver changes the text only: the message stays without receiver',
        reading: '§4.3 payload table: receiver is ignored on edit; an incoming message from a client has no receiver (message kinds), so the edit must not give it one. Refused with 400 is non_strict (C43); the edit is then sent without the receiver.',
        covers: [SEND('receiver')] },
      {
        setup: sentMessage,
        steps: [
          step('edit with a receiver', (_t, f) => editCarrying(f.s, editMessageBody({ conversation_id: f.conv, msgid: f.msgid, receiver: f.s.client('A Receiver'), message: { type: 'text', text: 'edited, receiver ignored' } }), ['receiver']), ignoredOnEdit),
          step('history', (t, f) => historyShowing(f.msgid, 'edited, receiver ignored')(t, f), (_t, f) => [heldOnce(f.msgid), textIs(f.msgid, 'edited, receiver ignored'), withoutReceiver(f.msgid)]),
        ],
      },
    ),
    scenarioRule<Sent>(
      { id: 'chat.edit.msgid-rebind', requires: ['write'],
        title: 'An edit by id with a new msgid makes that msgid the message\'s integration-side id; a later edit by it works',
        reading: '§4.3 payload table: on edit, msgid sent together with id becomes the integration-side message id. The history then shows it as message.client_id and the old msgid names nothing.',
        covers: [SEND('id'), SEND('msgid')] },
      {
        setup: sentMessage,
        steps: [
          step('edit by id with a new msgid', (_t, f) => f.s.postEvent(editMessageBody({ conversation_id: f.conv, id: f.id, msgid: f.next, message: { type: 'text', text: 'rebound' } })), [status(200)]),
          step('history after the rebind', (t, f) => historyShowing(f.next, 'rebound')(t, f), (_t, f) => [heldOnce(f.next), textIs(f.next, 'rebound'), absentFromHistory(f.msgid)]),
          step('edit by the new msgid', (_t, f) => f.s.postEvent(editMessageBody({ conversation_id: f.conv, msgid: f.next, message: { type: 'text', text: 'edited by the new msgid' } })), [status(200)]),
          step('history after the second edit', (t, f) => historyShowing(f.next, 'edited by the new msgid')(t, f), (_t, f) => [heldOnce(f.next), textIs(f.next, 'edited by the new msgid')]),
        ],
      },
    ),
    exchangeRule<{ readonly status: number; readonly before: string | undefined; readonly after: string | undefined }, Sent>(
      { id: 'chat.message.id-on-new', level: 'info', requires: ['write'],
        title: 'What a new_message carrying the id of an existing message gets, and whether that message changes',
        reading: '§4.3: id is "only for edit"; what a new_message carrying one gets is not stated. Reported, not judged.',
        covers: [SEND('id')] },
      {
        setup: sentMessage,
        send: async (_t, f) => {
          const res = await f.s.sendMessage(f.s.payload(f.conv, f.client, { id: f.id, message: { type: 'text', text: 'a new message naming an old id' } }));
          const items = await f.s.readPages(f.conv);
          return { status: res.status, before: 'hello', after: items.find((i) => i.message?.client_id === f.msgid)?.message?.text };
        },
        expect: [observedTextChange('new_message with an existing id')],
      },
    ),
  ],
});
