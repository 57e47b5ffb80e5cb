/**
 * Every need, declared once: what it is, what a step that asks for it gets (`NeedOffers`, merged into src/model/needs.ts),
 * the sources that supply it in the order they are tried (one provider each, src/needs/providers/), the settings that
 * supply it without a control API (with their env.example comment, their docs/design.md §4 sentence and how
 * `conformance emulator` makes them), and, where the default does not fit, how its skip reason is worded.
 *
 * The supply plan (src/needs/plan.ts) decides from these rows; the providers register against them
 * (test/needs/catalogue.test.ts checks that every source a row names has the need registered, and nothing more).
 */
import type { ControlApi } from '../model/control.js';
import type { NeedSource } from '../model/needs.js';
import type { Rule } from '../model/rule.js';
import type { ClientRegistration, TargetConfig } from '../model/target.js';
import type { ListName } from '../protocol/filters.js';
import type { ChatSession } from '../steps/chat.js';
import type { Elapse } from '../steps/live-clock.js';
import type { ConsentRequest } from '../steps/live-code.js';
import type { PageAccount } from '../steps/live-grant.js';
import type { OperatorStep } from '../steps/live-operator.js';
import type { AccountRoles } from '../steps/live-page.js';
import type { LongLivedToken } from '../steps/live-tokens.js';
import { EMULATOR_SOURCES, type EmulatorApi } from './emulator-source.js';

/** What a step gets for each need: `await t.need(kind)`. */
declare module '../model/needs.js' {
  interface NeedOffers {
    'fresh-code': CodeSource;
    'one-code': CodeSource;
    consent: ConsentDesk;
    login: PageLogin;
    'access-token': string;
    /** An OAuth access token (from a code exchange or a refresh), never a long-lived token, whatever the settings hold. */
    'oauth-access-token': string;
    'long-lived-token': (seconds: number) => Promise<LongLivedToken>;
    'refresh-token': string;
    'second-integration': ClientRegistration;
    'private-integration': string;
    'integration-name': string;
    'channel-name': string;
    'v1-only-channel': ChatSession;
    'non-ascii-record': (name: string) => Promise<{ id: number; name: string }>;
    'foreign-records': (list: ListName) => Promise<number[]>;
    'restricted-token': RestrictedToken;
    'restricted-refresh-token': RestrictedRefresh;
    'second-channel': ChatSession;
    /** The secret of a channel other than the configured one, which signs for it and is never connected. */
    'other-channel-secret': string;
    /** The chat-interface id of another account than the one given. */
    'second-account': (mine: string) => Promise<string>;
    /** The {base_url} of another account than the one whose id is given (as GET /api/v4/account shows it). */
    'second-base-url': (ownId: unknown) => Promise<string>;
    'member-account': AccountRoles;
    operator: OperatorDesk;
    clock: Clock;
    'ground-truth': ControlApi;
    counters: ControlApi;
  }
}

/** Authorization codes for the configured integration, or for `clientId`; each is taught to the masker. */
export interface CodeSource {
  code(clientId?: string): Promise<string>;
}

/** A bearer granted by a user of the account who may see only the deals he is responsible for, and his user id. */
export interface RestrictedToken {
  readonly token: string;
  readonly userId: number;
}

/** A fresh refresh token of a grant by that user (never shared: refreshing spends it), and his user id. */
export interface RestrictedRefresh {
  readonly refreshToken: string;
  readonly userId: number;
}

/** The user's decision on the access-granting page, and the accounts it offers. */
export interface ConsentDesk {
  /** Where the browser was sent after the decision (Allow by default). */
  location(request: ConsentRequest): Promise<string>;
  accounts(clientId?: string): Promise<readonly PageAccount[]>;
}

/** The administrator's login on the access-granting page; the password is taught to the masker. */
export interface PageLogin {
  readonly login: string;
  readonly password: string;
}

