/**
 * §4.3 Chat interface: Disconnect channel.
 *
 * §4.3 validation per route: the fields each chat endpoint's table requires (create chat's conversation_id and
 * source, reply_to.message, forwards.messages and the forwarded embedded messages, event_type), each sent broken and
 * refused with 400; the optional react emoji left out and accepted; and disconnect's answer, 200 with no body.
 */
import {
  chatPaths, chatSession, ChatSession, defineGroup, exchangeRule, type HttpResponse, jsonContentType, noBody, refusalChecks, scenarioRule, spareChannel, status, step,
} from '../kit.js';

export default defineGroup({
  heading: 'Disconnect channel',
  defaults: { needs: ['second-channel'] },
  rules: [
    scenarioRule<ChatSession>(
      { id: 'chat.disconnect.account-id-required', title: 'Disconnect without account_id, or with a number, is refused with 400 and the channel stays connected',
        reading: '§4.3: account_id (string, required): missing and accepted fails; a number coerced and accepted is non_strict (wrong-type). The channel must stay connected: a message is accepted afterwards. Uses its own channel (the control API\'s, else CHANNEL_ID_2).',
        covers: ['4.3/Disconnect channel'] },
      {
        setup: async (t) => { const s = await spareChannel(t); await s.scope(); return s; },
        steps: [
          step('no account_id', (_t, s) => s.send({ method: 'DELETE', path: chatPaths.disconnect(s.channel.channelId), json: {} }), [status(400), jsonContentType]),
          step('account_id 42 (a number)', (_t, s) => s.send({ method: 'DELETE', path: chatPaths.disconnect(s.channel.channelId), json: { account_id: 42 } }), refusalChecks('wrong-type')),
          step('a message afterwards', (_t, s) => s.sendMessage(s.payload(s.conversationId(), s.client())), [status(200)]),
        ],
      },
    ),
    exchangeRule(
      { id: 'chat.disconnect.unknown-channel', needs: [], requires: [], title: 'Disconnect of a channel that does not exist answers 404', covers: ['4.3/Disconnect channel'] },
      { send: async (t) => { const s = await chatSession(t); return s.send({ method: 'DELETE', path: chatPaths.disconnect(`no-such-channel-${t.runId}`), json: { account_id: s.channel.accountId } }); }, expect: [status(404), jsonContentType] },
    ),
    exchangeRule<HttpResponse, ChatSession>(
      { id: 'chat.disconnect.no-body', title: 'Disconnect answers 200 with no body',
        reading: '§4.3 disconnect: "Response 200 with no body". Any body on the 200 is non_strict (a body on a 204 fails); whether a body sent anyway is JSON is judged by chat.signature.route.disconnect. Runs on a channel of its own (without a control API, CHANNEL_ID_2).',
        covers: ['4.3/Disconnect channel'] },
      {
        setup: async (t) => {
          const own = await spareChannel(t);
          await own.scope();
          return own;
        },
        send: (_t, own) => own.disconnect(),
        expect: [status(200), noBody],
      },
    ),
  ],
});
