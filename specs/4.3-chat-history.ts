/**
 * §4.3 "Get chat history": offset and limit that are not non-negative integers are invalid data (400); the page a GET
 * without limit answers; timestamp and msec_timestamp are the message's send time in seconds and in milliseconds.
 */
import {
  chatPaths, chatSession, type ChatSession, defineSpec, exchangeRule, type HistoryItem, type HttpResponse, scenarioRule, sentTimeIs, step, sweepRule, refusedOrNoMessages, refusalChecks, historyItemsOf, observedPageSize,
} from './kit.js';

const HISTORY = (f: string) => `4.3/Get chat history/${f}`;

interface OneMessage {
  readonly s: ChatSession;
  readonly conv: string;
  readonly msgid: string;
}

async function oneMessage(t: Parameters<typeof chatSession>[0]): Promise<OneMessage> {
  const s = await chatSession(t);
  const conv = s.conversationId();
  return { s, conv, msgid: (await s.mustSend(s.payload(conv, s.client()))).msgid };
}

interface QueryCase {
  readonly query: string;
  /** limit=0 asks for no records: refusing it or answering none are both readings of "records per request". */
  readonly zeroLimit?: boolean;
}

const BAD_QUERIES: readonly QueryCase[] = [
  { query: 'offset=-1' }, { query: 'offset=x' }, { query: 'offset=1.5' },
  { query: 'limit=abc' }, { query: 'limit=-1' }, { query: 'limit=2.5' }, { query: 'limit=0', zeroLimit: true },
];

/** A chat of 60 messages: more than the largest page. */
const FILL = 60;

export default defineSpec({
  section: '4.3',
  title: 'Chat interface: history paging and times',
  level: 'must',
  rules: [
    sweepRule<QueryCase, HttpResponse, OneMessage>(
      { id: 'chat.history.query-invalid', requires: ['write'],
        title: 'History with offset or limit negative or not an integer is refused with 400 and a JSON body; limit 0 is refused or answers none',
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
      { id: 'chat.history.limit-default', level: 'info', requires: ['write'],
        title: `How many messages a history GET without limit answers for a chat of ${FILL} messages`,
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
      { id: 'chat.history.send-time', requires: ['write'],
        title: 'History timestamp and msec_timestamp are the time the message was sent with, in seconds and in milliseconds',
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
  ],
});
