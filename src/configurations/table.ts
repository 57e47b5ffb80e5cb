/**
 * The configurations users run the kit in, as data (issue 37): which settings each has and lacks, and what that changes
 * for the rules (which needs and capabilities it is missing, which credential is "the run's access token", which hook
 * version the channel has). A run names the configuration its settings make (`configurationOf`, src/configurations/
 * detect.ts) in report.json and in its header; the kit's own tests run the whole suite in each
 * (test/configurations/suite.test.ts) and the faults whose catching rules run differently there
 * (test/configurations/faults.test.ts); docs/faults.md says per fault which configurations catch it.
 */
import type { Need } from '../model/needs.js';
import type { Capability, TargetKind } from '../model/target.js';

export type ConfigurationName = 'embedded' | 'remote-control' | 'staging' | 'one-account';

/** A setting the configuration has (`present`), lacks (`absent`), or has with one value (`value`). */
export interface SettingCondition {
  readonly key: string;
  readonly present: boolean;
  /** The value it has, when present and the value matters (CHANNEL_HOOK_API_VERSION). */
  readonly value?: string;
}

/** How the kit's own tests make the configuration from the standalone emulator's printed settings. */
export interface FromEmulator {
  /** Printed keys dropped. */
  readonly drop: readonly string[];
  /** Keys set to the value of another printed key (`CHANNEL_ID: 'V1_CHANNEL_ID'`), applied before `drop`. */
  readonly copy?: Readonly<Record<string, string>>;
  /** Keys set to a value. */
  readonly set?: Readonly<Record<string, string>>;
  /**
   * The configured channel becomes the printed channel of this key (`V1_CHANNEL_ID`): CHANNEL_ID and CHANNEL_SECRET
   * take its id and secret, CHANNEL_NAME and BOT_ID its name and bot id (read through the emulator's control API), as
   * the settings of a team whose channel it is would name them.
   */
  readonly channel?: { readonly id: string; readonly secret: string };
}

export interface Configuration {
  readonly name: ConfigurationName;
  readonly title: string;
  readonly target: TargetKind;
  /** The settings that make it (beyond the target's own URLs, integration and channel, which every one has). */
  readonly settings: readonly SettingCondition[];
  /** A person at the terminal can be asked to act (false: a CI job). */
  readonly operator: boolean;
  /** The credential kind "the run's access token" is (src/needs/credentials.ts). */
  readonly accessToken: 'oauth-access' | 'refreshed-access' | 'long-lived';
  /** The hook version the configured channel has (CHANNEL_HOOK_API_VERSION). */
  readonly hookApiVersion: 'v1' | 'v2';
  /** Capabilities it lacks: rules requiring them are skipped, saying so. */
  readonly lacks: readonly Capability[];
  /** Needs it cannot supply: the rules needing them are skipped, each naming what would let it run. */
  readonly missing: readonly Need[];
  /** What else it changes for the rules, in words (the report and docs show them). */
  readonly changes: readonly string[];
  /** For the kit's own tests: how the standalone emulator's printed settings become this configuration (undefined: embedded). */
  readonly fromEmulator?: FromEmulator;
}

/** What only a control API supplies (src/needs/catalogue.ts: rows whose sole source is `control`). */
const CONTROL_ONLY: readonly Need[] = ['restricted-refresh-token', 'ground-truth', 'counters'];

/** The keys of a second account, a second channel and a second integration. */
export const SECOND_KEYS = {
  account: ['CHAT_ACCOUNT_ID_2', 'BASE_URL_2', 'OTHER_ACCOUNT_RECORD_IDS'],
  channel: ['CHANNEL_ID_2', 'CHANNEL_SECRET_2'],
  integration: ['CLIENT_ID_2', 'CLIENT_SECRET_2', 'REDIRECT_URI_2'],
} as const;

const SECONDS: readonly string[] = [...SECOND_KEYS.account, ...SECOND_KEYS.channel, ...SECOND_KEYS.integration];

const present = (key: string, value?: string): SettingCondition => ({ key, present: true, ...(value !== undefined ? { value } : {}) });
const absent = (key: string): SettingCondition => ({ key, present: false });

/** The staging account's settings, which the one-account configuration narrows. */
const STAGING_SETTINGS: readonly SettingCondition[] = [
  absent('CONTROL_URL'), present('LONG_LIVED_TOKEN'), present('CHANNEL_HOOK_API_VERSION', 'v1'), present('ADMIN_LOGIN'),
];

