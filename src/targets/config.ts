/**
 * What the kit knows about a target: its URLs, credentials and capabilities.
 * Built from the environment (docs/design.md §4) for a remote target, or from the emulator's own description.
 */
import type { Capability } from '../model/rule.js';

export type TargetKind = 'emulator' | 'remote';

/** Every key of docs/design.md §4, in the order env.example lists them. */
export const ENV_KEYS = [
  'CONFORMANCE_TARGET', 'BASE_URL', 'AUTH_URL', 'CHAT_URL', 'CONTROL_URL', 'CLIENT_ID', 'CLIENT_SECRET',
  'REDIRECT_URI', 'AUTH_CODE', 'REFRESH_TOKEN', 'LONG_LIVED_TOKEN', 'CHANNEL_ID', 'CHANNEL_SECRET',
  'CHAT_ACCOUNT_ID', 'BOT_ID', 'MANAGER_USER_ID', 'HOOK_LISTEN', 'CONFORMANCE_BROWSER', 'RATE_LIMIT_RPS', 'CONFORMANCE_SEED',
  'TOKEN_STORE',
] as const;
export type EnvKey = (typeof ENV_KEYS)[number];

/** Keys whose values are secrets: never printed, always masked (docs/design.md §6). */
export const SECRET_KEYS: readonly EnvKey[] = ['CLIENT_SECRET', 'AUTH_CODE', 'REFRESH_TOKEN', 'LONG_LIVED_TOKEN', 'CHANNEL_SECRET'];

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
  /** Client-side request ceiling for remote targets. */
  readonly rateLimitRps?: number;
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
}
