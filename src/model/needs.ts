/**
 * What a rule needs beyond the protocol it checks: a fixture (a fresh code, consent on the page, a long-lived token), a
 * person's act, time passing, or the target's own view of its state. `requires` names the contract's capabilities
 * (control, browser, hook, write); `needs` names these finer things, which a target may supply without a control API
 * (src/targets/needs.ts decides how, and says for each it cannot supply the one setting or step that would).
 */
export type Need =
  /** Fresh authorization codes, as many as the rule asks for. */
  | 'fresh-code'
  /** One authorization code: AUTH_CODE serves one such rule when nothing else can mint codes. */
  | 'one-code'
  /** The user's Allow or Deny on the access-granting page, with a chosen state and account. */
  | 'consent'
  /** A login for the access-granting page (the account administrator's). */
  | 'login'
  /** A bearer for the account API (a long-lived token, the token store, or a fresh pair). */
  | 'access-token'
  /** A long-lived token (the integration's Keys tab). */
  | 'long-lived-token'
  /** A refresh token for cases the server must refuse (so it is never consumed). */
  | 'refresh-token'
  /**
   * A second integration of the same developer (its own client id, secret and Redirect URI), with fresh codes for it
   * (the same source as `fresh-code`).
   */
  | 'second-integration'
  /** A private integration of the account (its client id), whose page offers exactly one account. */
  | 'private-integration'
  /** The integration's name, as the access-granting page must show it. */
  | 'integration-name'
  /** The configured channel's registered name, which the chat interface never shows (a connection's default title). */
  | 'channel-name'
  /** A chat channel whose settings hold a hook address for v1 only (none for v2). */
  | 'v1-only-channel'
  /** A lead of the account named in non-ASCII characters, and that name. */
  | 'non-ascii-record'
  /** Ids of records of another account, which this account's lists must never show. */
  | 'foreign-records'
  /** A second chat channel, which a rule may disconnect without disturbing the others. */
  | 'second-channel'
  /** A second account on the chat interface (its amojo id). */
  | 'second-account'
  /** The address ({base_url}) of a second account, other than the one the run's tokens are granted in. */
  | 'second-base-url'
  /** An account where the page's user is only a member (the access-granting page must not offer it). */
  | 'member-account'
  /** A person's act: deactivate or disconnect an installation, regenerate the secret key, revoke a token. */
  | 'operator'
  /** Time must pass on the target's clock. */
  | 'clock'
  /** The target's ground truth (every record, not only what the API shows). */
  | 'ground-truth'
  /** Counts of what the target did on its own (leads, notifications, hooks sent). */
  | 'counters';

export const NEEDS: readonly Need[] = [
  'fresh-code', 'one-code', 'consent', 'login', 'access-token', 'long-lived-token', 'refresh-token', 'second-integration',
  'private-integration', 'integration-name', 'channel-name', 'v1-only-channel', 'non-ascii-record', 'foreign-records',
  'second-channel', 'second-account', 'second-base-url', 'member-account', 'operator', 'clock', 'ground-truth', 'counters',
];

/** How a target supplies a need in this run. */
export type NeedSource =
  /** The target's control API. */
  | 'control'
  /** The access-granting page driven in Chromium with ADMIN_LOGIN and ADMIN_PASSWORD. */
  | 'browser'
  /** A value from the settings (AUTH_CODE, LONG_LIVED_TOKEN, a second channel or integration, a channel's name, ...). */
  | 'settings'
  /** The token store of `conformance authorize` (or REFRESH_TOKEN). */
  | 'token-store'
  /** A person at the terminal, asked by the kit. */
  | 'operator'
  /** Waiting in real time (--profile soak). */
  | 'real-time';
