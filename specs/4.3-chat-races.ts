/**
 * §4.3 under concurrency, beyond chat creation and distinct messages (specs/4.3-chat-endpoints.ts, 4.3-chat-model.ts):
 * parallel connects of one channel for one account, one msgid sent again and again at once, and parallel edits of one
 * message. Each race sends RACERS requests at once through the kit's client and needs nothing but the chat channel,
 * so it runs on a staging account.
 */
import {
  acceptedOrRefused, type Conversation, conversationWith, chatSession, type ChatSession, connectsAtOnce, defineSpec, eachAnsweredOrBusy, editsAtOnce,
  firstAccepted, editTexts, heldOnce, type HistoryItem, type HttpResponse, type MessagePayload, newMessageBody, oneValueAmongAccepted, postToScope,
  RACERS, repeatMsgid, type RepeatSeen, repeatsAnswered, sameHistoryAs, scenarioRule, status, step, stringAt, textOneOf, recorded,
} from './kit.js';

const SEND = (f: string) => `4.3/Send, edit or import a message/${f}`;

/** The connects' answers, and the message then sent under the one scope_id they named. */
interface Connects {
  readonly s: ChatSession;
  answers: readonly HttpResponse[];
  readonly message: MessagePayload;
}

/** The history one msgid left when sent in sequence, kept for the parallel step to be compared with. */
interface Repeats {
  readonly s: ChatSession;
  sequential?: RepeatSeen;
}

/** A conversation whose first message the race edits. */
interface Edits extends Conversation {
  readonly texts: readonly string[];
}

export default defineSpec({
  section: '4.3',
  title: 'Chat interface: parallel connects, repeated msgids and edits',
  level: 'should',
  rules: [
    scenarioRule<Connects>(
      { id: 'chat.concurrency.connect', requires: ['write'],
        title: `${RACERS} connects of the configured channel for one account at once each answer 200 with one and the same scope_id, under which a message is then accepted`,
        reading: '§2.4: scope_id identifies "the channel connection for one account", so connecting again gives that connection (chat.connection.lifecycle connects twice in sequence). A deployment whose workers reconnect at once must not split it in two. The spec states no concurrency; a robustness rule. Some of them refused with a 4xx (409, 429) while every 200 names the one scope_id is non_strict (C23 of the review).',
        covers: ['4.3/Connect channel', '2.4/scope_id'] },
      {
        setup: async (t) => {
          const s = await chatSession(t);
          return { s, answers: [], message: s.payload(s.conversationId(), s.client()) };
        },
        steps: [
          step<Connects, readonly HttpResponse[]>(`${RACERS} connects at once`, async (_t, c) => (c.answers = await connectsAtOnce(c.s)), [eachAnsweredOrBusy(200), oneValueAmongAccepted('scope_id')]),
          step('a message under that scope_id', (_t, c) => postToScope(c.s, stringAt(firstAccepted(c.answers), ['scope_id'])!, newMessageBody(c.message)), [status(200)]),
          step<Connects, HistoryItem[]>('history', (_t, c) => c.s.allHistory(c.message.conversation_id, (items) => items.length >= 1), (_t, c) => [heldOnce(c.message.msgid)]),
        ],
      },
    ),
    scenarioRule<Repeats>(
      { id: 'chat.concurrency.same-msgid', level: 'info', requires: ['write'],
        title: `One msgid sent ${RACERS} times at once leaves the history that ${RACERS} sends of it one after the other leave`,
        reading: `§4.3 rule 1 creates a message "for the given msgid"; what a repeated msgid gets is not stated (chat.message.duplicate-msgid records it). Whatever the target does with it in sequence, it must do under concurrency too: a client retrying on a timeout sends the same msgid again before the first answer. Each run sends one body ${RACERS} times to a chat of its own (created first, so only the msgid races) and compares how many elements each history holds under the msgid and in all. Racing answers may be 200 or a 4xx. An open point (C45): what racing repeats leave is recorded, beside what sequential ones leave.`,
        covers: [SEND('msgid')] },
      {
        setup: async (t) => ({ s: await chatSession(t) }),
        steps: [
          step<Repeats, RepeatSeen>('', async (_t, r) => (r.sequential = await repeatMsgid(r.s, 'in sequence')), []),
          step<Repeats, RepeatSeen>(`${RACERS} at once`, (_t, r) => repeatMsgid(r.s, 'in parallel', r.sequential!.held), (_t, r) => [
            ...recorded([repeatsAnswered, sameHistoryAs(r.sequential!)]),
          ]),
        ],
      },
    ),
    scenarioRule<Edits>(
      { id: 'chat.concurrency.edits', requires: ['write'],
        title: `${RACERS} edits of one message at once, each with its own text: the history holds the message once, with one of those texts`,
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
  ],
});
