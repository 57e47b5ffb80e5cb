/**
 * §3.2 Channel connection: states and transitions.
 *
 * §3.2 Channel connection: connect → send → disconnect → connect again; hooks stop after a disconnect (§6); a
 * disconnect of the integration disconnects the channel (§6 last line); one account's scope never reaches another's
 * chats. Rules that disconnect use a channel of their own (registered through the control API, else the second
 * channel of the settings), so that rules sharing the configured channel are not disturbed.
 *
 * §3.2 (with §2.4 and §4.3): a connection is one channel in one account, named by its scope_id. An account the chat
 * interface does not know gets no connection; a scope_id that was never connected, or was disconnected, reaches
 * nothing on any route; disconnect needs account_id and disconnects that account only.
 *
 * §3.2 last row and §6: when the integration is disconnected in an account, its channel is disconnected there and the
 * outgoing-message hooks of that account stop. Watched over the whole effect window, not read once.
 */
import {
  accountMessage, accountWrites, chatHookCount, clientError, type ChatRouteName, chatSession, ChatSession, defineGroup, disconnectedFixture, disconnectInChatAccount, distinct, emptyHistory, equals, historyHolds, type HistoryItem, POLICY_HOOK_WINDOW_MS, hooksAre, type HttpResponse, otherAccountId, ownChannel, type ParticipantBody, Precondition, refusedOrTaken, reinstallInChatAccount, routeCall, type RouteFixture, scenarioRule, SCOPE_ROUTES, secondAccountId, someHooks, spareChannel, status, step, stringAt, sweepRule, textIs, valueIs, watchChatHooks,
} from '../kit.js';
import { REPEAT_ANSWER } from '../fixtures/chat.js';
import { crossScopeSteps, type OwnConversation, ownConversation, type TwoAccounts, twoScopes, mustDisconnect, type TwoAccountsConversation, type Disconnected } from './support.js';

