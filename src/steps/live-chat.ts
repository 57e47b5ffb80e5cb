/**
 * Chat fixtures for a target without a control API: a second channel registered beforehand (CHANNEL_ID_2,
 * CHANNEL_SECRET_2), which a rule may disconnect without disturbing the rules on the configured one, a second
 * account's chat-interface id (CHAT_ACCOUNT_ID_2), the configured channel's registered name (CHANNEL_NAME) and a
 * channel registered with a v1 hook address only (V1_CHANNEL_ID, V1_CHANNEL_SECRET). With a control API, the
 * control API's (src/steps/chat.ts, src/steps/channel-info.ts, src/steps/chat-conversation.ts).
 */
import { Precondition, SkipRule } from '../errors.js';
import type { RuleContext } from '../model/context.js';
import { requireNeed } from '../targets/needs.js';
import { channelName } from './channel-info.js';
import { chatSession, configuredChannel, disconnectIntegration, numericAccountId, otherAccountId, ownChannel, type ChatSession } from './chat.js';
import { consentRedirect } from './lifecycle.js';
import { operatorStep } from './live-operator.js';

/** A session on a channel of the rule's own: registered through the control API, else the second channel of the settings. */
export async function spareChannel(t: RuleContext): Promise<ChatSession> {
  if (t.target.capabilities.includes('control')) return ownChannel(t);
  requireNeed('second-channel', t.target);
  const base = configuredChannel(t);
  const c = t.credentials;
  t.masker.add(c.channelSecret2);
  return chatSession(t, { channelId: c.channelId2!, secret: c.channelSecret2!, accountId: base.accountId, ...(base.managerUserId && { managerUserId: base.managerUserId }) });
}

/** The chat-interface id of another account than `mine`: the control API's, else CHAT_ACCOUNT_ID_2. */
export async function secondAccountId(t: RuleContext, mine: string): Promise<string> {
  if (t.target.capabilities.includes('control')) return otherAccountId(t, mine);
  requireNeed('second-account', t.target);
  const other = t.credentials.chatAccountId2!;
  if (other === mine) throw new SkipRule('needs second-account: CHAT_ACCOUNT_ID_2 names the same account as CHAT_ACCOUNT_ID');
  return other;
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
  const { channelId } = configuredChannel(t);
  if (t.target.capabilities.includes('control')) return channelName(t, channelId);
  requireNeed('channel-name', t.target);
  return t.credentials.channelName!;
}

/**
 * A session on a channel whose settings hold a v1 hook address only (§2.4), in the configured account: registered
 * through the control API, else V1_CHANNEL_ID of the settings, a channel no other rule connects.
 */
export async function v1OnlyChannel(t: RuleContext): Promise<ChatSession> {
  if (t.target.capabilities.includes('control')) return ownChannel(t, { hookVersions: ['v1'] });
  requireNeed('v1-only-channel', t.target);
  const base = configuredChannel(t);
  const c = t.credentials;
  t.masker.add(c.v1ChannelSecret);
  return chatSession(t, { channelId: c.v1ChannelId!, secret: c.v1ChannelSecret!, accountId: base.accountId });
}
