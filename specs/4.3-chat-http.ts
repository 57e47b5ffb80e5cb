/**
 * HTTP robustness of every chat route of §4.3, generated from the route catalogue of src/steps/chat-routes.ts (each
 * route's valid signed request on its fixture): no correctly signed input causes a 5xx, a body that is not JSON is
 * 400, another method is 405 with Allow. Then the chat interface as a whole: unknown paths 404 with a JSON body, an
 * oversized message refused without harm, and UTF-8 texts and names that come back as sent. Every request is signed
 * correctly (§5.2), so that only what the rule changed can be refused.
 */
import {
  allowOn405, anyUnicodeText, CHAT_BASE, CHAT_ROUTES, type ChatCall, type ChatRouteName, type ChatSession, chatSession, chatSweepRule, codePoints, createdUserName,
  defineSpec, type HttpResponse, jsonObjectBody, nameRoundTrip, type NameRoundTrip, noServerError, notJsonBodies, ODD_HISTORY_QUERIES, oddJsonBodies, readBackIs,
  routeCall, routeFixture, routeRequires, type RouteFixture, type RoundTrip, roundTripAccepted, type RuleDraft, sampleMessage, scenarioRule, seededSamples, status,
  step, sweepRule, textRoundTrip, UTF8_NAMES, UTF8_TEXTS,
} from './kit.js';

/** How each route is named in titles: its method and path template (§4.3). */
const ROUTE: Record<ChatRouteName, { readonly method: ChatCall['method']; readonly template: string }> = {
  connect: { method: 'POST', template: '.../{channel_id}/connect' },
  disconnect: { method: 'DELETE', template: '.../{channel_id}/disconnect' },
  chats: { method: 'POST', template: '.../{scope_id}/chats' },
  message: { method: 'POST', template: '.../{scope_id}' },
  status: { method: 'POST', template: '.../{scope_id}/{msgid}/delivery_status' },
  history: { method: 'GET', template: '.../{scope_id}/chats/{conversation_id}/history' },
  typing: { method: 'POST', template: '.../{scope_id}/typing' },
  react: { method: 'POST', template: '.../{scope_id}/react' },
};

const named = (route: ChatRouteName): string => `${ROUTE[route].method} ${ROUTE[route].template}`;

/** Methods a client may send by mistake (HEAD and OPTIONS left out: servers answer them generically). */
const METHODS: readonly ChatCall['method'][] = ['GET', 'POST', 'PUT', 'DELETE'];

/** The same route with another body, sent as raw text (so it can be anything, JSON or not). */
function withRaw(call: ChatCall, raw: string): ChatCall {
  return { method: call.method, path: call.path, raw };
}

/** The history path with another query string. */
function withQuery(call: ChatCall, query: string): ChatCall {
  return { method: call.method, path: `${call.path.split('?', 1)[0]}?${query}` };
}

/** The route's path and valid body, sent with another method (GET without a body). */
function withMethod(call: ChatCall, method: ChatCall['method']): ChatCall {
  return { method, path: call.path, ...(method !== 'GET' && call.json !== undefined ? { json: call.json } : {}) };
}

const clip = (text: string): string => (text.length > 60 ? `${JSON.stringify(text.slice(0, 60))}…` : JSON.stringify(text));

const CHANNEL_NOTE = ' Disconnect runs on a channel of its own (control API), so that a wrongly accepted request cuts no other rule\'s channel.';

function noServerErrorRule(route: ChatRouteName): RuleDraft {
  const history = route === 'history';
  return sweepRule<string, HttpResponse, RouteFixture>(
    { id: `chat.http.${route}.no-server-error`, level: 'should', requires: routeRequires(route),
      title: `${named(route)}: no correctly signed ${history ? 'offset and limit' : 'JSON body'} causes a 5xx`,
      reading: `Robustness: whatever a client sends, the service answers 2xx or 4xx. ${history
        ? 'offset and limit out of their domain (negative, fractional, words, huge, repeated, bracketed).'
        : 'Each field of a valid body replaced by a value of another type or a boundary, each left out, top-level values that are not an object, and a few generated JSON documents.'}${route === 'disconnect' ? CHANNEL_NOTE : ''}` },
    {
      setup: (t) => routeFixture(t, route),
      named: (t, f) => (history ? ODD_HISTORY_QUERIES : oddJsonBodies(routeCall(route, f).json, t.seed)),
      send: (_t, value, f) => {
        const call = routeCall(route, f);
        return f.session.send(history ? withQuery(call, value) : withRaw(call, value));
      },
      expect: [noServerError],
      label: clip,
      what: 'no 5xx for any odd input',
    },
  );
}

