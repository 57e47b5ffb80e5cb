/**
 * §3.2 (with §2.4 and §4.3): a connection is one channel in one account, named by its scope_id. An account the chat
 * interface does not know gets no connection; a scope_id that was never connected, or was disconnected, reaches
 * nothing on any route; disconnect needs account_id and disconnects that account only.
 */
import {
  chatPaths, chatSession, type ChatRouteName, connectBody, defineSpec, disconnectedFixture, exchangeRule, type HttpResponse, jsonContentType,
  noScopeId, refusedOrTaken, routeCall, type RouteFixture, scenarioRule, SCOPE_ROUTES, secondAccountId, spareChannel, status, step, sweepRule,
  uniqueId, unknownScopeAnswer, unknownScopeFixture, type ChatSession, refusalChecks,
} from './kit.js';

interface TwoAccounts {
  readonly a: ChatSession;
  readonly b: ChatSession;
  readonly conversationId: string;
}

export default defineSpec({
  section: '3.2',
  title: 'Channel connection: scopes and accounts',
  level: 'must',
  rules: [
    exchangeRule(
      { id: 'chat.connect.unknown-account', section: '2.4', level: 'should', requires: [],
        title: 'Connect for an account_id the chat interface does not know is refused (4xx) and hands out no scope_id',
        reading: '§2.4: account_id is the account id in the chat interface; a made-up one names no account, so no connection can be made. "400 when data is invalid" (§4.3): 400 passes, another 4xx (404) is non_strict (C30 of the review).',
        covers: ['2.4/account_id', '4.3/Connect channel/account_id'] },
      {
        send: async (t) => {
          const s = await chatSession(t);
          return s.send({ method: 'POST', path: chatPaths.connect(s.channel.channelId), json: connectBody(uniqueId(t, 'no-account')) });
        },
        expect: [status(400), noScopeId, jsonContentType],
      },
    ),
    sweepRule<ChatRouteName, HttpResponse, RouteFixture>(
      { id: 'chat.scope.unknown', section: '4.3', level: 'should', requires: ['write'],
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
    sweepRule<ChatRouteName, HttpResponse, RouteFixture>(
      { id: 'chat.connection.disconnected-routes', level: 'should', requires: ['write'], needs: ['second-channel'],
        title: 'After disconnect, every scope route under the old scope_id is refused (4xx): create chat, message, delivery status, history, typing, react',
        reading: '§3.2: disconnect leads to not connected. The spec states no refusal for a scope that is not connected: a 4xx from each route passes (no code stated), an acceptance is non_strict (C20 of the review). Uses its own channel (the control API\'s, else CHANNEL_ID_2).',
        covers: ['3.2/not connected', '4.3/Disconnect channel'] },
      {
        setup: disconnectedFixture,
        named: SCOPE_ROUTES,
        label: (route) => `${route} after disconnect`,
        send: (_t, route, f) => f.session.send(routeCall(route, f)),
        expect: [refusedOrTaken()],
      },
    ),
    scenarioRule<ChatSession>(
      { id: 'chat.disconnect.account-id-required', section: '4.3', requires: ['write'], needs: ['second-channel'],
        title: 'Disconnect without account_id, or with a number, is refused with 400 and the channel stays connected',
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
    scenarioRule<TwoAccounts>(
      { id: 'chat.disconnect.one-account', requires: ['write'], needs: ['second-channel', 'second-account'],
        title: 'Disconnecting the channel in one account leaves it connected in another: that account\'s messages are still accepted',
        reading: '§2.4: scope_id identifies the connection for one account; §4.3: disconnect names the account_id. Two accounts connect one channel of its own; disconnecting the first leaves the second\'s messages accepted; the first\'s are refused (any 4xx; accepted is non_strict, C20 of the review).',
        covers: ['2.4/scope_id', '3.2/not connected', '3.2/connected'] },
      {
        setup: async (t) => {
          const a = await spareChannel(t);
          const b = await chatSession(t, { ...a.channel, accountId: await secondAccountId(t, a.channel.accountId) });
          await a.scope();
          await b.scope();
          return { a, b, conversationId: a.conversationId() };
        },
        steps: [
          step('disconnect the first account', (_t, f) => f.a.disconnect(), [status(200)]),
          step('the second account sends', (_t, f) => f.b.sendMessage(f.b.payload(f.conversationId, f.b.client())), [status(200)]),
          step('the first account sends', (_t, f) => f.a.sendMessage(f.a.payload(f.conversationId, f.a.client())), [refusedOrTaken()]),
        ],
      },
    ),
  ],
});
