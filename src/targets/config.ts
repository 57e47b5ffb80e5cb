/**
 * What the kit knows about a target: its URLs, credentials and capabilities.
 * Built from the environment (docs/design.md §4) for a remote target, or from the emulator's own description.
 */
import type { Credentials, TargetConfig, TargetKind } from '../model/target.js';

export type { Credentials, TargetConfig, TargetKind };

/** Every key of docs/design.md §4, in the order env.example lists them. */
export const ENV_KEYS = [
  'CONFORMANCE_TARGET', 'BASE_URL', 'AUTH_URL', 'CHAT_URL', 'CONTROL_URL', 'CLIENT_ID', 'CLIENT_SECRET',
  'REDIRECT_URI', 'AUTH_CODE', 'REFRESH_TOKEN', 'LONG_LIVED_TOKEN', 'CHANNEL_ID', 'CHANNEL_SECRET',
  'CHAT_ACCOUNT_ID', 'BOT_ID', 'MANAGER_USER_ID', 'HOOK_LISTEN', 'CONFORMANCE_BROWSER', 'RATE_LIMIT_RPS', 'EFFECT_WINDOW_MS', 'CONFORMANCE_SEED',
  'TOKEN_STORE', 'ADMIN_LOGIN', 'ADMIN_PASSWORD', 'CHANNEL_ID_2', 'CHANNEL_SECRET_2', 'CHAT_ACCOUNT_ID_2',
  'INTEGRATION_NAME', 'PRIVATE_CLIENT_ID', 'CHANNEL_NAME', 'CLIENT_ID_2', 'CLIENT_SECRET_2', 'REDIRECT_URI_2',
  'V1_CHANNEL_ID', 'V1_CHANNEL_SECRET', 'NON_ASCII_LEAD_ID', 'NON_ASCII_LEAD_NAME', 'OTHER_ACCOUNT_RECORD_IDS',
  'BASE_URL_2', 'MEMBER_ACCOUNT',
] as const;
export type EnvKey = (typeof ENV_KEYS)[number];

/** Keys whose values are secrets: never printed, always masked (docs/design.md §6). */
export const SECRET_KEYS: readonly EnvKey[] = [
  'CLIENT_SECRET', 'AUTH_CODE', 'REFRESH_TOKEN', 'LONG_LIVED_TOKEN', 'CHANNEL_SECRET', 'ADMIN_PASSWORD', 'CHANNEL_SECRET_2', 'CLIENT_SECRET_2',
  'V1_CHANNEL_SECRET',
];
