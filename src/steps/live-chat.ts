/**
 * Chat fixtures for a target without a control API: a second channel registered beforehand (CHANNEL_ID_2,
 * CHANNEL_SECRET_2), which a rule may disconnect without disturbing the rules on the configured one, a second
 * account's chat-interface id (CHAT_ACCOUNT_ID_2), the configured channel's registered name (CHANNEL_NAME) and a
 * channel registered with a v1 hook address only (V1_CHANNEL_ID, V1_CHANNEL_SECRET). With a control API, the
 * control API's (src/steps/chat.ts, src/steps/channel-info.ts, src/steps/chat-conversation.ts).
 */
import { Precondition } from '../errors.js';
import type { RuleContext } from '../model/context.js';
import { disconnectIntegration, numericAccountId, type ChatSession } from './chat.js';
import { consentRedirect } from './lifecycle.js';
import { operatorStep } from './live-operator.js';

/** A session on a channel of the rule's own: registered through the control API, else the second channel of the settings. */
export async function spareChannel(t: RuleContext): Promise<ChatSession> {
  return t.need('second-channel');
}

/** The chat-interface id of another account than `mine`: the control API's, else CHAT_ACCOUNT_ID_2. */
export async function secondAccountId(t: RuleContext, mine: string): Promise<string> {
  return (await t.need('second-account'))(mine);
}

/**
 * The user disconnects the integration in the account with this chat-interface id: through the control API, else by
 * the operator.
 */
export async function disconnectInChatAccount(t: RuleContext, chatAccountId: string): Promise<void> {
  await operatorStep(t, {
    instruction: `disconnect integration ${t.credentials.clientId} in the account whose chat-interface id is ${chatAccountId} (its settings, as an administrator)`,
    control: async () => disconnectIntegration(t, await numericAccountId(t, chatAccountId)),
  });
}

/**
 * The user installs the integration again in the account with this chat-interface id (Allow on the access-granting
 * page, that account chosen): through the control API, else by the operator.
 */
export async function reinstallInChatAccount(t: RuleContext, chatAccountId: string): Promise<void> {
  await operatorStep(t, {
    instruction: `install integration ${t.credentials.clientId} again in the account whose chat-interface id is ${chatAccountId} (allow access on its page, choosing that account)`,
    control: async () => {
      const accountId = await numericAccountId(t, chatAccountId);
      if (accountId === undefined) throw new Precondition(`the control API gives no numeric account id for chat account ${chatAccountId}`);
      await consentRedirect(t, { accountId });
    },
  });
}

/** The configured channel's registered name (§2.4: a connection's default title): the control API's, else CHANNEL_NAME. */
export async function configuredChannelName(t: RuleContext): Promise<string> {
  return t.need('channel-name');
}

/**
 * A session on a channel whose settings hold a v1 hook address only (§2.4), in the configured account: registered
 * through the control API, else V1_CHANNEL_ID of the settings, a channel no other rule connects.
 */
export async function v1OnlyChannel(t: RuleContext): Promise<ChatSession> {
  return t.need('v1-only-channel');
}
