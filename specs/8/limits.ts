/**
 * §8 Limits.
 */
import { accountRequest, apiToken, burst, burstObserved, chatPaths, defineGroup, everyMessageRead, exchangeRule, type HistoryItem, labelled, overLimit, pageSize, pagesJoinAsWritten, refusalChecks, refusedOrNoMessages, sameSequenceAs, scenarioRule, status, step } from '../kit.js';
import { type FullChat, fullChat, pagesOf, type TwoConversations, twoConversations } from './support.js';
import { refusal, SEND, HISTORY } from '../fixtures/chat.js';

export default defineGroup({
  heading: 'Limits',
  rules: [
    scenarioRule<TwoConversations>(
      { id: 'chat.limits.forwards', title: 'One forwarded message is accepted; two are refused with 400',
        reading: '§8: forwarded messages per message: 1; §4.3 forwards.messages "at most 1 element".', covers: ['8/Forwarded messages per message', SEND('forwards')] },
      {
        setup: twoConversations,
        steps: [
          step<TwoConversations>('1 forward', (_t, f) => f.s.sendMessage(f.s.payload(f.conv, f.client, { forwards: { messages: [{ msgid: f.there }] } })), [status(200)]),
          step<TwoConversations>('2 forwards', (_t, f) => f.s.sendMessage(f.s.payload(f.conv, f.client, { forwards: { messages: [{ msgid: f.here }, { msgid: f.there }] } })), refusal),
        ],
      },
    ),
    scenarioRule<FullChat>(
      { id: 'chat.history.limit', title: 'History limit 50 gives at most 50 messages; limit 51 is refused with 400 or capped at 50; without limit no answer holds more than 50; page by page, every message of a longer chat is read once, in one order; limit 0 and -1 never answer more than 50',
        reading: '§8 "maximum 50 per request": met by a 400 or by a 200 with at most 50 messages; another 4xx for limit 51 is non_strict (C53). Fewer than 50 (but some) for limit 50 is non_strict (C52). More than 50 in one answer fails, with or without limit (C54, issue 19 §4). The limit is per request (§8 "maximum 50 per request", §4.3 offset "Records skipped from the start"): read page by page, a chat of 52 messages shows all 52; fewer fails. Then compared, not counted (issue 39): the pages of 50 (offset 0, then 50) hold each message written once and nothing else, each full but the last (a short page while more follow is non_strict, C52); pages of 20 list the same sequence (the order is not stated, but it is one order whatever the page size). limit=0 and limit=-1 are sent to this chat longer than the maximum: limit=0 as chat.history.query-invalid reads it (400 or no messages pass, C55), limit=-1 as a wrong type (400 passes, another 4xx or a clamped answer non_strict); either answered with more than 50 messages fails (§8, read as "no limit").',
        covers: ['8/History limit', HISTORY('limit')] },
      {
        setup: (t) => fullChat(t, 52),
        steps: [
          step<FullChat>('', (_t, f) => f.s.history(f.conv, { limit: 50 }), [...labelled('limit 50', [status(200)]), pageSize('limit 50', { max: 50, asked: 50, exist: 52 })]),
          step<FullChat>('', (_t, f) => f.s.history(f.conv, { limit: 51 }), [overLimit(50)]),
          step<FullChat>('', (_t, f) => f.s.history(f.conv), [pageSize('no limit', { max: 50, exist: 52 })]),
          // The limit is per request: page by page, offset and limit reach every message of a chat longer than a page.
          step<FullChat, readonly HistoryItem[]>('', (_t, f) => f.s.allHistory(f.conv, (items) => items.length >= 52), [everyMessageRead(52)]),
          // Compared, not counted (issue 39): each page of 50 as answered, then pages of 20 across the same boundary.
          step<FullChat, readonly (readonly HistoryItem[])[]>('pages of 50', async (_t, f) => (f.pagesOf50 = await pagesOf(f, 50, 3)), (_t, f) => [pagesJoinAsWritten(f.written, 50)]),
          step<FullChat, readonly (readonly HistoryItem[])[]>('pages of 20', (_t, f) => pagesOf(f, 20, 4), (_t, f) => [pagesJoinAsWritten(f.written, 20), sameSequenceAs(f.pagesOf50, 20)]),
          // limit=0 and limit=-1 on a chat longer than the maximum: read as "no limit", they would answer all 52.
          step<FullChat>('limit 0', async (_t, f) => f.s.send({ method: 'GET', path: `${chatPaths.history(await f.s.scope(), f.conv)}?limit=0` }), [refusedOrNoMessages, pageSize('limit 0', { max: 50, asked: 0, exist: 52 })]),
          step<FullChat>('limit -1', async (_t, f) => f.s.send({ method: 'GET', path: `${chatPaths.history(await f.s.scope(), f.conv)}?limit=-1` }), [...refusalChecks('wrong-type'), pageSize('limit -1', { max: 50, asked: 0, exist: 52 })]),
        ],
      },
    ),
    exchangeRule(
      { id: 'api.rate-limit.burst', level: 'info', requires: [],
        title: 'Records what a burst of 12 requests to /api/v4/account gets: the statuses, and the first refusal with its Retry-After',
        reading: '§8 states no rate limit (the live service documents 7 requests per second). The burst is at most 12 requests and goes through the kit\'s own client: on a target with RATE_LIMIT_RPS it never exceeds that ceiling (and a 429 is retried after its Retry-After), so a live account is never pushed past what the run allows; the record says so. Recorded, not judged.' },
      { setup: apiToken, send: (t, token) => burst(t, accountRequest(t.target, token)), expect: [burstObserved] },
    ),
  ],
});
