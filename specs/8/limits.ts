/**
 * §8 Limits.
 */
import { accountRequest, apiToken, burst, burstObserved, chatSession, defineGroup, exchangeRule, overLimit, pageSize, rule, status } from '../kit.js';
import { refusal, SEND, HISTORY } from '../fixtures/chat.js';

export default defineGroup({
  heading: 'Limits',
  rules: [
    rule(
      { id: 'chat.limits.forwards', title: 'One forwarded message is accepted; two are refused with 400',
        reading: '§8: forwarded messages per message: 1; §4.3 forwards.messages "at most 1 element".', covers: ['8/Forwarded messages per message', SEND('forwards')] },
      async (t) => {
        const s = await chatSession(t);
        const conv = s.conversationId();
        const client = s.client();
        const a = await s.mustSend(s.payload(conv, client));
        const b = await s.mustSend(s.payload(s.conversationId(), client));
        const one = await s.sendMessage(s.payload(conv, client, { forwards: { messages: [{ msgid: b.msgid }] } }));
        const two = await s.sendMessage(s.payload(conv, client, { forwards: { messages: [{ msgid: a.msgid }, { msgid: b.msgid }] } }));
        return t.outcome([
          ...t.check(one, [status(200)]).map((f) => ({ ...f, check: `1 forward: ${f.check}` })),
          ...t.check(two, refusal).map((f) => ({ ...f, check: `2 forwards: ${f.check}` })),
        ]);
      },
    ),
    rule(
      { id: 'chat.history.limit', title: 'History limit 50 gives at most 50 messages; limit 51 is refused with 400 or capped at 50; without limit no answer holds more than 50',
        reading: '§8 "maximum 50 per request": met by a 400 or by a 200 with at most 50 messages; another 4xx for limit 51 is non_strict (C53). Fewer than 50 (but some) for limit 50 is non_strict (C52). More than 50 in one answer fails, with or without limit (C54, issue 19 §4).',
        covers: ['8/History limit', HISTORY('limit')] },
      async (t) => {
        const s = await chatSession(t);
        const conv = s.conversationId();
        const client = s.client();
        const base = Date.now() - 100_000;
        for (let batch = 0; batch < 52; batch += 13) {
          await Promise.all(Array.from({ length: 13 }, (_, i) => s.mustSend(s.payload(conv, client, {}, base + (batch + i) * 10))));
        }
        await s.allHistory(conv, (i) => i.length >= 52);
        const at50 = await s.history(conv, { limit: 50 });
        const at51 = await s.history(conv, { limit: 51 });
        const unlimited = await s.history(conv);
        return t.outcome([
          ...t.check(at50, [status(200)]).map((x) => ({ ...x, check: `limit 50: ${x.check}` })),
          ...t.check(at50, [pageSize('limit 50', { max: 50, asked: 50, exist: 52 })]),
          ...t.check(at51, [overLimit(50)]),
          ...t.check(unlimited, [pageSize('no limit', { max: 50, exist: 52 })]),
        ]);
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