function malformedJsonRule(route: ChatRouteName): RuleDraft {
  return sweepRule<string, HttpResponse, RouteFixture>(
    { id: `chat.http.${route}.malformed-json`, level: 'must', requires: routeRequires(route),
      title: `${named(route)}: a correctly signed body that is not JSON is refused with 400 and a JSON body`,
      reading: `§4.3 answers 400 for invalid data; a body that does not parse is the plainest case. Signed over its exact bytes, so the signature holds. Another 4xx is non_strict; a 5xx fails.${route === 'disconnect' ? CHANNEL_NOTE : ''}` },
    {
      setup: (t) => routeFixture(t, route),
      named: (t) => notJsonBodies(t.seed),
      send: (_t, text, f) => f.session.send(withRaw(routeCall(route, f), text)),
      expect: [status(400), jsonObjectBody],
      label: clip,
      what: 'every malformed body refused',
    },
  );
}

function wrongMethodRule(route: ChatRouteName): RuleDraft {
  const own = ROUTE[route].method;
  return sweepRule<ChatCall['method'], HttpResponse, RouteFixture>(
    { id: `chat.http.${route}.wrong-method`, level: 'should', requires: routeRequires(route),
      title: `${named(route)} called with another method (${METHODS.filter((m) => m !== own).join(', ')}) answers 405`,
      reading: `RFC 9110 §15.5.6: a method the resource does not support is 405, with an Allow header. Signed correctly for the method sent, with the route's valid body (none with GET), so only the method is wrong. The spec restates neither (K38): a 405 passes with or without Allow (an Allow that leaves out ${own} is non_strict); 404 or another 4xx, or a 2xx, is non_strict; a 5xx, a reset or a hang fails.${route === 'disconnect' ? CHANNEL_NOTE : ''}` },
    {
      setup: (t) => routeFixture(t, route),
      named: METHODS.filter((m) => m !== own),
      send: (_t, method, f) => f.session.send(withMethod(routeCall(route, f), method)),
      expect: [status(405, { accepted: 'non_strict' }), allowOn405(own)],
      label: (method) => `${method} instead of ${own}`,
      what: 'every other method refused',
    },
  );
}

const BODY_ROUTES = CHAT_ROUTES.filter((r) => r !== 'history');

/** An unknown path, signed correctly, on the configured channel's scope and channel. */
interface UnknownPath {
  readonly method: ChatCall['method'];
  readonly path: (ids: { scopeId: string; channelId: string; runId: string }) => string;
  readonly what: string;
}
const UNKNOWN_PATHS: readonly UnknownPath[] = [
  { method: 'POST', path: (x) => `${CHAT_BASE}/${x.scopeId}/no-such-endpoint`, what: 'POST .../{scope_id}/no-such-endpoint' },
  { method: 'POST', path: (x) => `${CHAT_BASE}/${x.channelId}/no-such-endpoint`, what: 'POST .../{channel_id}/no-such-endpoint' },
  { method: 'GET', path: (x) => `${CHAT_BASE}/${x.scopeId}/chats/conv-${x.runId}/messages`, what: 'GET .../{scope_id}/chats/{conversation_id}/messages' },
  { method: 'POST', path: (x) => `${CHAT_BASE}/${x.scopeId}/typing/extra`, what: 'POST .../{scope_id}/typing/extra' },
  { method: 'GET', path: (x) => `${CHAT_BASE}/${x.scopeId}/a/b/c/d`, what: 'GET .../{scope_id}/a/b/c/d' },
];

