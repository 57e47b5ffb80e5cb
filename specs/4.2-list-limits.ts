/**
 * §4.2 lists, the HTTP limit the filter rules leave: an over-long query string.
 */
import { apiToken, defineSpec, listRequest, noServerError, exchangeRule } from './kit.js';

/** About 100 KB of filter[id][]: far beyond any page (250 records) and the 8–16 KiB request line most servers take. */
const LONG_QUERY_BYTES = 100 * 1024;

function longIdQuery(): string {
  const parts: string[] = [];
  let length = 0;
  for (let id = 1; length < LONG_QUERY_BYTES; id += 1) {
    const part = `filter%5Bid%5D%5B%5D=${id}`;
    parts.push(part);
    length += part.length + 1;
  }
  return parts.join('&');
}

export default defineSpec({
  section: '4.2',
  title: 'List filtering: request limits',
  level: 'should',
  rules: [
    exchangeRule(
      { id: 'lists.http.long-query', requires: [],
        title: 'A list request with a 100 KB filter[id] query is answered, refused or served, never with a 5xx or a dropped connection',
        reading: 'The spec sets no length (the robustness reading, K36): a refusal (414, RFC 9110 §15.5.15; 400; 431, RFC 6585 §5, where the request line and headers share one buffer) and a served list both pass; a 5xx, a reset or a hang fails.' },
      { setup: apiToken, send: (t, token) => t.send(listRequest(t.target, token, 'leads', longIdQuery())), expect: [noServerError] },
    ),
  ],
});
