/**
 * Values from the settings (docs/design.md §4), made or read beforehand by whoever runs the staging account: a code,
 * a long-lived token, a second channel, account, integration or account address, names and ids the page and the lists
 * must show or hide. The plan hands a need to this provider only when every key of its settings is set.
 */
import { SkipRule } from '../../errors.js';
import type { RuleContext, RunResource } from '../../model/context.js';
import type { HookApiVersion } from '../../model/target.js';
import { chatSession, configuredChannel } from '../../steps/chat.js';
import { FOREIGN_IDS_PER_LIST } from '../../steps/other-account.js';
import type { Provider } from './types.js';

/** The single AUTH_CODE of the settings, handed out once per run. */
class OneCode implements RunResource {
  #code: string | undefined;

  constructor(code: string) {
    this.#code = code;
  }

  take(): string | undefined {
    const code = this.#code;
    this.#code = undefined;
    return code;
  }

  async close(): Promise<void> {}
}

/**
 * A session on a channel of the settings, in the configured account: CHANNEL_ID_2 holds the hook address of the
 * configured version (CHANNEL_HOOK_API_VERSION), V1_CHANNEL_ID a v1 address only.
 */
async function channelOfSettings(t: RuleContext, channelId: string, secret: string, o: { readonly withManager: boolean; readonly hookApiVersion?: HookApiVersion }) {
  const base = configuredChannel(t);
  t.masker.add(secret);
  const hookApiVersion = o.hookApiVersion ?? base.hookApiVersion;
  return chatSession(t, { channelId, secret, accountId: base.accountId, ...(o.withManager && base.managerUserId && { managerUserId: base.managerUserId }), ...(hookApiVersion && { hookApiVersion }) });
}

export const settingsProvider: Provider = {
  source: 'settings',
  offers: {
    'one-code': (t) => ({
      code: async (clientId) => {
        if (clientId) throw new SkipRule(`needs fresh-code: AUTH_CODE is a code of CLIENT_ID, not of ${clientId}`);
        const code = (await t.resource('auth-code', async () => new OneCode(t.credentials.authCode!))).take();
        if (!code) throw new SkipRule(`needs fresh-code: AUTH_CODE was used by ${t.target.authCodeRule ?? 'another rule'}`);
        return code;
      },
    }),
    'access-token': (t) => t.credentials.longLivedToken!,
    'long-lived-token': (t) => async () => ({ token: t.credentials.longLivedToken! }),
    'second-integration': (t) => {
      const client = t.credentials.secondClient!;
      t.masker.add(client.clientSecret);
      return client;
    },
    'private-integration': (t) => t.credentials.privateClientId!,
    'integration-name': (t) => t.credentials.integrationName!,
    'channel-name': (t) => t.credentials.channelName!,
    'v1-only-channel': (t) => channelOfSettings(t, t.credentials.v1ChannelId!, t.credentials.v1ChannelSecret!, { withManager: false, hookApiVersion: 'v1' }),
    // The configuration check made sure the name holds a non-ASCII character; the rule's own name is not used.
    'non-ascii-record': (t) => async () => ({ ...t.credentials.nonAsciiLead! }),
    'foreign-records': (t) => async (list) => [...(t.credentials.otherAccountRecordIds![list] ?? [])].slice(0, FOREIGN_IDS_PER_LIST),
    'second-channel': (t) => channelOfSettings(t, t.credentials.channelId2!, t.credentials.channelSecret2!, { withManager: true }),
    'other-channel-secret': (t) => {
      const secret = t.credentials.channelSecret2!;
      t.masker.add(secret);
      return secret;
    },
    'second-account': (t) => async (mine) => {
      const other = t.credentials.chatAccountId2!;
      if (other === mine) throw new SkipRule('needs second-account: CHAT_ACCOUNT_ID_2 names the same account as CHAT_ACCOUNT_ID');
      return other;
    },
    'second-base-url': (t) => async () => t.credentials.baseUrl2!,
    'restricted-token': (t) => {
      const restricted = t.credentials.restrictedUser!;
      t.masker.add(restricted.token);
      return restricted;
    },
    'member-account': (t) => ({ members: [t.credentials.memberAccount!] }),
  },
};
