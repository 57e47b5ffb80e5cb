/**
 * How `conformance emulator` makes the values of the catalogue's settings (src/needs/catalogue.ts, src/needs/settings.ts):
 * each made or read once through the standalone emulator's control API, as a staging account's administrator would
 * make them by hand, so that a run with CONTROL_URL removed takes the live paths.
 */
import { randomBytes } from 'node:crypto';
import { LISTS } from '../protocol/filters.js';
import { FOREIGN_IDS_PER_LIST } from '../steps/other-account.js';

/** The emulator's own settings and its control API. */
export interface EmulatorApi {
  readonly env: Readonly<Record<string, string | undefined>>;
  control<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T>;
}

/** A year: the long-lived token the emulator gives outlives any run made from its settings. */
const LONG_LIVED_SECONDS = 365 * 86_400;

type Source = (api: EmulatorApi) => Promise<Record<string, string>>;

/** Types a maker (the values it returns are strings, keyed by setting). */
const source = (make: Source): Source => make;

interface ChatView {
  readonly accounts: readonly { readonly amojo_id: string }[];
  readonly channels: readonly { readonly id: string; readonly name: string }[];
}

interface IntegrationView {
  readonly client_id: string;
  readonly name: string;
  readonly private: boolean;
  readonly redirect_uri: string;
}

/** A chat channel registered with a fresh secret (and only the given hook versions' addresses). */
async function registerChannel(api: EmulatorApi, name: string, hookVersions?: readonly ('v1' | 'v2')[]): Promise<{ id: string; secret: string }> {
  const secret = randomBytes(32).toString('hex');
  const { id } = await api.control<{ id: string }>('POST', '/chat/channels', { secret, name, ...(hookVersions ? { hook_versions: hookVersions } : {}) });
  return { id, secret };
}

const integrations = async (api: EmulatorApi) => (await api.control<{ integrations: IntegrationView[] }>('GET', '/integrations')).integrations;

/** A value only when the emulator has one to give. */
const when = (key: string, value: string | undefined): Record<string, string> => (value === undefined ? {} : { [key]: value });

export const EMULATOR_SOURCES = {
  adminLogin: source(async (api) => {
    const login = await api.control<{ login: string; password: string }>('GET', '/login');
    return { ADMIN_LOGIN: login.login, ADMIN_PASSWORD: login.password };
  }),
  longLivedToken: source(async (api) => {
    const { now } = await api.control<{ now: number }>('GET', '/clock');
    const made = await api.control<{ long_lived_token: string }>('POST', '/long-lived-tokens', { expires_at: now + LONG_LIVED_SECONDS });
    return { LONG_LIVED_TOKEN: made.long_lived_token };
  }),
  secondChannel: source(async (api) => {
    const second = await registerChannel(api, 'Second channel (CHANNEL_ID_2)');
    return { CHANNEL_ID_2: second.id, CHANNEL_SECRET_2: second.secret };
  }),
  v1OnlyChannel: source(async (api) => {
    const v1Only = await registerChannel(api, 'Channel with a v1 hook address only (V1_CHANNEL_ID)', ['v1']);
    return { V1_CHANNEL_ID: v1Only.id, V1_CHANNEL_SECRET: v1Only.secret };
  }),
  secondAccount: source(async (api) => {
    const chat = await api.control<ChatView>('GET', '/chat');
    return when('CHAT_ACCOUNT_ID_2', chat.accounts.find((a) => a.amojo_id !== api.env.CHAT_ACCOUNT_ID)?.amojo_id);
  }),
  channelName: source(async (api) => {
    const chat = await api.control<ChatView>('GET', '/chat');
    return when('CHANNEL_NAME', chat.channels.find((c) => c.id === api.env.CHANNEL_ID)?.name);
  }),
  integrationName: source(async (api) => when('INTEGRATION_NAME', (await integrations(api)).find((i) => i.client_id === api.env.CLIENT_ID)?.name)),
  privateIntegration: source(async (api) => when('PRIVATE_CLIENT_ID', (await integrations(api)).find((i) => i.private)?.client_id)),
  /**
   * The integration beside CLIENT_ID as a second integration of the developer: its id and Redirect URI, and a secret key
   * set now, since the control API never shows one.
   */
  secondIntegration: source(async (api) => {
    const other = (await integrations(api)).find((i) => i.client_id !== api.env.CLIENT_ID);
    if (!other) return when('CLIENT_ID_2', undefined);
    const { client_secret } = await api.control<{ client_secret: string }>('POST', '/secret', { client_id: other.client_id });
    return { CLIENT_ID_2: other.client_id, CLIENT_SECRET_2: client_secret, REDIRECT_URI_2: other.redirect_uri };
  }),
  nonAsciiLead: source(async (api) => {
    const lead = await api.control<{ id: number; name: string }>('POST', '/lists/leads/records', { name: `Сделка ${randomBytes(4).toString('hex')} 😀` });
    return { NON_ASCII_LEAD_ID: String(lead.id), NON_ASCII_LEAD_NAME: lead.name };
  }),
  /** A year-long token of the user who may see only his own deals (GET /_control/users), as his administrator would make one. */
  restrictedUser: source(async (api) => {
    const { users } = await api.control<{ users: { id: number; deals: string }[] }>('GET', '/users');
    const user = users.find((u) => u.deals === 'own');
    if (!user) return when('RESTRICTED_USER_ID', undefined);
    const { now } = await api.control<{ now: number }>('GET', '/clock');
    const made = await api.control<{ long_lived_token: string }>('POST', '/long-lived-tokens', { expires_at: now + LONG_LIVED_SECONDS, user_id: user.id });
    return { RESTRICTED_ACCESS_TOKEN: made.long_lived_token, RESTRICTED_USER_ID: String(user.id) };
  }),
  /** Ids of another account's records, as many per list as a rule names (FOREIGN_IDS_PER_LIST), none this account holds. */
  otherAccountRecordIds: source(async (api) => {
    const parts: string[] = [];
    for (const list of LISTS) {
      const ids = async (query: string) => (await api.control<{ records: { id: number }[] }>('GET', `/lists/${list}${query}`)).records.map((r) => r.id);
      const own = new Set(await ids(''));
      const foreign = (await ids('?account=other')).filter((id) => !own.has(id)).slice(0, FOREIGN_IDS_PER_LIST);
      if (foreign.length > 0) parts.push(`${list}:${foreign.join(',')}`);
    }
    return when('OTHER_ACCOUNT_RECORD_IDS', parts.length > 0 ? parts.join(';') : undefined);
  }),
};
