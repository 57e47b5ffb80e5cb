/**
 * §8 Limits.
 */
import { accountRequest, apiToken, burst, burstObserved, defineGroup, everyMessageRead, exchangeRule, type HistoryItem, labelled, overLimit, pageSize, scenarioRule, status, step } from '../kit.js';
import { type FullChat, fullChat, type TwoConversations, twoConversations } from './support.js';
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
      { id: 'chat.history.limit', title: 'History limit 50 gives at most 50 messages; limit 51 is refused with 400 or capped at 50; without limit no answer holds more than 50; page by page, every message of a longer chat is read',
        reading: '§8 "maximum 50 per request": met by a 400 or by a 200 with at most 50 messages; another 4xx for limit 51 is non_strict (C53). Fewer than 50 (but some) for limit 50 is non_strict (C52). More than 50 in one answer fails, with or without limit (C54, issue 19 §4). The limit is per request (§8 "maximum 50 per request", §4.3 offset "Records skipped from the start"): read page by page, a chat of 52 messages shows all 52; fewer fails.',
        covers: ['8/History limit', HISTORY('limit')] },
      {
        setup: (t) => fullChat(t, 52),
        steps: [
          step<FullChat>('', (_t, f) => f.s.history(f.conv, { limit: 50 }), [...labelled('limit 50', [status(200)]), pageSize('limit 50', { max: 50, asked: 50, exist: 52 })]),
          step<FullChat>('', (_t, f) => f.s.history(f.conv, { limit: 51 }), [overLimit(50)]),
          step<FullChat>('', (_t, f) => f.s.history(f.conv), [pageSize('no limit', { max: 50, exist: 52 })]),
          // The limit is per request: page by page, offset and limit reach every message of a chat longer than a page.
          step<FullChat, readonly HistoryItem[]>('', (_t, f) => f.s.allHistory(f.conv, (items) => items.length >= 52), [everyMessageRead(52)]),
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
