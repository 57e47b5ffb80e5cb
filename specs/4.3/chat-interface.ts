/**
 * §4.3 Chat interface: Chat interface.
 *
 * HTTP robustness of every chat route of §4.3, generated from the route catalogue of src/steps/chat-routes.ts (each
 * route's valid signed request on its fixture): no correctly signed input causes a 5xx, a body that is not JSON is
 * 400, another method is 405 with Allow. Then the chat interface as a whole: unknown paths 404 with a JSON body, an
 * oversized message refused without harm, and UTF-8 texts and names that come back as sent. Every request is signed
 * correctly (§5.2), so that only what the rule changed can be refused.
 *
 * §4.3 (and §4.1's token endpoint), under §0's "All bodies are JSON": JSON text is UTF-8 (RFC 8259 §8.1). A body with bytes that are not UTF-8 inside a string,
 * on every endpoint that takes JSON (the token endpoint and each chat route with a body), may be refused (4xx) or
 * decoded leniently, but never breaks the service (robustness: a 5xx, a reset or a hang fails).
 *
 * Points of the chat interface (and of §7 errors) the spec leaves open, recorded by `info` rules and never judged:
 * typing for a conversation that does not exist, an outgoing message whose sender.ref_id names nobody, a react whose
 * user.ref_id names nobody, and the structure of one error body of each endpoint family.
 */
import {
  type SpaceRoute,   accountRequest, anyUnicodeText, CHAT_ROUTES, type ChatRouteName, chatSession, type ChatSession, chatSweepRule, codePoints, createdUserName, defineGroup, type HttpResponse, jsonContentType, chatErrorBody, nameRoundTrip, type NameRoundTrip, noServerError, observedErrorBody, readBackIs, type RoundTrip, roundTripAccepted, routeCall, type RouteFixture, sampleMessage, scenarioRule, SCOPE_ROUTES, seededSamples, status, step, sweepRule, textRoundTrip, tokenRequest, unknownScopeAnswer, unknownScopeFixture, UTF8_NAMES, UTF8_TEXTS,
} from '../kit.js';
import {
  noServerErrorRule, malformedJsonRule, wrongMethodRule, BODY_ROUTES, type UnknownPath, UNKNOWN_PATHS, OVERSIZED_BYTES, invalidUtf8Rule, type Family,
  VALID_SPACE_ROUTES, validSpaceRule, NO_BODY_ROUTES, noBodyRule,
} from './support.js';

export default defineGroup({
  heading: 'Chat interface',
  defaults: { level: 'should', requires: [] },
  rules: [
    sweepRule<ChatRouteName, HttpResponse, RouteFixture>(
      { id: 'chat.scope.unknown', requires: ['write'],
        title: 'Every scope route refuses (4xx) a scope_id of the channel that was never connected',
        reading: '§4.3: {scope_id} is returned by connect. A well-formed scope_id (<channel_id>_<account id>, docs/field-notes.md) for an account never connected names no connection: 404 passes, and for history 204 too (§7 "chat does not exist"); another 4xx is non_strict; a success fails (C28 of the review). Signed correctly with the channel secret.',
        covers: ['2.4/scope_id'] },
      {
        setup: unknownScopeFixture,
        named: SCOPE_ROUTES,
        label: (route) => `${route} under an unknown scope_id`,
        send: (_t, route, f) => f.session.send(routeCall(route, f)),
        expect: (_t, route) => (route === 'history' ? [unknownScopeAnswer(true)] : [unknownScopeAnswer(false), jsonContentType]),
      },
    ),
    ...CHAT_ROUTES.filter((r) => r !== 'message').map(noServerErrorRule),
    ...BODY_ROUTES.map(malformedJsonRule),
    ...CHAT_ROUTES.map(wrongMethodRule),
    chatSweepRule<UnknownPath, { readonly s: ChatSession; readonly scopeId: string }>(
      { id: 'chat.http.unknown-path', title: 'A correctly signed request for a path no chat endpoint serves (under the scope or the channel) answers 404 with a JSON body',
        reading: 'RFC 9110 §15.5.5: a path the service does not serve is Not Found; the chat interface answers errors as JSON (§4.3, docs/field-notes.md). Another 4xx is non_strict; a 2xx or an HTML page fails.' },
      {
        setup: async (s) => ({ s, scopeId: await s.scope() }),
        named: UNKNOWN_PATHS,
        send: (f, p) => f.s.send({ method: p.method, path: p.path({ scopeId: f.scopeId, channelId: f.s.channel.channelId, runId: f.s.t.runId }), ...(p.method === 'GET' ? {} : { json: {} }) }),
        expect: [status(404), chatErrorBody],
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
    ...CHAT_ROUTES.filter((r) => r !== 'history').map(invalidUtf8Rule),
    sweepRule<Family>(
      { id: 'errors.body-structure', level: 'info', section: '7',
        title: 'The media type and keys of one error body of each endpoint family: token endpoint, account API, chat interface',
        reading: '§7: "Structure of the error body: not shown". One refusal each: a code grant without code, client_id or secret; the account API without a token; connect with account_id a number. Reported, not judged.',
      },
      {
        named: ['token endpoint', 'account API', 'chat interface'],
        send: async (t, family) => {
          if (family === 'token endpoint') return t.send(tokenRequest(t.target, { grant_type: 'authorization_code' }));
          if (family === 'account API') return t.send(accountRequest(t.target, undefined));
          return (await chatSession(t)).connect({ account_id: 42 });
        },
        expect: (_t, family) => [observedErrorBody(family)],
        label: (family) => family,
      },
    ),
    ...(Object.keys(VALID_SPACE_ROUTES) as SpaceRoute[]).map(validSpaceRule),
    ...NO_BODY_ROUTES.map(noBodyRule),
  ],
});
