/**
 * §5.2 Chat interface signature.
 *
 * §5.2 Chat interface signature, probed one part at a time: from a request signed correctly, change the method, one
 * body byte, Content-MD5, Content-Type, Date, the path or the secret, and the target must answer 403; change a header
 * that is not signed and it must still accept. GET signs the MD5 of the empty string and the path without its query.
 *
 * §5.2 on every route of §4.3: "all chat requests are signed" and "403 when the signature is incorrect" are stated for
 * every chat endpoint, so each route gets the same catalogue of spoiled signatures (a wrong secret, a changed body byte,
 * another path, another method, a Content-MD5 of another body, another Content-Type or Date than signed, a signed header
 * left out, another hash algorithm),
 * each applied to a request that would otherwise be accepted, and a signature made with another channel's real secret.
 * A request dated a day ago is its own `should` rule (chat.signature.replay): the spec states what Date the client
 * sends, not that the service refuses an old one.
 */
import fc from 'fast-check';
import {
  CHAT_ROUTES, chatPaths, chatRequest, type ChatRouteName, type ChatSession, chatSession, contentMd5, defineGroup, exchangeRule, type HttpResponse, jsonContentType, notAnsweredWith, observedStatus, propertyRule, routeFixture, type RouteFixture, SIGNING_VARIANTS, type SigningVariant, skewObserved, type SkewWindows, variantSignature, status, sweepRule, type TamperPart, TAMPERS,
} from '../kit.js';
import { SIGNED, connectCall, EVENT_KINDS, type EventKind, REPLAY_ROUTES, ROUTE_TITLE, routeRule, sendDayOld, skewWindows, tamperRule } from './support.js';
import { type OneMessage, oneMessage } from '../fixtures/chat.js';

/** The session a signature sweep signs with. */
interface ChatSessionOf { readonly s: ChatSession }

