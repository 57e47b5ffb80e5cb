/**
 * §4.3 Chat interface: Get chat history.
 *
 * §4.3 as a whole: a model-based property (random sequences of create chat / send / edit / import / delivery status /
 * reaction / history against a model; the history always matches it), the order the target uses, and concurrency
 * (parallel messages to one conversation each appear once).
 *
 * §4.3 "Get chat history": offset and limit that are not non-negative integers are invalid data (400); the page a GET
 * without limit answers; timestamp and msec_timestamp are the message's send time in seconds and in milliseconds.
 */
import {
  type ChatCommand, chatCommands, jsonContentType, status, chatPaths, chatSession, defineGroup, elementOfType, type ElementType, emptyHistory, equals, exchangeRule, historyAnswerObserved, historyHolds, type HistoryItem, historyItemsOf, historyOrderObserved, type HttpResponse, mediaGroupObserved, modelHeld, type ModelRun, namedChatSequences, observedPageSize, observeChatModel, pageSize, refusalChecks, refusedOrNoMessages, sampleMessage, scenarioRule, sentTimeIs, step, sweepRule, type TimedMessage, valueField,
} from '../kit.js';
import {
  type CreatedChat, createdChatFor, type ModelSession, modelSession, oneOfEachType, outOfOrder, type QueryCase, type ReactTarget, reactTarget, type Sent, sentMessage, type SentMessages, sevenMessages, BAD_QUERIES, FILL,
} from './support.js';
import { SEND, HISTORY, type OneMessage, oneMessage } from '../fixtures/chat.js';