export const CONFIGURATIONS: readonly Configuration[] = [
  {
    name: 'embedded',
    title: 'The embedded emulator, with its control API and no long-lived token (the default run)',
    target: 'emulator',
    settings: [present('CONTROL_URL'), absent('LONG_LIVED_TOKEN')],
    operator: false,
    accessToken: 'oauth-access',
    hookApiVersion: 'v1',
    lacks: [],
    missing: [],
    changes: ['every need is supplied by the control API; the run\'s access token is a fresh OAuth access token'],
  },
  {
    name: 'remote-control',
    title: 'A remote target with a control API (a sandbox of the service, the standalone emulator)',
    target: 'remote',
    settings: [present('CONTROL_URL'), present('LONG_LIVED_TOKEN')],
    operator: false,
    accessToken: 'long-lived',
    hookApiVersion: 'v1',
    lacks: [],
    missing: [],
    changes: [
      'the needs are supplied by the control API, a few from the settings first (LONG_LIVED_TOKEN, BASE_URL_2, a second integration)',
      'the run\'s access token is LONG_LIVED_TOKEN; rules about the kind of token send an OAuth access token from the control API beside it',
      'requests are rate-limited as RATE_LIMIT_RPS says; the disconnect hook reaches the kit only when HOOK_LISTEN is reachable from the target',
    ],
    fromEmulator: { drop: [] },
  },
  {
    name: 'staging',
    title: 'A staging account: no control API, a long-lived token, an operator-less CI job, a channel with a v1 hook address',
    target: 'remote',
    settings: [...STAGING_SETTINGS, ...SECONDS.map((k) => present(k))],
    operator: false,
    accessToken: 'long-lived',
    hookApiVersion: 'v1',
    lacks: ['control'],
    missing: [...CONTROL_ONLY, 'operator', 'clock', 'v1-only-channel'],
    changes: [
      'the run\'s access token is LONG_LIVED_TOKEN; rules about the kind of token send an OAuth access token from the access-granting page (ADMIN_LOGIN) beside it',
      'every connect asks for hook_api_version v1 (CHANNEL_HOOK_API_VERSION=v1); rules that need a v2 connection are judged on the control API\'s channels only',
      'the configured channel is the one with a v1 hook address only: no other such channel is set (V1_CHANNEL_ID), so what connect v2 gets there is not reported',
      'codes, consent and token pairs come from the access-granting page in Chromium; the other needs from the settings',
      'a person\'s acts (deactivate, regenerate the key, revoke) and time passing are not available: their rules are skipped, each saying so',
    ],
    fromEmulator: { drop: ['CONTROL_URL', 'V1_CHANNEL_ID', 'V1_CHANNEL_SECRET'], channel: { id: 'V1_CHANNEL_ID', secret: 'V1_CHANNEL_SECRET' }, set: { CHANNEL_HOOK_API_VERSION: 'v1' } },
  },
  {
    name: 'one-account',
    title: 'A staging account alone: as staging, without a second account, a second channel or a second integration',
    target: 'remote',
    settings: [...STAGING_SETTINGS, ...SECONDS.map(absent)],
    operator: false,
    accessToken: 'long-lived',
    hookApiVersion: 'v1',
    lacks: ['control'],
    missing: [...CONTROL_ONLY, 'operator', 'clock', 'v1-only-channel', 'second-account', 'second-base-url', 'foreign-records', 'second-channel', 'other-channel-secret', 'second-integration'],
    changes: [
      'as staging',
      'isolation between accounts (scopes, addresses, records), the binding of codes to their integration and the rules that disconnect a channel of their own are skipped, each naming the setting that would let it run',
    ],
    fromEmulator: { drop: ['CONTROL_URL', 'V1_CHANNEL_ID', 'V1_CHANNEL_SECRET', ...SECONDS], channel: { id: 'V1_CHANNEL_ID', secret: 'V1_CHANNEL_SECRET' }, set: { CHANNEL_HOOK_API_VERSION: 'v1' } },
  },
];

export function configurationNamed(name: ConfigurationName): Configuration {
  return CONFIGURATIONS.find((c) => c.name === name)!;
}

/** A channel as the emulator's control API lists it (GET /_control/chat). */
export interface ListedChannel {
  readonly id: string;
  readonly name: string;
  readonly bot_id: string;
}

/** The standalone emulator's printed settings made into `c` (the kit's own tests); `channels` as its control API lists them. */
export function settingsFor(c: Configuration, printed: Readonly<Record<string, string>>, channels: readonly ListedChannel[] = []): Record<string, string> {
  const from = c.fromEmulator ?? { drop: [] };
  const env: Record<string, string> = { ...printed };
  for (const [key, source] of Object.entries(from.copy ?? {})) env[key] = printed[source]!;
  if (from.channel) {
    const id = printed[from.channel.id]!;
    const listed = channels.find((ch) => ch.id === id);
    if (!listed) throw new Error(`the emulator lists no channel ${id} (${from.channel.id})`);
    Object.assign(env, { CHANNEL_ID: id, CHANNEL_SECRET: printed[from.channel.secret]!, CHANNEL_NAME: listed.name, BOT_ID: listed.bot_id });
  }
  for (const key of from.drop) delete env[key];
  return { ...env, ...from.set };
}

/** A rule as the configurations judge it: what it needs and requires. */
export interface RuleDemands {
  readonly needs?: readonly Need[];
  readonly requires: readonly Capability[];
}

/** The rule runs in `c`: it needs nothing the configuration is missing and requires no capability it lacks. */
export function runsIn(c: Configuration, rule: RuleDemands): boolean {
  return !(rule.needs ?? []).some((n) => c.missing.includes(n)) && !rule.requires.some((cap) => c.lacks.includes(cap));
}
