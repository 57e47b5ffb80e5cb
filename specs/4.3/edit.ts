/**
 * §4.3 Chat interface: Send, edit or import a message.
 *
 * §4.3 "Send, edit or import a message", edits and identity: sender and receiver are ignored on edit (the history keeps
 * the original participants), and a msgid sent together with id on edit becomes the message's integration-side id.
 *
 * §4.3 edits and message identity, beyond sender and receiver: reply_to, forwards and source
 * are ignored on edit; an edit naming no message of its conversation is refused; and what a repeated msgid on
 * new_message gets is recorded. Each rule works in conversations of its own, the client's messages reading
 * `message <n>` (src/steps/chat-conversation.ts).
 *
 * §4.3 under concurrency, beyond chat creation and distinct messages (create-chat.ts, history.ts):
 * parallel connects of one channel for one account, one msgid sent again and again at once, and parallel edits of one
 * message. Each race sends RACERS requests at once through the kit's client and needs nothing but the chat channel,
 * so it runs on a staging account.
 */
import {
  absentFromHistory, acceptedOrRefused, clientError, type Conversation, conversationWith, defineGroup, editAnswer, editCarrying, editMessageBody, editsAtOnce, editTexts, equals, type ForeignChat, foreignChat, heldOnce, type HistoryItem, holdsMessages, type HttpResponse, ignoredOnEdit, leadsOnceSeen, type LeadsSeen, leadsWatched, messageFields, postToScope, RACERS, recorded, sampleMessage, scenarioRule, senderIs, status, step, textIs, textOneOf, valueFields, withoutReceiver,
} from '../kit.js';
import { type Sent, sentMessage, historyShowing, showing, quoteIgnoredRule, type TwoConversations, type Edits } from './support.js';
import { SEND, type RouteMessage, routeMessage, sendSameEdit } from '../fixtures/chat.js';

