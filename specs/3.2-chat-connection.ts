/**
 * §3.2 Channel connection: connect → send → disconnect → connect again; hooks stop after a disconnect (§6); a
 * disconnect of the integration disconnects the channel (§6 last line); one account's scope never reaches another's
 * chats. Rules that disconnect use a channel of their own (registered through the control API, else the second
 * channel of the settings), so that rules sharing the configured channel are not disturbed.
 */
import {
  accountMessage, chatHookCount, chatSession, ChatSession, defineSpec, disconnectInChatAccount, distinct, equals, historyHolds, type HistoryItem, HOOK_WINDOW_MS, type ParticipantBody, Precondition, refusedOrTaken, reinstallInChatAccount, type RuleContext, scenarioRule, someHooks, secondAccountId, spareChannel, status, step, valueIs, isSuccess,
} from './kit.js';

/** A conversation of the rule's own on its channel. */
interface OwnConversation {
  readonly s: ChatSession;
  readonly scope: string;
  readonly conv: string;
  readonly client: ParticipantBody;
  /** Hooks seen while connected, for the step after the disconnect. */
  hooksBefore: number;
}

async function ownConversation(t: RuleContext): Promise<OwnConversation> {
  const s = await spareChannel(t);
  return { s, scope: await s.scope(), conv: s.conversationId(), client: s.client(), hooksBefore: 0 };
}

/** Two accounts' sessions on the configured channel and a message in A's conversation. */
interface TwoAccounts {
  readonly a: ChatSession;
  readonly b: ChatSession;
  readonly scopes: readonly [string, string];
  readonly conv: string;
  readonly client: ParticipantBody;
  readonly inA: string;
  /** B's message in the same conversation_id, which A's history must not show. */
  sentInB: string;
}

export default defineSpec({
  section: '3.2',
  title: 'Channel connection: states and transitions',
  level: 'must',
  rules: [
    scenarioRule<OwnConversation>(
      { id: 'chat.connection.lifecycle', requires: ['write'], needs: ['second-channel'], title: 'connect → send → disconnect → sending is refused → connect again → sending works',
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
            c.hooksBefore = (await t.eventually(() => chatHookCount(t, c.scope), { within: HOOK_WINDOW_MS, until: (n) => n >= 1 })).value;
            return c.hooksBefore;
          }, [someHooks('while connected')]),
          step<OwnConversation, number>('', async (t, c) => {
            await mustDisconnect(c.s);
            await accountMessage(c.s, c.conv);
            // A negative: watched for the whole window, in case a hook is still on its way.
            return (await t.eventually(() => chatHookCount(t, c.scope), { within: HOOK_WINDOW_MS, until: (n) => n > c.hooksBefore })).value - c.hooksBefore;
          }, [valueIs(equals(0), 'no hook after disconnect', 'the new hooks after disconnect')]),
        ],
      },
    ),
    scenarioRule<{ s: ChatSession; other: string; conv: string; client: ParticipantBody }>(
      { id: 'chat.connection.integration-disconnect', requires: ['write'], needs: ['second-channel', 'second-account', 'operator'], exclusive: true,
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
      { id: 'chat.connection.isolation', requires: ['write'], needs: ['second-account'], title: 'One account\'s scope never reads or writes another account\'s chats',
        reading: 'scope_id identifies the connection for one account (§2.4). The same conversation_id in two accounts is two chats; history, delivery status and reactions of one scope do not reach the other (security). Their chat-interface ids may be equal (the spec states no id space): only data crossing fails (C29 of the review). B\'s history of A\'s conversation is "a chat that does not exist": 204 passes, 404 is non_strict. The second account comes from GET /_control/chat, else CHAT_ACCOUNT_ID_2.',
        covers: ['2.4/scope_id', '2.4/account_id'] },
      {
        setup: async (t) => {
          const a = await chatSession(t);
          const b = await chatSession(t, { ...a.channel, accountId: await secondAccountId(t, a.channel.accountId) });
          const scopes = [await a.scope(), await b.scope()] as const;
          const conv = a.conversationId();
          const client = a.client();
          return { a, b, scopes, conv, client, inA: scopes[0] === scopes[1] ? '' : (await a.mustSend(a.payload(conv, client))).msgid, sentInB: '' };
        },
        steps: [
          step<TwoAccounts, readonly string[]>('', async (_t, f) => f.scopes, [distinct('distinct scopes', 'the scope_ids of the two accounts')]),
          step('B reads A\'s conversation', (_t, f) => f.b.history(f.conv), [status(204, { also: [404] })]),
          step('B sets A\'s delivery status', (_t, f) => f.b.deliveryStatus(f.inA, { status_code: 2 }), [status(404)]),
          step('B reacts in A', (_t, f) => f.b.react({ conversation_id: f.conv, msgid: f.inA, user: { id: f.client.id }, type: 'react', emoji: 'x' }), [status(404)]),
          step<TwoAccounts, readonly HistoryItem[]>('', async (_t, f) => {
            const inB = f.b.payload(f.conv, f.client);
            await f.b.mustSend(inB);
            f.sentInB = inB.msgid;
            return f.a.allHistory(f.conv, (i) => i.length >= 1);
          }, (_t, f) => [historyHolds('A unchanged', { once: [f.inA], none: [f.sentInB] })]),
        ],
      },
    ),
  ],
});

/** Disconnects the channel as a step the rule needs (the lifecycle rule judges the disconnect itself). */
async function mustDisconnect(s: ChatSession): Promise<void> {
  const off = await s.disconnect();
  if (!isSuccess(off.status)) throw new Precondition(`disconnect answered ${off.status}`);
}