/** A person's act on the account, done (by the control API or the operator) before it returns. */
export interface OperatorDesk {
  act(step: OperatorStep): Promise<void>;
  /** The act, and what it produced (a new secret key, a token made on the Keys tab), taught to the masker when secret. */
  value(step: Omit<OperatorStep, 'control'> & { readonly value: string; readonly secret: boolean; readonly control?: () => Promise<string> }): Promise<string>;
}

/** Time passing on the target. */
export interface Clock {
  after<T>(e: Elapse, act: () => Promise<T>): Promise<T>;
}

/** One setting: its key in the environment (docs/design.md §4), and its value in env.example. */
export interface Setting {
  readonly key: string;
  /** Never printed, always masked (docs/design.md §6). */
  readonly secret?: true;
  readonly example?: string;
}

/** Settings that go together, documented together. */
export interface SettingGroup {
  readonly keys: readonly Setting[];
  /** env.example's comment above them. */
  readonly comment: string;
  /** docs/design.md §4's words on them, after their keys. */
  readonly doc: string;
  /** What the run is missing without them, in a skip reason: `set KEY (<why>)`. */
  readonly why?: string;
  /** Their values for a run against the standalone emulator, made or read through its control API (`conformance emulator`). */
  readonly emulator?: (api: EmulatorApi) => Promise<Record<string, string>>;
  /** The standalone emulator gives them in its own description (`RunningEmulator.env()`), which `conformance emulator` prints. */
  readonly own?: true;
}

/** The rule's view a need is decided for: its id (AUTH_CODE serves one rule) and how long it waits (clock). */
export type RuleNeeds = Pick<Rule, 'id' | 'needs' | 'soakSeconds'>;

/** What a row's own skip reason is worded from. */
export interface GapContext {
  readonly target: TargetConfig;
  readonly rule: RuleNeeds;
  /** Why the page cannot be driven in Chromium, worded as a skip reason; undefined when it can. */
  readonly page: string | undefined;
}

export interface NeedRow {
  /** What the need is, in one line. */
  readonly what: string;
  /** The sources that can supply it, in the order they are tried. */
  readonly sources: readonly NeedSource[];
  /** The settings that supply it through the `settings` source (all of them set). */
  readonly settings?: SettingGroup;
  /** The `settings` source supplies it to this rule (default: every key of `settings` is set). */
  readonly fromSettings?: (target: TargetConfig, rule: RuleNeeds) => boolean;
  /** The page in Chromium gives it once per case of a property rule (a grant per case: such rules run a few cases). */
  readonly perCaseOnPage?: true;
  /** The skip reason's words when no source can supply it (default: the settings to set, or CONTROL_URL). */
  readonly gap?: (c: GapContext) => string;
}

export const OR_CONTROL = 'or CONTROL_URL (a control API)';

const fromControl = (why: string) => () => `set CONTROL_URL: ${why}`;

/**
 * The catalogue. `satisfies` holds it to the declaration above: a row for every need and none for another. Its order
 * is the order of the run's opening lines and of the settings in env.example.
 */
