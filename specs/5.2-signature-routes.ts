/**
 * §5.2 on every route of §4.3: "all chat requests are signed" and "403 when the signature is incorrect" are stated for
 * every chat endpoint, so each route gets the same catalogue of spoiled signatures (a wrong secret, a changed body byte,
 * another path, another method, a Content-MD5 of another body, a signed header left out, another hash algorithm),
 * each applied to a request that would otherwise be accepted. And a signature made with another channel's real secret.
 */
import {
  CHAT_ROUTES, type ChatRouteName, chatPaths, connectBody, defineSpec, jsonContentType, newMessageBody, routeCall, spareChannel, routeFixture, routeRequires, type RouteFixture,
  type RuleDraft, type SignatureSpoil, spoilOptions, spoilsFor, SPOIL_WHAT, status, sweepRule, chatSession, type HttpResponse, refusalPreferred, jsonContentTypeIfRefused,
} from './kit.js';

const SIGNED = ['5.2/Content-Type', '5.2/Date', '5.2/Content-MD5', '5.2/X-Signature'];

const ROUTE_TITLE: Record<ChatRouteName, string> = {
  connect: 'connect (POST .../{channel_id}/connect)',
  disconnect: 'disconnect (DELETE .../{channel_id}/disconnect)',
  chats: 'create chat (POST .../{scope_id}/chats)',
  message: 'send a message (POST .../{scope_id})',
  status: 'delivery status (POST .../{scope_id}/{msgid}/delivery_status)',
  history: 'history (GET .../{scope_id}/chats/{conversation_id}/history)',
  typing: 'typing (POST .../{scope_id}/typing)',
  react: 'reaction (POST .../{scope_id}/react)',
};

function routeRule(route: ChatRouteName): RuleDraft {
  return sweepRule<SignatureSpoil, HttpResponse, RouteFixture>(
    { id: `chat.signature.route.${route}`, requires: routeRequires(route), ...(route === 'disconnect' ? { needs: ['second-channel' as const] } : {}),
      title: `A ${ROUTE_TITLE[route]} whose signature is spoiled in any one way is refused with 403 and a JSON body`,
      reading: '§4.3: 403 when the signature is incorrect, for every chat endpoint; §5.2: the four headers are carried by every chat request, X-Signature is HMAC-SHA1, Content-MD5 of a GET is the MD5 of the empty string. '
        + 'A missing signed header is an incorrect signature (another 4xx is non_strict); a request without Date accepted is non_strict (C64: the spec lists Date among the headers but does not call a request without it incorrect), without X-Signature or Content-MD5 it fails. Each case spoils one thing of a request that is otherwise accepted.'
        + (route === 'disconnect' ? ' On a channel of its own (the control API\'s, else CHANNEL_ID_2), so that a wrongly accepted disconnect cuts no other rule\'s channel.' : ''),
      covers: SIGNED },
    {
      setup: (t) => routeFixture(t, route),
      named: (_t, f) => spoilsFor(routeCall(route, f)),
      label: (spoil) => SPOIL_WHAT[spoil],
      send: async (_t, spoil, f) => {
        const call = routeCall(route, f);
        return f.session.send(call, spoilOptions(route, f, call, spoil));
      },
      expect: (_t, spoil) => (spoil === 'no-date' ? [refusalPreferred('no Date refused', 403), jsonContentTypeIfRefused] : [status(403), jsonContentType]),
      what: 'every spoiled signature refused',
    },
  );
}

export default defineSpec({
  section: '5.2',
  title: 'Chat interface signature on every route',
  level: 'must',
  rules: [
    ...CHAT_ROUTES.map(routeRule),
    sweepRule<'connect' | 'message', HttpResponse, { readonly other: string }>(
      { id: 'chat.signature.other-channel-secret', requires: ['write'], needs: ['second-channel'],
        title: 'A request signed with another channel\'s real secret is refused with 403 (connect and a message)',
        reading: '§5.2: keyed with the channel secret, i.e. the secret of the channel in the path (or of the scope\'s channel). A second channel is registered through the control API (else CHANNEL_ID_2, CHANNEL_SECRET_2); its secret signs requests to the configured channel.',
        covers: ['5.2/X-Signature'] },
      {
        setup: async (t) => ({ other: (await spareChannel(t)).channel.secret }),
        named: ['connect', 'message'],
        label: (what) => `${what} signed with the second channel's secret`,
        send: async (t, what, f) => {
          const s = await chatSession(t);
          if (what === 'connect') return s.send({ method: 'POST', path: chatPaths.connect(s.channel.channelId), json: connectBody(s.channel.accountId) }, { secret: f.other });
          const conv = s.conversationId();
          return s.send({ method: 'POST', path: chatPaths.message(await s.scope()), json: newMessageBody(s.payload(conv, s.client())) }, { secret: f.other });
        },
        expect: [status(403), jsonContentType],
      },
    ),
  ],
});

