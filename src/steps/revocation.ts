/**
 * Every credential of one installation (§2.2): an access and refresh token from a code exchange and a long-lived token,
 * in a side account, so that deactivating or disconnecting it (§3.1, §6) leaves the installation other rules use alone.
 *
 * The side account was deactivated or disconnected by earlier runs, so the integration is installed there again first
 * (consent, then the code exchange). §3.1 demands that exchange succeed ("valid code, client credentials and Redirect
 * URI → tokens issued"): a refusal is the target's failure, judged as a step of the rule (the `precondition` reading),
 * not an error of the kit (issue 19 §4).
 */
import type { HttpRequest, HttpResponse } from '../model/http.js';
import type { TargetConfig } from '../model/target.js';
import type { RuleContext } from '../model/context.js';
import { Precondition, TargetAnswer } from '../errors.js';
import { STEP_OWNERS } from './owners.js';
import type { TokenPair } from '../protocol/answers.js';
import { accountRequest, codeGrant, refreshGrant, tokenPairOf, tokenRequest } from '../protocol/oauth.js';
import { accountAddress, consentRedirect, sideAccount, type LongLived } from './lifecycle.js';

export interface InstallationCredentials {
  readonly accountId: number;
  readonly pair: TokenPair;
  readonly longLived: LongLived;
}

/**
 * A side installation being set up: the reinstall's code exchange, then every credential once it gave a pair. `at` is
 * the target at the side account's own address, where its code is exchanged and its credentials are probed (§0 "each
 * account has its own sub-domain", R2-A6): at the developer account's address a correct service refuses the code, and a
 * token bound to its account gets 401 there whatever the revocation did.
 */
export interface SideInstallation {
  accountId?: number;
  at?: TargetConfig;
  exchanged?: HttpResponse;
  pair?: TokenPair;
  creds?: InstallationCredentials;
}

const DAY_S = 86_400;

/** A fixture for `reinstallThen`. */
export const sideInstallation = async (): Promise<SideInstallation> => ({});

/**
 * Installs the integration in the side account again and exchanges the code (the answer is returned, for the step to
 * judge); when the exchange gave a token pair, makes a long-lived token and then ends the installation with `end`.
 */
export function reinstallThen(end?: (t: RuleContext, accountId: number) => Promise<void>, options: { longLived?: boolean } = {}) {
  return async (t: RuleContext, side: SideInstallation): Promise<HttpResponse> => {
    const accountId = await sideAccount(t);
    const { params } = await consentRedirect(t, { accountId });
    const code = params.get('code');
    if (!code) throw new TargetAnswer(STEP_OWNERS.allowRedirect, 'consent gave no code');
    const at = { ...t.target, baseUrl: await accountAddress(t, accountId, params.get('referer')) };
    const res = await t.send(tokenRequest(at, codeGrant(at, code)));
    side.accountId = accountId;
    side.at = at;
    side.exchanged = res;
    const pair = res.status >= 200 && res.status < 300 ? tokenPairOf(res.text) : undefined;
    if (!pair) return res;
    side.pair = pair;
    if (options.longLived === false) return res;
    const now = await t.control.now();
    const longLived = await t.control.call<LongLived>('POST', '/long-lived-tokens', { account_id: accountId, expires_at: now + 30 * DAY_S });
    side.creds = { accountId, pair, longLived };
    if (end) await end(t, accountId);
    return res;
  };
}

/** The administrator deactivates the installation (control API). */
export const deactivateThrough = async (t: RuleContext, accountId: number): Promise<void> => {
  await t.control.call('POST', '/deactivate', { account_id: accountId });
};

/** The user disconnects the integration from the account (control API). */
export const disconnectThrough = async (t: RuleContext, accountId: number): Promise<void> => {
  await t.control.call('POST', '/disconnect', { account_id: accountId });
};

/**
 * The user disconnects the integration from the account while it has no disconnect hook URL (the hook is optional,
 * §2.1): the revocation must not hang on the hook. The hook URL is put back as it was, for the rules after this one.
 */
export const disconnectWithoutHookThrough = async (t: RuleContext, accountId: number): Promise<void> => {
  const { integrations } = await t.control.call<{ integrations: { client_id: string; hook_url: string | null }[] }>('GET', '/integrations');
  const before = integrations.find((i) => i.client_id === t.credentials.clientId)?.hook_url ?? null;
  await t.control.call('POST', '/hook-url', { hook_url: null });
  try {
    await t.control.call('POST', '/disconnect', { account_id: accountId });
  } finally {
    await t.control.call('POST', '/hook-url', { hook_url: before });
  }
};

/** The credentials a judged reinstall gave (the scenario stops before this when it gave none). */
export function credentialsOf(side: SideInstallation): InstallationCredentials {
  if (!side.creds) throw new Precondition('the reinstall gave no credentials');
  return side.creds;
}

/** The target at the side account's own address (set by `reinstallThen`). */
export function sideTarget(side: SideInstallation): TargetConfig {
  if (!side.at) throw new Precondition('the reinstall did not run');
  return side.at;
}

/** GET /api/v4/account at the side account's address with `token`. */
export function sideAccountRequest(side: SideInstallation, token: string): HttpRequest {
  return accountRequest(sideTarget(side), token);
}

/** A refresh exchange of `refreshToken` at the side account's address. */
export function sideRefresh(t: RuleContext, side: SideInstallation, refreshToken: string): Promise<HttpResponse> {
  const at = sideTarget(side);
  return t.send(tokenRequest(at, refreshGrant(at, refreshToken)));
}

/** The token pair a judged reinstall gave (the scenario stops before this when it gave none). */
export function sidePairOf(side: SideInstallation): TokenPair {
  if (!side.pair) throw new Precondition('the reinstall gave no token pair');
  return side.pair;
}
