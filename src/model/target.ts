/**
 * What the kit knows about a target, as rules see it: its URLs, credentials and capabilities.
 * src/targets builds it from the environment (docs/design.md §4) or from the emulator's own description.
 */
import type { HostRule } from '../host-resolve.js';

/** What a target has to offer for a rule to run (docs/design.md §2). */
export type Capability = 'control' | 'browser' | 'hook' | 'write';

export const CAPABILITIES: readonly Capability[] = ['control', 'browser', 'hook', 'write'];

export type TargetKind = 'emulator' | 'remote';

/** HTTPS_PROXY (https URLs), HTTP_PROXY (http URLs) and NO_PROXY (the hosts reached directly), as curl reads them. */
export interface ProxySettings {
  readonly httpsProxy?: string;
  readonly httpProxy?: string;
  readonly noProxy?: string;
}

/** §2.4 hook_api_version: the format of the hooks a connection sends, each with its address in the channel's settings. */
export type HookApiVersion = 'v1' | 'v2';

export const HOOK_API_VERSIONS: readonly HookApiVersion[] = ['v1', 'v2'];


export interface Credentials {
  readonly clientId: string;
  readonly clientSecret: string;
  readonly redirectUri: string;
  readonly authCode?: string;
  readonly refreshToken?: string;
  readonly longLivedToken?: string;
  readonly channelId?: string;
  readonly channelSecret?: string;
  readonly chatAccountId?: string;
  readonly botId?: string;
  readonly managerUserId?: string;
  /**
   * CHANNEL_HOOK_API_VERSION: the hook version whose address the settings of CHANNEL_ID (and CHANNEL_ID_2) hold, which
   * every connect of the run asks for; absent means v1, §2.4's default.
   */
  readonly channelHookApiVersion?: HookApiVersion;
  /** The administrator's login on the access-granting page (ADMIN_LOGIN), for driving the page without a control API. */
  readonly adminLogin?: string;
  /** ADMIN_PASSWORD: a secret. */
  readonly adminPassword?: string;
  /** A second chat channel registered beforehand (CHANNEL_ID_2, CHANNEL_SECRET_2), for rules that disconnect one. */
  readonly channelId2?: string;
  readonly channelSecret2?: string;
  /** The chat-interface id of a second account (CHAT_ACCOUNT_ID_2), for the isolation of scopes. */
  readonly chatAccountId2?: string;
  /** The client id of a private integration of the account (PRIVATE_CLIENT_ID). */
  readonly privateClientId?: string;
  /** The integration's name as the access-granting page shows it (INTEGRATION_NAME). */
  readonly integrationName?: string;
  /** The configured channel's registered name (CHANNEL_NAME), a connection's default title (§2.4). */
  readonly channelName?: string;
  /** A second integration of the developer (CLIENT_ID_2, CLIENT_SECRET_2, REDIRECT_URI_2), for the binding rules. */
  readonly secondClient?: ClientRegistration;
  /** A channel whose settings hold a v1 hook address only (V1_CHANNEL_ID, V1_CHANNEL_SECRET). */
  readonly v1ChannelId?: string;
  readonly v1ChannelSecret?: string;
  /** A lead of the account named in non-ASCII characters (NON_ASCII_LEAD_ID, NON_ASCII_LEAD_NAME). */
  readonly nonAsciiLead?: { readonly id: number; readonly name: string };
  /** A token granted by a user who may see only his own deals, and his id (RESTRICTED_ACCESS_TOKEN, RESTRICTED_USER_ID). */
  readonly restrictedUser?: { readonly token: string; readonly userId: number };
  /** Ids of another account's records per list (OTHER_ACCOUNT_RECORD_IDS), which this account must never show. */
  readonly otherAccountRecordIds?: Readonly<Record<string, readonly number[]>>;
  /** The address ({base_url}) of a second account, other than the one the run's tokens are granted in (BASE_URL_2). */
  readonly baseUrl2?: string;
  /** An account where ADMIN_LOGIN is only a member, as its id or its domain (MEMBER_ACCOUNT): the page must not offer it. */
  readonly memberAccount?: string;
}