export default defineGroup({
  heading: 'Get chat history',
  rules: [
    // ---- history
    scenarioRule<CreatedChat>(
      { id: 'chat.history.empty', title: 'History answers 204 for a chat that does not exist and for a chat without messages',
        reading: '§4.3, §7: 204 when the chat does not exist or has no messages. 200 with an empty messages array is non_strict; a 404 for a chat that does not exist fails (§7 "204 history: Chat does not exist", R2-C14), and so does 200 with messages (C51).',
        covers: ['4.3/Get chat history'] },
      {
        setup: createdChatFor,
        steps: [
          step('', (_t, f) => f.s.history(`no-such-${f.s.conversationId()}`), [emptyHistory('no chat')]),
          step('', (_t, f) => f.s.history(f.conv), [emptyHistory('no messages')]),
        ],
      },
    ),
    exchangeRule<HistoryItem[], SentMessages<{ readonly type: ElementType; readonly msgid: string }>>(
      { id: 'chat.history.fields', title: 'History elements carry the stated fields with their types, per message type',
        reading: '"Empty values may be omitted": only fields the message has are required (file fields for a picture, location, contact).',
        covers: ['timestamp', 'msec_timestamp', 'message[id]', 'message[client_id]', 'message[type]', 'message[text]', 'message[media]', 'message[file_name]', 'message[file_size]', 'message[location]', 'message[contact]'].map(HISTORY) },
      {
        setup: oneOfEachType,
        send: (_t, f) => f.s.allHistory(f.conv, (i) => i.length >= 4),
        expect: (_t, f) => f.sent.map((m) => elementOfType(m.msgid, m.type)),
      },
    ),
    scenarioRule<SentMessages<string>>(
      { id: 'chat.history.pages', title: 'History pages (offset, limit) join exactly: every message once, none lost',
        reading: 'offset counts records skipped from the start, limit the records per request. A page shorter than the limit while more exist (but not empty) is non_strict (C52): the reader goes on from where it ended.',
        covers: [HISTORY('offset'), HISTORY('limit')] },
      {
        setup: sevenMessages,
        steps: [
          step('', (_t, f) => f.s.history(f.conv, { offset: 0, limit: 3 }), [pageSize('first page', { max: 3, asked: 3, exist: 7 })]),
          step<SentMessages<string>, HistoryItem[]>('pages of 3', (_t, f) => f.s.readPages(f.conv, 3, (i) => i.length >= f.sent.length), (_t, f) => [
            historyHolds('every message once', { once: f.sent, none: [] }), valueField('length', equals(7), 'nothing else'),
          ]),
        ],
      },
    ),
    exchangeRule<HttpResponse, ReactTarget>(
      { id: 'chat.history.by-chat-id', level: 'info', title: 'Whether history also answers for the chat-interface chat id in the path',
        reading: 'The spec names the integration-side conversation_id; public clients put the chat-interface chat id there (docs/field-notes.md). Reported, not judged.', covers: ['4.3/Get chat history'] },
      {
        setup: reactTarget,
        send: (_t, f) => f.s.history(f.chatId),
        expect: [historyAnswerObserved('chat id in the path')],
      },
    ),
    exchangeRule<HistoryItem[], Sent>(
      { id: 'chat.history.media-group', level: 'info', title: 'Whether history elements of media messages carry media_group_id',
        reading: 'media_group_id joins the parts of a message split into several attachments; the API has no way to send several attachments in one message, so this only records whether the field appears.', covers: [HISTORY('message[media_group_id]'), HISTORY('message[thumbnail]')] },
      {
        setup: (t) => sentMessage(t, { message: sampleMessage('picture') }),
        send: (_t, f) => f.s.allHistory(f.conv, (i) => i.length >= 1),
        expect: (_t, f) => [mediaGroupObserved(f.msgid)],
      },
    ),
    sweepRule<Iterable<ChatCommand>, ModelRun, ModelSession>(
      { id: 'chat.model.history', title: 'Random sequences of create chat, send, edit, import, status, react and history: the history always matches the model',
        reading: 'Every message once, none lost, the latest edit shown, pages of any size joining exactly; delivery statuses and reactions change no history. A message or an edit may show after a while ("accepted for processing"): each read waits, within the effect window, for every message sent and the text of the last edit of each.',
        covers: [SEND('message'), SEND('msgid'), SEND('silent'), SEND('id'), HISTORY('offset'), HISTORY('limit'), HISTORY('message[id]'), HISTORY('message[client_id]'), HISTORY('message[text]'), '4.3/Create chat', '4.3/Update delivery status', '4.3/Reaction'] },
      {
        setup: modelSession,
        named: () => namedChatSequences(),
        cases: () => chatCommands(),
        send: (_t, cmds, f) => observeChatModel(f.s, cmds, f.orders),
        expect: [modelHeld],
        what: 'named sequences',
      },
    ),
    exchangeRule<HistoryItem[], SentMessages<TimedMessage>>(
      { id: 'chat.model.order', level: 'info', title: 'The order in which history lists messages',
        reading: 'The spec does not state the order of history. Reported, not judged: by message time, newest or oldest first, or another.',
        covers: [HISTORY('timestamp'), HISTORY('msec_timestamp')] },
      {
        setup: outOfOrder,
        send: (_t, f) => f.s.allHistory(f.conv, (i) => i.length >= 3),
        expect: (_t, f) => [historyOrderObserved(f.sent)],
      },
    ),
    sweepRule<QueryCase, HttpResponse, OneMessage>(
      { id: 'chat.history.query-invalid', title: 'History with offset or limit negative or not an integer is refused with 400 and a JSON body; limit 0 is refused or answers none',
        reading: '§4.3: offset and limit are int, and 400 when data is invalid. A negative, fractional or non-numeric value clamped or coerced and answered 2xx, or refused with another 4xx, is non_strict (wrong-type, C55). limit=0 asks for zero records per request: a 400 and an answer with no messages (204, or 200 with an empty array) both pass; another 4xx or a 200 with messages is non_strict. Only a breakage fails.',
        covers: [HISTORY('offset'), HISTORY('limit')] },
      {
        setup: oneMessage,
        named: BAD_QUERIES,
        label: (c) => c.query,
        send: async (_t, c, f) => f.s.send({ method: 'GET', path: `${chatPaths.history(await f.s.scope(), f.conv)}?${c.query}` }),
        expect: (_t, c) => (c.zeroLimit ? [refusedOrNoMessages] : refusalChecks('wrong-type')),
      },
    ),
    exchangeRule<HistoryItem[]>(
      { id: 'chat.history.limit-default', level: 'info', title: `How many messages a history GET without limit answers for a chat of ${FILL} messages`,
        reading: '§4.3 states the maximum of limit (50), not its default: the count is reported here; more than 50 in one answer fails chat.history.limit (C54).',
        covers: [HISTORY('limit')] },
      {
        send: async (t) => {
          const s = await chatSession(t);
          const conv = s.conversationId();
          const client = s.client();
          const start = s.now().getTime() - FILL * 1000;
          for (let i = 0; i < FILL; i += 1) await s.mustSend(s.payload(conv, client, {}, start + i * 1000));
          const res = await s.history(conv);
          return historyItemsOf(res);
        },
        expect: [observedPageSize(FILL)],
      },
    ),
    scenarioRule<OneMessage & { readonly sent: { readonly timestamp: number; readonly msec_timestamp: number }; readonly receivedMs: number }>(
      { id: 'chat.history.send-time', title: 'History timestamp and msec_timestamp are the time the message was sent with, in seconds and in milliseconds',
        reading: '§4.3: timestamp (int) is the send time, msec_timestamp (int) the send time in milliseconds; the payload carries the message time in both units. The message is imported with a time an hour ago with a non-zero millisecond part, so a value in the wrong unit or rounded shows (failed); the receive time shown instead, in both units, is non_strict (C41).',
        covers: [HISTORY('timestamp'), HISTORY('msec_timestamp'), '4.3/Send, edit or import a message/timestamp', '4.3/Send, edit or import a message/msec_timestamp'] },
      {
        setup: async (t) => {
          const s = await chatSession(t);
          const conv = s.conversationId();
          const now = s.now().getTime();
          const ms = now - 3_600_000 - 123;
          const sent = { timestamp: Math.floor(ms / 1000), msec_timestamp: ms };
          return { s, conv, msgid: (await s.mustSend(s.payload(conv, s.client(), { silent: true }, ms))).msgid, sent, receivedMs: now };
        },
        steps: [
          step('history', (_t, f) => f.s.allHistory(f.conv, (i) => i.length >= 1), (_t, f) => [sentTimeIs(f.msgid, f.sent, f.receivedMs)]),
        ],
      },
    ),
    scenarioRule<OneMessage>(
      { id: 'chat.history.content-type', title: 'History of a chat with a message answers 200 with a JSON Content-Type',
        reading: '§4.3: "success and error responses carry Content-Type: application/json". A chat with one message is read once the message shows in it: application/json passes (any parameters), another JSON media type (text/json) is non_strict (K8), a body of any other media type fails.',
        covers: ['4.3/Get chat history'] },
      {
        setup: oneMessage,
        steps: [
          step('history holds the message', (_t, f) => f.s.allHistory(f.conv, (i) => i.length >= 1), (_t, f) => [historyHolds('history', { once: [f.msgid], none: [] })]),
          step('history', (_t, f) => f.s.history(f.conv), [status(200), jsonContentType]),
        ],
      },
    ),
  ],
});
