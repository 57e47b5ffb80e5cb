/**
 * §3.2 last row and §6: when the integration is disconnected in an account, its channel is disconnected there and the
 * outgoing-message hooks of that account stop. Watched over the whole effect window, not read once.
 */
import {
  accountWrites, chatSession, type ChatSession, defineSpec, hooksAre, otherAccountId, ownChannel, Precondition, scenarioRule, someHooks, step, watchChatHooks,
} from './kit.js';

interface Disconnected {
  readonly s: ChatSession;
  readonly scopeId: string;
  readonly conv: string;
  /** Hooks of the scope while connected, after one account message. */
  readonly before: number;
}

export default defineSpec({
  section: '3.2',
  title: 'Channel connection: hooks after the integration is disconnected',
  level: 'must',
  rules: [
    scenarioRule<Disconnected>(
      { id: 'chat.connection.integration-disconnect-hooks', requires: ['write'], needs: ['counters'], exclusive: true,
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
  ],
});
