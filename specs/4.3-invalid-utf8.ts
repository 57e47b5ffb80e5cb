/**
 * §4.3 (and §4.1's token endpoint), under §0's "All bodies are JSON": JSON text is UTF-8 (RFC 8259 §8.1). A body with bytes that are not UTF-8 inside a string,
 * on every endpoint that takes JSON (the token endpoint and each chat route with a body), may be refused (4xx) or
 * decoded leniently, but never breaks the service (robustness: a 5xx, a reset or a hang fails).
 */
import {
  CHAT_ROUTES, type ChatRouteName, codeGrant, defineSpec, exchangeRule, type HttpResponse, noServerError, noTokenIssued, routeCall, routeFixture, type RouteFixture, routeRequires, type RuleDraft, sweepRule, withInvalidUtf8,
} from './kit.js';

const READING = 'RFC 8259 §8.1: JSON exchanged between systems MUST be UTF-8, so a body with bytes that are not UTF-8 may be refused (400, another 4xx) or decoded with replacement characters and taken (robustness: either passes); a 5xx, a reset or a hang fails. The bytes sit in one extra member of an otherwise valid request: a lone continuation byte, 0xFF, an overlong encoding and a cut-off sequence.';

function chatRule(route: ChatRouteName): RuleDraft {
  return sweepRule<string, HttpResponse, RouteFixture>(
    { id: `chat.http.${route}.invalid-utf8`, requires: routeRequires(route),
      title: `${route}: a correctly signed body with bytes that are not UTF-8 inside a JSON string causes no 5xx`,
      reading: `${READING} Signed over the exact bytes, so the signature holds.` },
    {
      setup: (t) => routeFixture(t, route),
      named: ['bytes that are not UTF-8 in an extra member'],
      send: (_t, _label, f) => {
        const call = routeCall(route, f);
        return f.session.send({ method: call.method, path: call.path, raw: withInvalidUtf8(call.json) });
      },
      expect: [noServerError],
      label: (label) => label,
      what: 'no 5xx',
    },
  );
}

export default defineSpec({
  section: '4.3',
  title: 'JSON bodies are UTF-8: bytes that are not break nothing',
  level: 'should',
  rules: [
    exchangeRule(
      { id: 'oauth.token.invalid-utf8', section: '4.1', requires: [],
        title: 'A token request with bytes that are not UTF-8 inside a JSON string causes no 5xx and issues no token',
        reading: `${READING} The code is made up, so no token may come of it either way.` },
      {
        send: (t) => t.send({
          method: 'POST', url: `${t.target.baseUrl}/oauth2/access_token`, headers: { 'content-type': 'application/json' },
          body: withInvalidUtf8(codeGrant(t.target, `not-a-code-${t.runId}`)),
        }),
        expect: [noServerError, noTokenIssued],
      },
    ),
    ...CHAT_ROUTES.filter((r) => r !== 'history').map(chatRule),
  ],
});