export default defineGroup({
  heading: 'Channel connection',
  rules: [
    scenarioRule<OwnConversation>(
      { id: 'chat.connection.lifecycle', title: 'connect → send → disconnect → sending is refused → connect again → sending works',
        reading: '§3.2: connected lets messages be sent; disconnect leads to not connected. The spec states no refusal for a message to a disconnected scope: any 4xx passes, an acceptance is non_strict (C20 of the review). Connecting again is a step the spec demands succeed: a refusal fails, it is no precondition (C22). Uses its own channel.',
        covers: ['3.2/not connected', '3.2/connected', '4.3/Disconnect channel', '4.3/Connect channel'] },
      {
        setup: ownConversation,
        steps: [
          step('connected, send', (_t, c) => c.s.sendMessage(c.s.payload(c.conv, c.client)), [status(200)]),
          step('disconnect', (_t, c) => c.s.disconnect(), [status(200)]),
          step('', (_t, c) => c.s.sendMessage(c.s.payload(c.conv, c.client)), [refusedOrTaken('send after disconnect')]),
          step('connect again', (_t, c) => {
            c.s.forgetScope();
            return c.s.connect();
          }, [status(200)]),
          step('reconnected, send', (_t, c) => c.s.sendMessage(c.s.payload(c.conv, c.client)), [status(200)]),
        ],
      },
    ),
    scenarioRule<OwnConversation>(
      { id: 'chat.connection.hooks-stop', requires: ['write', 'control'], needs: ['counters'], title: 'Outgoing-message hooks arrive while connected and stop after disconnect',
        reading: '§3.2 and §6: "Hooks stop". A manager writing from the account is simulated through the control API, which also reads the hooks sent. While connected at least one hook is due (a second for the same message, a retry, is not judged: C18 of the review); after the disconnect none, over the whole 30 s window. Uses its own channel.',
        covers: ['3.2/connected', '4.3/Disconnect channel'] },
      {
        setup: async (t) => {
          const c = await ownConversation(t);
          await c.s.mustSend(c.s.payload(c.conv, c.s.client()));
          return c;
        },
        steps: [
          step<OwnConversation, number>('', async (t, c) => {
            await accountMessage(c.s, c.conv);
            c.hooksBefore = (await t.eventually(() => chatHookCount(t, c.scope), { within: POLICY_HOOK_WINDOW_MS, until: (n) => n >= 1 })).value;
            return c.hooksBefore;
          }, [someHooks('while connected')]),
          step<OwnConversation, number>('', async (t, c) => {
            await mustDisconnect(c.s);
            await accountMessage(c.s, c.conv);
            // A negative: watched for the whole window, in case a hook is still on its way.
            return (await t.eventually(() => chatHookCount(t, c.scope), { within: POLICY_HOOK_WINDOW_MS, until: (n) => n > c.hooksBefore })).value - c.hooksBefore;
          }, [valueIs(equals(0), 'no hook after disconnect', 'the new hooks after disconnect')]),
        ],
      },
    ),
    scenarioRule<{ s: ChatSession; other: string; conv: string; client: ParticipantBody }>(
      { id: 'chat.connection.integration-disconnect', needs: ['second-channel', 'second-account', 'operator'], exclusive: true,
        title: 'Disconnecting the integration in an account disconnects its chat channel there; a new installation leaves it disconnected until connect',
        reading: '§3.2 last row and §6: automatic; "the channel must be connected again after each new installation", so after the integration is installed again a message is still refused (any 4xx; the spec states no refusal, so an acceptance is non_strict, C20 and C21 of the review), and connect then succeeds and a message is accepted. Done in a second account through the control API (POST /_control/disconnect, then POST /_control/consent in that account), else by the operator, which uninstalls and reinstalls the integration there: exclusive.',
        covers: ['3.2/connected'] },
      {
        setup: async (t) => {
          const base = await spareChannel(t);
          const other = await secondAccountId(t, base.channel.accountId);
          const s = await chatSession(t, { ...base.channel, accountId: other });
          const conv = s.conversationId();
          const client = s.client();
          await s.mustSend(s.payload(conv, client));
          return { s, other, conv, client };
        },
        steps: [
          step('', async (t, f) => {
            await disconnectInChatAccount(t, f.other);
            return f.s.sendMessage(f.s.payload(f.conv, f.client));
          }, [refusedOrTaken('send after the integration disconnect')]),
          step('', async (t, f) => {
            await reinstallInChatAccount(t, f.other);
            return f.s.sendMessage(f.s.payload(f.conv, f.client));
          }, [refusedOrTaken('send after a new installation, before connect')]),
          step('connect again', (_t, f) => f.s.connect({}, {}, f.other), [status(200)]),
          step('connected again, send', (_t, f) => f.s.sendMessage(f.s.payload(f.conv, f.client)), [status(200)]),
        ],
      },
    ),
    scenarioRule<TwoAccounts>(
      { id: 'chat.connection.isolation', needs: ['second-account'], title: 'One account\'s scope never reads or writes another account\'s chats',
        reading: 'scope_id identifies the connection for one account (§2.4). The same conversation_id in two accounts is two chats; history, delivery status and reactions of one scope do not reach the other (security). Their chat-interface ids may be equal (the spec states no id space): only data crossing fails (C29 of the review). B\'s history of A\'s conversation is "a chat that does not exist": 204 passes, 200 with no messages is non_strict, 200 with A\'s messages or a refusal fails (R2-C13, R2-C14). B\'s history names A\'s chat by its conversation_id and by its chat-interface id (create chat\'s id); B\'s delivery status and reaction name A\'s message by both ids, the integration-side msgid and the chat-interface id; B\'s reaction also names A\'s chat by conversation_ref_id (A\'s chat-interface chat id), which must be refused (any 4xx: no chat of B\'s scope). Then every other handle a message under B\'s scope can name A\'s chat or message by (crossScopeSteps, issue 39): a quote (reply_to) and a forward of A\'s message by its ids, a forward by A\'s msgid whose forwards.conversation_id is A\'s conversation or whose forwards.conversation_ref_id is A\'s chat (400 passes; another 4xx, or taken with nothing of A\'s message in it, is non_strict; A\'s text resolved into it fails), a message whose conversation_ref_id is A\'s chat and an edit of A\'s message by msgid and by id (refused, any 4xx), and B\'s comment under A\'s conversation_id (taken as B\'s own; in A\'s chat it fails, read through the control API). Reading or changing A\'s chat by any of them is a must failure (§2.4); A\'s history at the end holds its message once with its text as sent. The second account comes from GET /_control/chat, else CHAT_ACCOUNT_ID_2.',
        covers: ['2.4/scope_id', '2.4/account_id'] },
      {
        setup: async (t) => {
          const a = await chatSession(t);
          return twoScopes(a, await chatSession(t, { ...a.channel, accountId: await secondAccountId(t, a.channel.accountId) }));
        },
        steps: [
          step<TwoAccounts, readonly string[]>('', async (_t, f) => f.scopes, [distinct('distinct scopes', 'the scope_ids of the two accounts')]),
          step('B reads A\'s conversation', (_t, f) => f.b.history(f.conv), [emptyHistory('no chat')]),
          // By A's chat-interface chat id too: whether the path takes it is open (chat.history.by-chat-id), but another scope must never reach it.
          step('B reads A\'s chat by its chat id', (_t, f) => f.b.history(f.chatA || f.conv), [emptyHistory('no chat')]),
          step('B sets A\'s delivery status by msgid', (_t, f) => f.b.deliveryStatus(f.inA, { status_code: 2 }), [status(404)]),
          step('B reacts in A by msgid', (_t, f) => f.b.react({ conversation_id: f.conv, msgid: f.inA, user: { id: f.client.id }, type: 'react', emoji: 'x' }), [status(404)]),
          // By the chat-interface id too: the id the delivery-status path names (C25), which another scope must not reach.
          step('B sets A\'s delivery status by id', (_t, f) => f.b.deliveryStatus(f.inAId || f.inA, { status_code: 2 }), [status(404)]),
          step('B reacts in A by id', (_t, f) => f.b.react({ conversation_id: f.conv, id: f.inAId || f.inA, user: { id: f.client.id }, type: 'react', emoji: 'x' }), [status(404)]),
          // The chat named by A's chat-interface id in conversation_ref_id (no conversation_id): another handle on A's chat.
          step('B reacts in A naming the chat by conversation_ref_id', (_t, f) => f.b.react({ conversation_ref_id: f.chatA || f.conv, msgid: f.inA, user: { id: f.client.id }, type: 'react', emoji: 'x' }), [clientError('refused')]),
          step('B reacts in A by id naming the chat by conversation_ref_id', (_t, f) => f.b.react({ conversation_ref_id: f.chatA || f.conv, id: f.inAId || f.inA, user: { id: f.client.id }, type: 'react', emoji: 'x' }), [clientError('refused')]),
          ...crossScopeSteps('B'),
          step<TwoAccounts, HistoryItem[]>('', async (_t, f) => {
            const inB = f.b.payload(f.conv, f.client);
            await f.b.mustSend(inB);
            f.sentInB = inB.msgid;
            return f.a.allHistory(f.conv, (i) => i.length >= 1);
          }, (_t, f) => [historyHolds('A unchanged', { once: [f.inA], none: [f.sentInB] }), textIs(f.inA, f.textA)]),
        ],
      },
    ),
    scenarioRule<TwoAccounts>(
      { id: 'chat.connection.channel-isolation', needs: ['second-channel'], title: 'A second channel connected in the same account never reads or writes the first channel\'s chats',
        reading: '§2.4: scope_id identifies the connection of one channel in one account, so two channels of one account are two scopes, and a chat of one is no chat of the other (security: reading or changing it fails). The second channel (the control API\'s, else CHANNEL_ID_2) is connected in the configured account; its history of the first channel\'s conversation, by conversation_id and by chat-interface id, is "a chat that does not exist" (204 passes, 200 with no messages is non_strict, 200 with the first channel\'s messages or a refusal fails); its delivery status and reaction naming the first channel\'s message by msgid, by id, and by the chat\'s conversation_ref_id are refused; then every other handle of chat.connection.isolation (crossScopeSteps: reply_to, forwards by ids, by forwards.conversation_id and by forwards.conversation_ref_id, conversation_ref_id, edits by msgid and by id, a comment), judged alike; its own message under the same conversation_id never shows in the first channel\'s history, and the first channel\'s message keeps its text.',
        covers: ['2.4/scope_id', '2.4/account_id'] },
      {
        setup: async (t) => {
          const a = await chatSession(t);
          const b = await spareChannel(t);
          if (b.channel.accountId !== a.channel.accountId) throw new Precondition('the second channel is connected in another account than the configured one');
          return twoScopes(a, b);
        },
        steps: [
          step<TwoAccounts, readonly string[]>('', async (_t, f) => f.scopes, [distinct('distinct scopes', 'the scope_ids of the two channels')]),
          step('the second channel reads the first\'s conversation', (_t, f) => f.b.history(f.conv), [emptyHistory('no chat')]),
          step('the second channel reads the first\'s chat by its chat id', (_t, f) => f.b.history(f.chatA || f.conv), [emptyHistory('no chat')]),
          step('the second channel sets the first\'s delivery status by msgid', (_t, f) => f.b.deliveryStatus(f.inA, { status_code: 2 }), [status(404)]),
          step('the second channel sets the first\'s delivery status by id', (_t, f) => f.b.deliveryStatus(f.inAId || f.inA, { status_code: 2 }), [status(404)]),
          step('the second channel reacts by msgid', (_t, f) => f.b.react({ conversation_id: f.conv, msgid: f.inA, user: { id: f.client.id }, type: 'react', emoji: 'x' }), [status(404)]),
          step('the second channel reacts naming the chat by conversation_ref_id', (_t, f) => f.b.react({ conversation_ref_id: f.chatA || f.conv, id: f.inAId || f.inA, user: { id: f.client.id }, type: 'react', emoji: 'x' }), [clientError('refused')]),
          step('the second channel reacts by msgid naming the chat by conversation_ref_id', (_t, f) => f.b.react({ conversation_ref_id: f.chatA || f.conv, msgid: f.inA, user: { id: f.client.id }, type: 'react', emoji: 'x' }), [clientError('refused')]),
          ...crossScopeSteps('the second channel'),
          step<TwoAccounts, HistoryItem[]>('', async (_t, f) => {
            const inB = f.b.payload(f.conv, f.client);
            await f.b.mustSend(inB);
            f.sentInB = inB.msgid;
            return f.a.allHistory(f.conv, (i) => i.length >= 1);
          }, (_t, f) => [historyHolds('first channel unchanged', { once: [f.inA], none: [f.sentInB] }), textIs(f.inA, f.textA)]),
        ],
      },
    ),
    sweepRule<ChatRouteName, HttpResponse, RouteFixture>(
      { id: 'chat.connection.disconnected-routes', level: 'should', title: 'After disconnect, every scope route under the old scope_id is refused (4xx): create chat, message, delivery status, history, typing, react',
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
    scenarioRule<TwoAccountsConversation>(
      { id: 'chat.disconnect.one-account', needs: ['second-channel', 'second-account'],
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
    scenarioRule<Disconnected>(
      { id: 'chat.connection.integration-disconnect-hooks', needs: ['counters'], exclusive: true,
        title: 'After the integration is disconnected in an account, a message from that account sends no outgoing-message hook (watched over the window)',
        reading: '§3.2: the channel is disconnected automatically; §6: hooks stop. Done in a second account through the control API (POST /_control/disconnect, a manager message through POST /_control/chat/account-message, hooks read from GET /_control/chat/hooks); exclusive, as it uninstalls the integration there.',
        covers: ['3.2/connected', '3.2/not connected'] },
      {
        setup: async (t) => {
          const base = await ownChannel(t);
          const other = await otherAccountId(t, base.channel.accountId);
          const info = await t.control.call<{ accounts: { id: number; amojo_id: string }[] }>('GET', '/chat');
          const numeric = info.accounts.find((a) => a.amojo_id === other)?.id;
          if (numeric === undefined) throw new Precondition('the control API gives no numeric id for the second chat account');
          const s = await chatSession(t, { ...base.channel, accountId: other });
          const scopeId = await s.scope();
          const conv = s.conversationId();
          await s.mustSend(s.payload(conv, s.client()));
          await accountWrites(s, conv, scopeId);
          // The hook while connected is watched for, over its window, not read once (C19 of the review).
          const before = await watchChatHooks(s, scopeId, 0);
          await t.control.call('POST', '/disconnect', { account_id: numeric });
          return { s, scopeId, conv, before };
        },
        teardown: async (_t, f) => { await f?.s.connect(); },
        steps: [
          step('while connected', async (_t, f) => f.before, [someHooks('for one account message while connected')]),
          step('after the integration disconnect', async (_t, f) => {
            await accountWrites(f.s, f.conv, f.scopeId);
            return (await watchChatHooks(f.s, f.scopeId, f.before)) - f.before;
          }, [hooksAre(0, 'after the integration disconnect')]),
        ],
      },
    ),
    scenarioRule<ChatSession>(
      { id: 'chat.repeated.disconnect',
        title: 'Disconnect of a channel never connected and disconnect twice answer without a 5xx, and connect then works',
        reading: '§4.3 disconnect answers 200 with no body; §3.2 shows no transition from not connected, so the answer to a disconnect that finds nothing connected is recorded, a refusal as much as a 200 (REPEAT_ANSWER, R2-C18); a 5xx fails. The channel must connect again afterwards (§3.2), and take a message. On a channel of its own.' },
      {
        setup: (t) => spareChannel(t),
        steps: [
          step<ChatSession>('disconnect before any connect', (_t, s) => s.disconnect(), [REPEAT_ANSWER]),
          step<ChatSession>('connect', (_t, s) => s.connect(), [status(200)]),
          step<ChatSession>('disconnect', (_t, s) => s.disconnect(), [status(200)]),
          step<ChatSession>('disconnect again', (_t, s) => s.disconnect(), [REPEAT_ANSWER]),
          step<ChatSession>('connect again', (_t, s) => s.connect(), [status(200)]),
          step<ChatSession>('a message afterwards', (_t, s) => s.sendMessage(s.payload(s.conversationId(), s.client())), [status(200)]),
        ],
      },
    ),
  ],
});