export default defineGroup({
  heading: 'Chat interface signature',
  rules: [
    exchangeRule(
      { id: 'chat.signature.valid', title: 'A correctly signed chat request (connect) is accepted with 200',
        reading: 'Date as `Thu, 29 Oct 2020 11:59:55 +0000` (RFC 2822, numeric zone), read from the target clock when it has a control API.', covers: SIGNED },
      { send: async (t) => { const s = await chatSession(t); return s.send(connectCall(s)); }, expect: [status(200), jsonContentType] },
    ),
    propertyRule<'GMT' | number>(
      { id: 'chat.signature.date-formats', title: 'Date in RFC 2822 with a numeric zone or with GMT is accepted',
        reading: 'Both forms are valid RFC 2822 and both are in use by clients (docs/field-notes.md); the same instant in any zone is the same Date.', covers: ['5.2/Date'] },
      {
        cases: () => fc.oneof(fc.constant('GMT' as const), fc.constant(0), fc.integer({ min: -47, max: 56 }).map((q) => q * 15)),
        send: async (t, zone) => { const s = await chatSession(t); return s.send(connectCall(s), { zone }); },
        expect: [status(200)],
      },
    ),
    ...(Object.keys(TAMPERS) as TamperPart[]).map(tamperRule),
    propertyRule<Record<string, string>>(
      { id: 'chat.signature.unsigned-header', title: 'A header that is not signed can be added or changed without invalidating the signature',
        reading: 'Only method, Content-MD5, Content-Type, Date and path are signed (§5.2); proxies add headers such as X-Request-Id, User-Agent.', covers: SIGNED },
      {
        cases: () => fc.dictionary(fc.constantFrom('x-trace-id', 'user-agent', 'accept', 'x-client-version', 'accept-language'), fc.stringMatching(/^[A-Za-z0-9./ -]{1,24}$/), { minKeys: 1, maxKeys: 3 }),
        send: async (t, headers) => { const s = await chatSession(t); return s.send(connectCall(s), { wire: { headers } }); },
        expect: [status(200)],
      },
    ),
    exchangeRule<HttpResponse, OneMessage>(
      { id: 'chat.signature.get-query-not-signed', title: 'A GET (history) signs the MD5 of the empty string and the path without its query string',
        reading: '§5.2 and §4.3 history: Content-MD5 is the hash of the empty string; the signing string ends with the path without query string.', covers: [...SIGNED, '4.3/Get chat history/offset', '4.3/Get chat history/limit'] },
      {
        setup: oneMessage,
        send: (_t, f) => f.s.history(f.conv, { offset: 0, limit: 10 }),
        expect: [status(200), notAnsweredWith(403, 'query not signed', 'a GET signed over the path without its query string was refused with 403')],
      },
    ),
    exchangeRule(
      { id: 'chat.signature.checked-before-validation', level: 'should', title: 'An invalid body with a wrong signature gets 403, not 400: the signature is checked first',
        reading: 'The spec lists 403 and 400 for every chat endpoint without an order; checking the signature first never tells an unauthenticated caller what a valid body looks like. 400 (the body validated first, still refused) is non_strict (C63); accepting the request fails.', covers: ['5.2/X-Signature'] },
      {
        send: async (t) => { const s = await chatSession(t); return s.send({ method: 'POST', path: chatPaths.connect(s.channel.channelId), json: { title: 42 } }, { secret: 'not-the-channel-secret' }); },
        expect: [status(403)],
      },
    ),
    exchangeRule(
      { id: 'chat.signature.upper-case-hex', level: 'info', title: 'Whether Content-MD5 and X-Signature in upper-case hex are accepted',
        reading: '§5.2 states lower-case hex; a target that accepts upper case is lenient, one that refuses it is literal. Reported, not judged.', covers: ['5.2/Content-MD5', '5.2/X-Signature'] },
      {
        send: async (t) => {
          const s = await chatSession(t);
          const call = connectCall(s);
          const md5 = contentMd5(JSON.stringify(call.json)).toUpperCase();
          const probe = chatRequest(call, { chatUrl: t.target.chatUrl, secret: s.channel.secret, now: s.now(), sign: { md5 } });
          return t.send({ ...probe, headers: { ...probe.headers, 'content-md5': md5, 'x-signature': probe.headers!['x-signature']!.toUpperCase() } });
        },
        expect: [observedStatus('upper-case hex')],
      },
    ),
    exchangeRule<SkewWindows>(
      { id: 'chat.signature.date-skew', level: 'info', title: 'How far Date may be from the target clock, measured both ways',
        reading: 'The spec says "current time"; the live service is documented to accept about 15 minutes. Measured by bisection against the target clock (read through the control API when there is one).', covers: ['5.2/Date'] },
      { send: async (t) => skewWindows(await chatSession(t)), expect: [skewObserved] },
    ),
    sweepRule<ChatRouteName | EventKind, HttpResponse, RouteFixture>(
      { id: 'chat.signature.replay', level: 'should', requires: ['write'],
        title: 'A correctly signed request dated a day before the target clock (a replay) is refused with 403 and a JSON body, at every chat route but disconnect',
        reading: 'REQ-5.2-date-current: Date is "Current time" (§5.2), so a request a day old is a replay (the live service accepts about 15 minutes; chat.signature.date-skew measures the window). '
          + 'The statement is `should`: §5.2 states what the client sends, not that the service refuses an old Date, so a server that never checks the age breaks no `must`; this rule alone judges it: accepted fails, another 4xx is non_strict. '
          + 'One message is the fixture every route\'s request names (routeFixture); the message route is sent each event kind it carries (§4.3: a new message, an edit of the fixture\'s message, a comment on a post). Disconnect is not sent: taken, it would cut the channel, so it would need a channel of its own, and that need would skip the whole rule on a target without one.',
        covers: ['5.2/Date'] },
      {
        // Every route but disconnect runs on the configured channel, and the message route's fixture serves them all.
        setup: (t) => routeFixture(t, 'message'),
        named: [...REPLAY_ROUTES, ...EVENT_KINDS],
        label: (route) => (route === 'edit' ? 'an edit_message to the message route' : route === 'comment' ? 'a comment to the message route' : ROUTE_TITLE[route]),
        send: (_t, route, f) => sendDayOld(route, f),
        expect: [status(403), jsonContentType],
        what: 'every day-old request refused',
      },
    ),
    sweepRule<SigningVariant, HttpResponse, ChatSessionOf>(
      { id: 'chat.signature.string-variants', title: 'A signature over the signing string in another form (lower-case method line, CRLF, reordered lines, a trailing LF, no Content-MD5 header signed as an empty line) is refused with 403',
        reading: '§5.2 states the signing string: the method, Content-MD5, Content-Type, Date and the path, one a line, joined with a line feed, and Content-MD5 is a header every request carries. A signature over another string is not the signature (security: accepted fails; another 4xx is non_strict). Issue 28 item 4: each variant is a named case on every profile.',
        covers: SIGNED },
      {
        setup: async (t) => ({ s: await chatSession(t) }),
        named: [...SIGNING_VARIANTS],
        send: (t, variant, { s }) => {
          const call = connectCall(s);
          const probe = chatRequest(call, { chatUrl: t.target.chatUrl, secret: s.channel.secret, now: s.now() });
          const h = probe.headers!;
          const parts = { method: call.method, md5: h['content-md5']!, contentType: h['content-type']!, date: h.date!, path: call.path };
          const { 'content-md5': _md5, ...withoutMd5 } = h;
          const headers = { ...(variant === 'empty-md5-line' ? withoutMd5 : h), 'x-signature': variantSignature(s.channel.secret, parts, variant) };
          return t.send({ ...probe, headers });
        },
        expect: [status(403)],
        label: (v) => v,
        what: 'every variant refused',
      },
    ),
    ...CHAT_ROUTES.map(routeRule),
  ],
});
