/**
 * §4.3 edits and message identity, beyond sender and receiver (specs/4.3-chat-edits.ts): reply_to, forwards and source
 * are ignored on edit; an edit naming no message of its conversation is refused; and what a repeated msgid on
 * new_message gets is recorded. Each rule works in conversations of its own, the client's messages reading
 * `message <n>` (src/steps/chat-conversation.ts).
 */
import {
  absentFromHistory, clientError, type Conversation, conversationWith, defineSpec, type DuplicateSeen, editMessageBody, equals, exchangeRule,
  heldOnce, holdsMessages, type HistoryItem, observedDuplicate, scenarioRule, step, textIs, valueFields,
  chatSession, type ChatSession, type ForeignChat, foreignChat, postToScope, recorded, editCarrying, ignoredOnEdit, leadsOnceSeen, leadsWatched, type LeadsSeen,
} from './kit.js';

const SEND = (f: string) => `4.3/Send, edit or import a message/${f}`;

/** The history of the conversation, read until the message stored under `msgid` shows `text`. */
const showing = (c: Conversation, msgid: string, text: string): Promise<HistoryItem[]> =>
  c.s.allHistory(c.conv, (items) => items.some((i) => i.message?.client_id === msgid && i.message.text === text));

/** A conversation of two client messages, and a message of another conversation of the same client. */
interface WithElsewhere extends Conversation {
  readonly elsewhere: string;
}

async function withElsewhere(t: Parameters<typeof conversationWith>[0]): Promise<WithElsewhere> {
  const c = await conversationWith(t, 2);
  const other = c.s.payload(c.s.conversationId(), c.client, { message: { type: 'text', text: 'in another conversation' } });
  return { ...c, elsewhere: (await c.s.mustSend(other)).msgid };
}

/**
 * An edit of the conversation's second message carrying a quote: `valid` quotes the first message (as a new message
 * could), else one a new message could not carry (reply_to of another chat; two forwards, above the §8 limit of one).
 */
function quotingEdit(c: WithElsewhere, quote: 'reply_to' | 'forwards', valid: boolean, text: string) {
  const first = { msgid: c.sent[0]!.msgid };
  const elsewhere = { msgid: c.elsewhere };
  return editMessageBody({
    conversation_id: c.conv, msgid: c.sent[1]!.msgid, message: { type: 'text', text },
    ...(quote === 'reply_to' ? { reply_to: { message: valid ? first : elsewhere } } : { forwards: { messages: valid ? [first] : [first, elsewhere] } }),
  });
}

function quoteIgnoredRule(quote: 'reply_to' | 'forwards') {
  const odd = quote === 'reply_to' ? 'a reply_to of another chat' : 'two forwards';
  const historyAfter = (text: string) => step<WithElsewhere, HistoryItem[]>(`history after ${text}`, (_t, c) => showing(c, c.sent[1]!.msgid, text), (_t, c) => [
    heldOnce(c.sent[1]!.msgid), textIs(c.sent[1]!.msgid, text), textIs(c.sent[0]!.msgid, 'message 1'), holdsMessages(2),
  ]);
  return scenarioRule<WithElsewhere>(
    { id: `chat.edit.${quote === 'reply_to' ? 'reply-to' : 'forwards'}-ignored`, requires: ['write'],
      title: `An edit carrying ${quote}, even ${odd}, is accepted and changes the text only: the message stays one message, and the conversation holds no other`,
      reading: `§4.3 payload table: ${quote} is ignored on edit, so it can neither change the message nor make the edit refused (even ${odd}, which a new message could not carry); refused with 400 is non_strict (C43), and the edit is then sent without it. The history shows no quotes: it shows the edited message once with the new text, and no message added.`,
      covers: [SEND(quote)] },
    {
      setup: withElsewhere,
      steps: [
        step('edit with a valid quote', (_t, c) => editCarrying(c.s, quotingEdit(c, quote, true, 'edited with a valid quote'), [quote]), ignoredOnEdit),
        historyAfter('edited with a valid quote'),
        step(`edit with ${odd}`, (_t, c) => editCarrying(c.s, quotingEdit(c, quote, false, `edited with ${odd}`), [quote]), ignoredOnEdit),
        historyAfter(`edited with ${odd}`),
      ],
    },
  );
}

/** Two conversations of one client: A holds the message the rule tries to edit from B. */
interface TwoConversations extends Conversation {
  readonly other: string;
}

export default defineSpec({
  section: '4.3',
  title: 'Chat interface: edits ignore quotes and source, and name a message of their conversation',
  level: 'must',
  rules: [
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
      { id: 'chat.edit.unknown-message', level: 'info', requires: ['write'],
        title: 'What an edit of a msgid or an id that names no message gets, and what the conversation holds afterwards',
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
      { id: 'chat.edit.other-conversation', level: 'should', requires: ['write'],
        title: 'An edit naming conversation B and a message of conversation A is refused (4xx); neither conversation changes',
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
      { id: 'chat.edit.other-scope', level: 'should', requires: ['write'], needs: ['second-account'],
        title: 'An edit sent to a second account\'s scope naming a message of the first is refused (4xx); the message is unchanged',
        reading: '§4.3: the message path names the scope; a message of another account\'s scope is not one the edit may reach (§2.4: a scope is one account\'s connection). Any 4xx passes. The second account comes from the control API, else CHAT_ACCOUNT_ID_2.',
        covers: [SEND('msgid'), '2.4/scope_id'] },
      {
        setup: async (t) => {
          const c = await conversationWith(t, 1);
          return { ...c, foreign: await foreignChat(c.s) };
        },
        steps: [
          step('edit from the second account\'s scope', (_t, c) => postToScope(c.s, c.foreign.scopeId, editMessageBody({ conversation_id: c.foreign.conversationId, msgid: c.sent[0]!.msgid, message: { type: 'text', text: 'edited from another scope' } })), [clientError()]),
          step('history', (_t, c) => c.s.allHistory(c.conv), (_t, c) => [heldOnce(c.sent[0]!.msgid), textIs(c.sent[0]!.msgid, 'message 1')]),
        ],
      },
    ),
    exchangeRule<DuplicateSeen, ChatSession>(
      { id: 'chat.message.duplicate-msgid', level: 'info', requires: ['write'],
        title: 'What two new_message events with one msgid (different texts) get, and what the history then holds',
        reading: '§4.3 rule 1: a message is created "for the given msgid"; whether a second new_message with it is refused, ignored or taken as a new message is not stated. Reported, not judged.',
        covers: [SEND('msgid')] },
      {
        setup: (t) => chatSession(t),
        send: async (_t, s) => {
          const conv = s.conversationId();
          const client = s.client();
          const first = s.payload(conv, client, { message: { type: 'text', text: 'first text' } });
          const a = await s.sendMessage(first);
          const b = await s.sendMessage({ ...first, message: { type: 'text', text: 'second text' } });
          const items = await s.allHistory(conv, (i) => i.length >= 1);
          return { first: a.status, second: b.status, msgid: first.msgid, texts: ['first text', 'second text'], items };
        },
        expect: [observedDuplicate],
      },
    ),
  ],
});