export const CATALOGUE = {
  'fresh-code': {
    what: 'Fresh authorization codes, as many as the rule asks for.',
    sources: ['control', 'browser'],
    perCaseOnPage: true,
  },
  consent: {
    what: "The user's Allow or Deny on the access-granting page, with a chosen state and account.",
    sources: ['control', 'browser'],
    perCaseOnPage: true,
  },
  login: {
    what: "A login for the access-granting page (the account administrator's).",
    sources: ['control', 'browser'],
  },
  'access-token': {
    what: 'A bearer for the account API (a long-lived token, the token store, or a fresh pair).',
    sources: ['settings', 'control', 'token-store', 'browser'],
    fromSettings: (target) => Boolean(target.credentials.longLivedToken),
    gap: () => 'set LONG_LIVED_TOKEN, or run `conformance authorize` (the token store), or set ADMIN_LOGIN and ADMIN_PASSWORD (the grant page is driven in Chromium), ' + OR_CONTROL,
  },
  // "The run's access token" above prefers LONG_LIVED_TOKEN; a rule about the kind of token asks for this one beside it,
  // so that a setting never silently changes which kind a rule sends (issue 37).
  'oauth-access-token': {
    what: 'An OAuth access token of the configured integration (a code exchange or a refresh), never a long-lived token.',
    sources: ['control', 'token-store', 'browser'],
    gap: () => 'run `conformance authorize` (the token store), or set ADMIN_LOGIN and ADMIN_PASSWORD (the grant page is driven in Chromium), ' + OR_CONTROL,
  },
  'long-lived-token': {
    what: "A long-lived token (the integration's Keys tab).",
    sources: ['control', 'settings'],
    settings: {
      keys: [{ key: 'LONG_LIVED_TOKEN', secret: true }],
      comment: "A long-lived token created on the integration's Keys tab. Secret.",
      doc: "a long-lived token made on the integration's Keys tab (a secret)",
      why: "made on the integration's Keys tab",
      emulator: EMULATOR_SOURCES.longLivedToken,
    },
  },
  'refresh-token': {
    what: 'A refresh token for cases the server must refuse (so it is never consumed).',
    sources: ['control', 'browser', 'token-store'],
    gap: () => `set ADMIN_LOGIN and ADMIN_PASSWORD (a fresh pair from the grant page in Chromium), or run \`conformance authorize\` (the token store), ${OR_CONTROL}`,
  },
  'one-code': {
    what: 'One authorization code: AUTH_CODE serves one such rule when nothing else can mint codes.',
    sources: ['control', 'browser', 'settings'],
    settings: {
      keys: [{ key: 'AUTH_CODE', secret: true }],
      comment: 'One fresh authorization code (valid 20 minutes), when the target has no control API. Secret.',
      doc: 'one fresh authorization code, when there is no control API (a secret; it serves one rule)',
    },
    fromSettings: (target, rule) => Boolean(target.credentials.authCode) && target.authCodeRule === rule.id,
    gap: ({ target, page }) => {
      const holder = target.credentials.authCode ? target.authCodeRule : undefined;
      if (holder) return `AUTH_CODE serves one rule (${holder}); ${page!.replace(/^set/, 'for the others set')}`;
      return page!.replace(/^set /, 'set AUTH_CODE (one fresh code, for one rule), or ');
    },
  },
  'second-channel': {
    what: 'A second chat channel, which a rule may disconnect without disturbing the others.',
    sources: ['control', 'settings'],
    settings: {
      keys: [{ key: 'CHANNEL_ID_2' }, { key: 'CHANNEL_SECRET_2', secret: true }],
      comment: 'Without a control API: a second channel registered for the integration (id and secret; a secret), which the connection lifecycle rule disconnects and connects again.',
      doc: 'a second chat channel a rule may disconnect (its secret is a secret: masked)',
      why: 'a second channel registered for the integration, which the rule disconnects',
      emulator: EMULATOR_SOURCES.secondChannel,
    },
  },
  'second-account': {
    what: 'A second account on the chat interface (its amojo id).',
    sources: ['control', 'settings'],
    settings: {
      keys: [{ key: 'CHAT_ACCOUNT_ID_2' }],
      comment: 'Without a control API: the chat-interface id of a second account where the integration is installed (scope isolation).',
      doc: 'the chat-interface id of a second account',
      why: 'the chat-interface id of a second account where the integration is installed',
      emulator: EMULATOR_SOURCES.secondAccount,
    },
  },
  'second-base-url': {
    what: 'The address ({base_url}) of a second account, other than the one the run\'s tokens are granted in.',
    sources: ['settings', 'control'],
    settings: {
      keys: [{ key: 'BASE_URL_2' }],
      comment: "Without a control API: the address ({base_url}) of a second account of the same service, other than the account the run's tokens are granted in (a token of one account must be refused with 401 at another's address).",
      doc: "the address of a second account (not the one the run's tokens are granted in)",
      why: "the address of a second account, not the one the run's tokens are granted in",
      own: true,
    },
  },
  'member-account': {
    what: "An account where the page's user is only a member (the access-granting page must not offer it).",
    sources: ['control', 'settings'],
    settings: {
      keys: [{ key: 'MEMBER_ACCOUNT' }],
      comment: 'Without a control API: an account where ADMIN_LOGIN is only a member, not an administrator, as its id or its domain (the access-granting page must not offer it).',
      doc: 'the id or domain of an account where `ADMIN_LOGIN` is only a member',
      why: 'the id or domain of an account where ADMIN_LOGIN is only a member',
      own: true,
    },
  },
  'integration-name': {
    what: "The integration's name, as the access-granting page must show it.",
    sources: ['control', 'settings'],
    settings: {
      keys: [{ key: 'INTEGRATION_NAME' }],
      comment: "Without a control API: the integration's name as the access-granting page must show it.",
      doc: "the integration's name the access-granting page shows",
      why: "the integration's name, as the access-granting page must show it",
      emulator: EMULATOR_SOURCES.integrationName,
    },
  },
  'private-integration': {
    what: 'A private integration of the account (its client id), whose page offers exactly one account.',
    sources: ['control', 'settings'],
    settings: {
      keys: [{ key: 'PRIVATE_CLIENT_ID' }],
      comment: 'Without a control API: the client id of a private integration of the account (its page offers exactly one account).',
      doc: 'the client id of a private integration of the account',
      why: 'the client id of a private integration of the account',
      emulator: EMULATOR_SOURCES.privateIntegration,
    },
  },
  'second-integration': {
    what: 'A second integration of the same developer (its own client id, secret and Redirect URI), with fresh codes for it (the same source as `fresh-code`).',
    sources: ['settings', 'control'],
    settings: {
      keys: [{ key: 'CLIENT_ID_2' }, { key: 'CLIENT_SECRET_2', secret: true }, { key: 'REDIRECT_URI_2' }],
      comment: "Without a control API: a second integration of the developer account (its id, secret key, a secret, and Redirect URI; all three or none). Its codes come from its own access-granting page, like CLIENT_ID's; the binding rules present one integration's code and refresh token as the other.",
      doc: 'a second integration of the developer (all three or none; the secret key is a secret; its codes come from its own page)',
      why: 'a second integration of the developer account',
      emulator: EMULATOR_SOURCES.secondIntegration,
    },
  },
  'channel-name': {
    what: "The configured channel's registered name, which the chat interface never shows (a connection's default title).",
    sources: ['control', 'settings'],
    settings: {
      keys: [{ key: 'CHANNEL_NAME' }],
      comment: "Without a control API: the configured channel's registered name (CHANNEL_ID's), the default title of a connection.",
      doc: "the configured channel's registered name (a connection's default title)",
      why: "the configured channel's registered name, a connection's default title",
      emulator: EMULATOR_SOURCES.channelName,
    },
  },
  'v1-only-channel': {
    what: 'A chat channel whose settings hold a hook address for v1 only (none for v2).',
    sources: ['control', 'settings'],
    settings: {
      keys: [{ key: 'V1_CHANNEL_ID' }, { key: 'V1_CHANNEL_SECRET', secret: true }],
      comment: 'Without a control API: a channel registered with a hook address for v1 only (no v2), used by no other rule: id and secret (a secret). Both or neither; not CHANNEL_ID or CHANNEL_ID_2.',
      doc: 'a channel registered with a v1 hook address only (its secret is a secret: masked)',
      why: 'a channel registered with a v1 hook address only',
      emulator: EMULATOR_SOURCES.v1OnlyChannel,
    },
  },
  // The secret alone of another channel: a rule that only signs with it neither connects nor disconnects that channel,
  // so, unlike second-channel from the settings, the rules asking for it need not run one at a time (src/runner/select.ts).
  'other-channel-secret': {
    what: "The real secret of another channel than the configured one, to sign the configured channel's requests with (that channel is not connected).",
    sources: ['control', 'settings'],
    fromSettings: (target) => target.credentials.channelSecret2 !== undefined,
    gap: () => `set CHANNEL_ID_2 and CHANNEL_SECRET_2 (a second channel registered for the integration, whose secret signs for the configured one) ${OR_CONTROL}`,
  },
  'non-ascii-record': {
    what: 'A lead of the account named in non-ASCII characters, and that name.',
    sources: ['control', 'settings'],
    settings: {
      keys: [{ key: 'NON_ASCII_LEAD_ID' }, { key: 'NON_ASCII_LEAD_NAME' }],
      comment: 'Without a control API: a lead of the account named with non-ASCII characters (Cyrillic, an emoji), made beforehand: its id and its exact name. Both or neither.',
      doc: 'a lead of the account named in non-ASCII characters',
      why: 'a lead of the account named in Cyrillic or emoji',
      emulator: EMULATOR_SOURCES.nonAsciiLead,
    },
  },
  'foreign-records': {
    what: 'Ids of records of another account, which this account\'s lists must never show.',
    sources: ['control', 'settings'],
    settings: {
      keys: [{ key: 'OTHER_ACCOUNT_RECORD_IDS' }],
      comment: "Without a control API: ids of records of another account, which this account's lists must never show, per list: <list>:<id>,<id>;<list>:<id> with lists among leads, contacts, companies, customers (e.g. leads:11,12;contacts:21).",
      doc: "ids of another account's records (`leads:11,12;contacts:21`)",
      why: "ids of another account's leads, contacts, companies or customers",
      emulator: EMULATOR_SOURCES.otherAccountRecordIds,
    },
  },
  'restricted-token': {
    what: 'A bearer granted by a user of the account who may see only his own deals (responsible_user_id his), and his user id.',
    sources: ['control', 'settings'],
    settings: {
      keys: [{ key: 'RESTRICTED_ACCESS_TOKEN', secret: true }, { key: 'RESTRICTED_USER_ID' }],
      comment: "Without a control API: a bearer (an access token or a long-lived token) granted by a user of the account who may see only the deals he is responsible for, and that user's id. The rights rules list deals with it and expect only his. The token is a secret. Both or neither.",
      doc: "a bearer granted by a user who may see only his own deals, and his user id (the token is a secret; both or neither)",
      why: 'a token granted by a user who may see only his own deals, and his id',
      emulator: EMULATOR_SOURCES.restrictedUser,
    },
    fromSettings: (target) => target.credentials.restrictedUser !== undefined,
  },
  'restricted-refresh-token': {
    what: 'A fresh refresh token of a grant by the user who may see only his own deals, for a rule to spend.',
    sources: ['control'],
    gap: fromControl("a refresh token of the user who may see only his own deals is minted through a control API (one in the settings would be spent by the first run's refresh)"),
  },
  operator: {
    what: "A person's act: deactivate or disconnect an installation, regenerate the secret key, revoke a token.",
    sources: ['control', 'operator'],
    gap: () => `a person must act on the account (deactivate, disconnect, regenerate the key, revoke): run the kit on a terminal, where it asks the operator and waits, ${OR_CONTROL}`,
  },
  clock: {
    what: "Time must pass on the target's clock.",
    sources: ['control', 'real-time'],
    gap: ({ rule }) => {
      const wait = rule.soakSeconds;
      if (wait === undefined) return "set CONTROL_URL: time must pass on the target's clock, longer than a run can wait in real time";
      return `run with --profile soak (it waits up to ${duration(wait)} in real time) ${OR_CONTROL}`;
    },
  },
  'ground-truth': {
    what: "The target's ground truth (every record, not only what the API shows).",
    sources: ['control'],
    gap: fromControl('the ground truth (every record, not only what the API shows) comes only from a control API'),
  },
  counters: {
    what: 'Counts of what the target did on its own (leads, notifications, hooks sent).',
    sources: ['control'],
    gap: fromControl('what the target did on its own (leads, notifications, hooks sent) is counted only through a control API'),
  },
} as const satisfies { readonly [K in import('../model/needs.js').Need]: NeedRow };

export type Catalogue = typeof CATALOGUE;

export function duration(seconds: number): string {
  return seconds % 86_400 === 0 ? `${seconds / 86_400} days` : seconds >= 3_600 ? `${Math.round(seconds / 360) / 10} hours` : `${Math.round(seconds / 6) / 10} minutes`;
}