/** An integration's credentials at the token endpoint: its id, secret key and registered Redirect URI. */
export interface ClientRegistration {
  readonly clientId: string;
  readonly clientSecret: string;
  readonly redirectUri: string;
}

/** Every credential that is a secret: the masker learns all of them before a rule can print one. */
export function secretCredentials(c: Credentials): readonly (string | undefined)[] {
  return [c.clientSecret, c.authCode, c.refreshToken, c.longLivedToken, c.channelSecret, c.channelSecret2, c.adminPassword, c.secondClient?.clientSecret, c.v1ChannelSecret, c.restrictedUser?.token];
}

export interface TargetConfig {
  readonly kind: TargetKind;
  /** `{base_url}`: serves /oauth2/access_token and /api/v4. No trailing slash. */
  readonly baseUrl: string;
  /** `{auth_url}`: serves /oauth, the access-granting page. */
  readonly authUrl: string;
  /** `{chat_url}`: serves /v2/origin/custom/... */
  readonly chatUrl: string;
  /** The control API (docs/design.md §5), when the target has one. */
  readonly controlUrl?: string;
  readonly credentials: Credentials;
  /** host:port the kit listens on for the disconnect hook. */
  readonly hookListen?: string;
  /** Host names the kit resolves itself (HOST_RESOLVE, src/host-resolve.ts): split DNS, the deployed shape. */
  readonly hostRules?: readonly HostRule[];
  /** CA certificates (PEM) the kit trusts beside the system's (CA_FILE, src/trust.ts): a private CA's server certificates. */
  readonly ca?: string;
  /** The proxies the kit's requests go through (HTTPS_PROXY, HTTP_PROXY, NO_PROXY, as curl reads them). */
  readonly proxy?: ProxySettings;
  /** Client-side request ceiling of the account API and OAuth on remote targets (RATE_LIMIT_RPS). */
  readonly rateLimitRps?: number;
  /** Client-side request ceiling of the chat interface, a service of its own (CHAT_RATE_LIMIT_RPS). */
  readonly chatRateLimitRps?: number;
  readonly capabilities: readonly Capability[];
  /** Where the token pair of a remote target is kept (TOKEN_STORE, default .tokens.json). */
  readonly tokenStore?: string;
  /** Why each missing capability is missing, for the skip reasons. */
  readonly gaps?: Partial<Record<Capability, string>>;
  /**
   * A second instance of the same target where the `exclusive` rules run one at a time, beside the others instead
   * of alone after them (they move its clock or change its keys). Only the embedded emulator has one.
   */
  readonly sandbox?: TargetConfig;
  /**
   * The longest the kit watches for an asynchronous effect (a hook, a message showing in a history), in milliseconds,
   * whatever window a rule asks for. Unset: the rule's own window on a remote target, and EMULATOR_EFFECT_WINDOW_MS (src/effect-window.ts)
   * on the embedded emulator, whose effects happen before its answer (docs/verdicts.md).
   */
  readonly effectWindowMs?: number;
  /** A person at a terminal can be asked to act (the operator steps); false in CI and without a TTY. */
  readonly interactive?: boolean;
  /**
   * --profile soak: rules that need time to pass may wait in real time, up to this many seconds, when the target's
   * clock cannot be moved. Unset: no real-time waits.
   */
  readonly soakWindowSeconds?: number;
  /** The rule that the one AUTH_CODE of the settings is kept for, when nothing else can mint codes. */
  readonly authCodeRule?: string;
  /**
   * The settings of docs/design.md §4 that are set, by key, checked: what the settings provider reads a need's value
   * from (src/needs/providers/settings.ts), and what decides whether the settings can supply it.
   */
  readonly settings?: Readonly<Record<string, string>>;
}