export default defineGroup({
  heading: 'Send, edit or import a message',
  rules: [
    scenarioRule<Sent>(
      { id: 'chat.edit.text', title: 'An edit (by msgid, then by chat-interface id) changes the message in the history, which keeps it once',
        reading: '§4.3 rule 4: an edit carries message and the identifying ids; the message changes in place. docs/field-notes.md: the edit answers {"new_message":{...}}; the spec states that answer for new messages, so an edit answered 200 without new_message passes (C42), and one with it is judged like a new message\'s.', covers: [SEND('id'), SEND('msgid'), SEND('event_type')] },
      {
        setup: sentMessage,
        steps: [
          step('edit by msgid', (_t, f) => f.s.postEvent(editMessageBody({ conversation_id: f.conv, msgid: f.msgid, message: { type: 'text', text: 'edited once' } })), (_t, f) => [
            status(200), editAnswer({ msgid: f.msgid, conversationId: f.conv, outgoing: false }),
          ]),
          step('edit by id', (_t, f) => f.s.postEvent(editMessageBody({ conversation_id: f.conv, id: f.id, message: { type: 'text', text: 'edited twice' } })), [status(200)]),
          step('', (t, f) => historyShowing(f.msgid, 'edited twice')(t, f), (_t, f) => [heldOnce(f.msgid), holdsMessages(1), textIs(f.msgid, 'edited twice')]),
        ],
      },
    ),
    scenarioRule<Sent>(
      { id: 'chat.edit.file-fields-optional', title: 'An edit of a picture may leave out media, file_name and file_size; the file is kept',
        reading: '§2.7: media, file_name and file_size are optional on edit when the file is unchanged.', covers: ['2.7/media', '2.7/file_name', '2.7/file_size'] },
      {
        setup: (t) => sentMessage(t, { message: sampleMessage('picture', 'caption') }),
        steps: [
          step('', (_t, f) => f.s.postEvent(editMessageBody({ conversation_id: f.conv, msgid: f.msgid, message: { type: 'picture', text: 'new caption' } })), [status(200)]),
          step('', (t, f) => historyShowing(f.msgid, 'new caption')(t, f), (_t, f) => [messageFields(f.msgid, 'file kept', { text: equals('new caption'), file_name: equals('picture.bin') })]),
        ],
      },
    ),
    scenarioRule<Sent>(
      { id: 'chat.edit.sender-ignored', title: 'An edit carrying another sender changes the text only: the history keeps the original sender',
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
      { id: 'chat.edit.receiver-ignored', title: 'An edit of an incoming message carrying a receiver changes the text only: the message stays without receiver',
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
      { id: 'chat.edit.msgid-rebind', title: 'An edit by id with a new msgid makes that msgid the message\'s integration-side id; a later edit by it works',
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
    quoteIgnoredRule('reply_to'),
    quoteIgnoredRule('forwards'),
    scenarioRule<Conversation>(
      { id: 'chat.edit.source-ignored', requires: ['write', 'control'],
        title: 'An edit carrying another source leaves the chat\'s unsorted lead as it was: one lead, of the first message\'s source',
        reading: '§4.3 payload table: source is ignored on edit; §2.6: the source of the first incoming message decides the lead. Read through the control API (GET /_control/chat/unsorted): the lead is awaited for the effect window (15 s), and after the edit watched the whole window for a second lead or a changed source (C66).',
        covers: [SEND('source'), '2.6/external_id'] },
      {
        setup: (t) => conversationWith(t, 1, { source: { external_id: 'edit-source-a' } }),
        steps: [
          step<Conversation, LeadsSeen>('lead before', (_t, c) => leadsOnceSeen(c.s, c.conv), [valueFields('lead before', { count: equals(1), source: equals('edit-source-a') })]),
          step('edit with another source', (_t, c) => editCarrying(c.s, editMessageBody({ conversation_id: c.conv, msgid: c.sent[0]!.msgid, source: { external_id: 'edit-source-b' }, message: { type: 'text', text: 'edited, source ignored' } }), ['source']), ignoredOnEdit),
          step('history', (_t, c) => showing(c, c.sent[0]!.msgid, 'edited, source ignored'), (_t, c) => [textIs(c.sent[0]!.msgid, 'edited, source ignored')]),
          step<Conversation, LeadsSeen>('lead after', (_t, c) => leadsWatched(c.s, c.conv, 'edit-source-a'), [valueFields('lead after', { count: equals(1), source: equals('edit-source-a') })]),
        ],
      },
    ),
    scenarioRule<Conversation>(
      { id: 'chat.edit.unknown-message', level: 'info', title: 'What an edit of a msgid or an id that names no message gets, and what the conversation holds afterwards',
        reading: 'open-point (C44): what an edit naming a message that does not exist gets is not stated; the answers and the history are recorded (a refusal and an unchanged conversation is the natural reading).',
        covers: [SEND('msgid'), SEND('id')] },
      {
        setup: (t) => conversationWith(t, 1),
        steps: [
          step('edit of an unknown msgid', (_t, c) => c.s.postEvent(editMessageBody({ conversation_id: c.conv, msgid: c.s.msgid(), message: { type: 'text', text: 'edit of nothing' } })), recorded([clientError()])),
          step('edit of an unknown id', (_t, c) => c.s.postEvent(editMessageBody({ conversation_id: c.conv, id: `no-such-${c.s.msgid()}`, message: { type: 'text', text: 'edit of nothing' } })), recorded([clientError()])),
          step('history', (_t, c) => c.s.allHistory(c.conv), (_t, c) => recorded([
            heldOnce(c.sent[0]!.msgid), textIs(c.sent[0]!.msgid, 'message 1'), holdsMessages(1),
          ])),
        ],
      },
    ),
    scenarioRule<TwoConversations>(
      { id: 'chat.edit.other-conversation', level: 'should', title: 'An edit naming conversation B and a message of conversation A is refused (4xx); neither conversation changes',
        reading: '§4.3: an edit names its conversation_id and the message; a message of another conversation is not one of that chat. Any 4xx passes. Tried within one scope (a second account\'s scope is not tried).',
        covers: [SEND('conversation_id'), SEND('msgid')] },
      {
        setup: async (t) => {
          const c = await conversationWith(t, 1);
          const other = c.s.conversationId();
          await c.s.mustSend(c.s.payload(other, c.client, { message: { type: 'text', text: 'in conversation B' } }));
          return { ...c, other };
        },
        steps: [
          step('edit from conversation B', (_t, c) => c.s.postEvent(editMessageBody({ conversation_id: c.other, msgid: c.sent[0]!.msgid, message: { type: 'text', text: 'edited from elsewhere' } })), [clientError()]),
          step('history of A', (_t, c) => c.s.allHistory(c.conv), (_t, c) => [heldOnce(c.sent[0]!.msgid), textIs(c.sent[0]!.msgid, 'message 1')]),
          step('history of B', (_t, c) => c.s.allHistory(c.other), (_t, c) => [absentFromHistory(c.sent[0]!.msgid), holdsMessages(1)]),
        ],
      },
    ),
    scenarioRule<Conversation & { readonly foreign: ForeignChat }>(
      { id: 'chat.edit.other-scope', needs: ['second-account'],
        title: 'An edit sent to a second account\'s scope naming a message of the first, by msgid or by its chat-interface id, is refused (4xx); the message is unchanged',
        reading: '§4.3: the message path names the scope; a message of another account\'s scope is not one the edit may reach (§2.4: a scope is one account\'s connection), whichever id names it (msgid, or `id` "on the chat-interface side", which a server may take as unique): changing another account\'s message is a breach of §2.4, a must (issue 39). Any 4xx passes. The second account comes from the control API, else CHAT_ACCOUNT_ID_2.',
        covers: [SEND('msgid'), '2.4/scope_id'] },
      {
        setup: async (t) => {
          const c = await conversationWith(t, 1);
          return { ...c, foreign: await foreignChat(c.s) };
        },
        steps: [
          step('edit from the second account\'s scope', (_t, c) => postToScope(c.s, c.foreign.scopeId, editMessageBody({ conversation_id: c.foreign.conversationId, msgid: c.sent[0]!.msgid, message: { type: 'text', text: 'edited from another scope' } })), [clientError()]),
          // By the chat-interface id too (payload "id | Message id on the chat-interface side; only for edit"), which another scope must not reach either.
          step('edit by id from the second account\'s scope', (_t, c) => postToScope(c.s, c.foreign.scopeId, editMessageBody({ conversation_id: c.foreign.conversationId, id: c.sent[0]!.id || c.sent[0]!.msgid, message: { type: 'text', text: 'edited from another scope by id' } })), [clientError()]),
          step('history', (_t, c) => c.s.allHistory(c.conv), (_t, c) => [heldOnce(c.sent[0]!.msgid), textIs(c.sent[0]!.msgid, 'message 1')]),
        ],
      },
    ),
    scenarioRule<Edits>(
      { id: 'chat.concurrency.edits', level: 'should', title: `${RACERS} edits of one message at once, each with its own text: the history holds the message once, with one of those texts`,
        reading: '§4.3 rule 4: an edit changes the message it names, in place (chat.edit.text). Which of racing edits wins is not stated, so any one of their texts passes; a racing edit may be accepted or refused (4xx), but none may add a message.',
        covers: [SEND('msgid'), SEND('message')] },
      {
        setup: async (t) => ({ ...await conversationWith(t, 1), texts: editTexts() }),
        steps: [
          step<Edits, readonly HttpResponse[]>(`${RACERS} edits at once`, (_t, c) => editsAtOnce(c, c.texts), [acceptedOrRefused]),
          step<Edits, HistoryItem[]>('history', (_t, c) => c.s.allHistory(c.conv, (items) => items.some((i) => i.message?.client_id === c.sent[0]!.msgid && c.texts.includes(i.message.text ?? ''))), (_t, c) => [
            heldOnce(c.sent[0]!.msgid), textOneOf(c.sent[0]!.msgid, c.texts),
          ]),
        ],
      },
    ),
    scenarioRule<RouteMessage>(
      { id: 'chat.repeated.edit',
        title: 'The same edit sent twice is accepted both times',
        reading: '§4.3 rule 4: an edit of a message that exists carries message and the identifying ids; sent again with the same text it is still a valid edit (200). A 5xx fails.' },
      {
        setup: routeMessage,
        steps: [
          step<RouteMessage>('edit', (_t, x) => sendSameEdit(x), [status(200)]),
          step<RouteMessage>('the same edit again', (_t, x) => sendSameEdit(x), [status(200)]),
        ],
      },
    ),
  ],
});