/** The oversized message's text: ten times the 1 MB a JSON API is commonly held to. */
const OVERSIZED_BYTES = 10 * 1024 * 1024;

export default defineSpec({
  section: '4.3',
  title: 'HTTP robustness of every chat route',
  level: 'should',
  rules: [
    ...CHAT_ROUTES.filter((r) => r !== 'message').map(noServerErrorRule),
    ...BODY_ROUTES.map(malformedJsonRule),
    ...CHAT_ROUTES.map(wrongMethodRule),
    chatSweepRule<UnknownPath, { readonly s: ChatSession; readonly scopeId: string }>(
      { id: 'chat.http.unknown-path', requires: [],
        title: 'A correctly signed request for a path no chat endpoint serves (under the scope or the channel) answers 404 with a JSON body',
        reading: 'RFC 9110 §15.5.5: a path the service does not serve is Not Found; the chat interface answers errors as JSON (§4.3, docs/field-notes.md). Another 4xx is non_strict; a 2xx or an HTML page fails.' },
      {
        setup: async (s) => ({ s, scopeId: await s.scope() }),
        named: UNKNOWN_PATHS,
        send: (f, p) => f.s.send({ method: p.method, path: p.path({ scopeId: f.scopeId, channelId: f.s.channel.channelId, runId: f.s.t.runId }), ...(p.method === 'GET' ? {} : { json: {} }) }),
        expect: [status(404), jsonObjectBody],
        label: (p) => p.what,
        what: 'every unknown path not found',
      },
    ),
    scenarioRule<ChatSession>(
      { id: 'chat.http.oversized', requires: ['write'],
        title: 'A correctly signed 10 MB message is answered without a breakage (refused or taken), and the endpoint answers a normal message afterwards',
        reading: 'The spec sets no size (the robustness reading, K36): a refusal (413, RFC 9110 §15.5.14, or 400) and an acceptance both pass; a 5xx, a reset or a hang fails, as does an endpoint that stops answering.' },
      {
        setup: (t) => chatSession(t),
        steps: [
          step<ChatSession>('10 MB message', (_t, s) => s.sendMessage(s.payload(s.conversationId(), s.client(), { message: sampleMessage('text', 'x'.repeat(OVERSIZED_BYTES)) })), [noServerError]),
          step<ChatSession>('a normal message afterwards', (_t, s) => s.sendMessage(s.payload(s.conversationId(), s.client())), [status(200)]),
        ],
      },
    ),
    sweepRule<string, RoundTrip, ChatSession>(
      { id: 'chat.http.utf8-text', level: 'must', requires: ['write'],
        title: 'Message texts in any script (two-, three- and four-byte UTF-8, combining marks, joined emoji, separators) come back from the history unchanged',
        reading: '§5.2 signs the UTF-8 bytes of the body and §4.3 returns the text in the history: what was accepted is stored as sent, code point for code point. Named texts, then a few generated from the whole of Unicode.' },
      {
        setup: (t) => chatSession(t),
        named: (t) => [...UTF8_TEXTS, ...seededSamples(anyUnicodeText, t.seed, 4)],
        send: (_t, text, s) => textRoundTrip(s, text),
        expect: (_t, text) => [roundTripAccepted, readBackIs('message.text', text)],
        label: (text) => codePoints(text, 6),
        what: 'every text round-trips',
      },
    ),
    sweepRule<string, NameRoundTrip, ChatSession>(
      { id: 'chat.http.utf8-names', level: 'must', requires: ['write'],
        title: 'A user named in Cyrillic, accents, CJK, Arabic or emoji keeps the name in the create-chat answer and in the history',
        reading: '§4.3 create chat answers the user object and the history names the sender; both carry the name as sent (UTF-8, code point for code point).' },
      {
        setup: (t) => chatSession(t),
        named: UTF8_NAMES,
        send: (_t, name, s) => nameRoundTrip(s, name),
        expect: (_t, name) => [createdUserName(name), roundTripAccepted, readBackIs('sender.name', name)],
        label: (name) => name,
        what: 'every name round-trips',
      },
    ),
  ],
});
