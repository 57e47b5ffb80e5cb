/**
 * Control-API steps of the access lifecycle (docs/design.md §5, the emulator's docs/control-api.md): consent in a chosen
 * account, deactivation, disconnection, long-lived tokens, the secret key, the clock, and the kit's hook listener.
 * Control calls are plumbing: not recorded as exchanges, every secret they return taught to the masker.
 */
import { Precondition, TargetAnswer } from '../errors.js';
import { redirectOwner, STEP_OWNERS } from './owners.js';
import type { ReceivedHook, RuleContext } from '../model/context.js';
import { accountRequest, codeGrant, refreshGrant, tokenPairOf, tokenRequest } from '../protocol/oauth.js';
import type { HttpResponse } from '../model/http.js';
import { consentLocation, pageAccounts } from './live-code.js';
import { operatorStep, operatorValue } from './live-operator.js';
import { exchange, tokensOf } from './oauth.js';
import type { TokenPair } from '../protocol/answers.js';
import { POLICY_HOOK_WINDOW_MS } from '../model/readings.js';

export interface ControlAccount {
  readonly id: number;
  readonly platform?: number;
  readonly admin_role?: string;
  /** The account's own {base_url}, when the control API names it. */
  readonly base_url?: string;
  readonly name?: string;
  readonly subdomain?: string;
}

/**
 * What names the run's accounts on a page: each account's name and sub-domain the control API gives, and the first
 * label of BASE_URL's host (its sub-domain, "each account has its own sub-domain").
 */
export async function accountLabels(t: RuleContext): Promise<string[]> {
  const own = new URL(t.target.baseUrl).hostname.split('.')[0] ?? '';
  const known = t.target.capabilities.includes('control') ? (await accounts(t)).flatMap((a) => [a.name ?? '', a.subdomain ?? '']) : [];
  return [...known, ...(/^[a-z][a-z0-9-]*$/i.test(own) && own !== 'localhost' ? [own] : [])].filter((l) => l.length >= 3);
}

/**
 * The accounts the control API knows, the developer account first. Without a control API, the accounts the page
 * offers (those the user administers; their domain, and so their platform, unknown to the kit).
 */
export async function accounts(t: RuleContext): Promise<readonly ControlAccount[]> {
  if (!t.target.capabilities.includes('control')) return (await pageAccounts(t)).map((a) => ({ id: a.id, admin_role: 'administrator' }));
  return (await t.control.call<{ accounts: ControlAccount[] }>('GET', '/accounts')).accounts;
}

/**
 * An account other than the developer account where the user is an administrator, so that deactivating or
 * disconnecting it leaves the installation other rules use alone; the developer account when there is no other.
 * Without a control API, the page's own choices (it offers only accounts the user administers, the first preselected).
 */
export async function sideAccount(t: RuleContext): Promise<number> {
  if (!t.target.capabilities.includes('control')) {
    const offered = await pageAccounts(t);
    const side = offered[1] ?? offered[0];
    if (!side) throw new Precondition('the access-granting page offers no account');
    return side.id;
  }
  const all = await accounts(t);
  return (all.slice(1).find((a) => a.admin_role === 'administrator') ?? all[0]!).id;
}

export interface Redirect {
  readonly location: string;
  readonly params: URLSearchParams;
}

/**
 * Acts as the user on the access-granting page and parses the redirect; the code is taught to the masker. Through the
 * control API when the target has one, else on the page itself in Chromium (src/steps/live-code.ts); the widget
 * installation exists only through the control API.
 */
export async function consentRedirect(t: RuleContext, options: { decision?: 'allow' | 'deny'; state?: string; accountId?: number; widget?: boolean } = {}): Promise<Redirect> {
  if (options.widget) {
    const { location } = await t.control.consent({
      decision: options.decision ?? 'allow',
      ...(options.state === undefined ? {} : { state: options.state }),
      ...(options.accountId === undefined ? {} : { account_id: options.accountId }),
      widget: true,
    });
    return { location, params: redirectParams(t, location, options.decision) };
  }
  const location = await consentLocation(t, {
    decision: options.decision ?? 'allow',
    ...(options.state === undefined ? {} : { state: options.state }),
    ...(options.accountId === undefined ? {} : { accountId: options.accountId }),
  });
  return { location, params: redirectParams(t, location, options.decision) };
}

/** The query of the redirect the user's decision leads to (the redirect rules judge it). */
export async function redirectQuery(t: RuleContext, options: Parameters<typeof consentRedirect>[1] = {}): Promise<URLSearchParams> {
  return (await consentRedirect(t, options)).params;
}

/** The query of a redirect, its code taught to the masker. */
export function redirectParams(t: RuleContext, location: string, decision: 'allow' | 'deny' = 'allow'): URLSearchParams {
  let url: URL;
  try {
    url = new URL(location);
  } catch {
    throw new TargetAnswer(redirectOwner(decision), `the redirect is not a URL: ${location.slice(0, 80)}`);
  }
  t.masker.learnFrom(Object.fromEntries(url.searchParams));
  return url.searchParams;
}

/**
 * The address of the account a grant was made in (§0: "{base_url}: address of one customer account; each account has
 * its own sub-domain"): the control API's base_url for it, else the developer account's BASE_URL, else the redirect's
 * `referer` ("address of the user's account", §4.1), with BASE_URL's scheme when it names only a host.
 */
export async function accountAddress(t: RuleContext, accountId: number, referer: string | null): Promise<string> {
  const all = await accounts(t);
  const own = all.find((a) => a.id === accountId)?.base_url;
  if (typeof own === 'string' && own) return own.replace(/\/+$/, '');
  if (all[0]?.id === accountId || !referer) return t.target.baseUrl;
  return (/^https?:\/\//i.test(referer) ? referer : `${new URL(t.target.baseUrl).protocol}//${referer}`).replace(/\/+$/, '');
}

/**
 * A grant in `accountId`: its code exchanged at that account's own address. Returns the exchange's answer (a refusal is
 * for the rule to judge: §3.1 demands the exchange succeed) and, when it gave a pair, the request of GET
 * /api/v4/account with its token at the same address (a service may bind tokens to their account's {base_url}, K33).
 */
export async function grantAt(t: RuleContext, accountId: number, options: { refreshed?: boolean } = {}): Promise<HttpResponse> {
  const { params } = await consentRedirect(t, { accountId });
  const code = params.get('code');
  if (!code) throw new TargetAnswer(STEP_OWNERS.allowRedirect, 'consent gave no code');
  const baseUrl = await accountAddress(t, accountId, params.get('referer'));
  const target = { ...t.target, baseUrl };
  const exchanged = await t.send(tokenRequest(target, codeGrant(target, code)));
  const pair = exchanged.status >= 200 && exchanged.status < 300 ? tokenPairOf(exchanged.text) : undefined;
  if (!pair || !options.refreshed) return pair ? t.send(accountRequest(target, pair.access_token)) : exchanged;
  // The refresh at the same address: §3.1 "new tokens issued" for the same grant, so the same account.
  const refreshed = await t.send(tokenRequest(target, refreshGrant(target, pair.refresh_token)));
  const next = refreshed.status >= 200 && refreshed.status < 300 ? tokenPairOf(refreshed.text) : undefined;
  return next ? t.send(accountRequest(target, next.access_token)) : refreshed;
}

/** grantAt, the pair refreshed once at the account's address before its new access token is used there. */
export function refreshedGrantAt(t: RuleContext, accountId: number): Promise<HttpResponse> {
  return grantAt(t, accountId, { refreshed: true });
}

/** An administrator deactivates the installation: through the control API, else asked of the operator. */
export async function deactivate(t: RuleContext, accountId: number): Promise<void> {
  await operatorStep(t, {
    instruction: `deactivate the installation of integration ${t.credentials.clientId} in account ${accountId} (its settings, as an administrator)`,
    control: async () => { await t.control.call('POST', '/deactivate', { account_id: accountId }); },
  });
}

export interface LongLived {
  readonly id: string;
  readonly long_lived_token: string;
  readonly issued_at: number;
  readonly expires_at: number;
  readonly [field: string]: unknown;
}

/**
 * Slack on a long-lived token's expiry: the target's clock may pass a second between the read of its now and the
 * creation, and the shortest expiry (1 day) is a lower bound the target checks against its own now.
 */
const EXPIRY_SLACK_S = 10;

/** Creates a long-lived token (the Keys tab, §2.2) expiring `seconds` (and EXPIRY_SLACK_S) from the target's now. */
export async function createLongLived(t: RuleContext, seconds: number): Promise<LongLived> {
  const now = await t.control.now();
  return t.control.call<LongLived>('POST', '/long-lived-tokens', { expires_at: now + seconds + EXPIRY_SLACK_S });
}

export async function revokeLongLived(t: RuleContext, id: string): Promise<void> {
  await t.control.call('DELETE', `/long-lived-tokens/${encodeURIComponent(id)}`);
}

/**
 * §2.1: the secret key is regenerated, and the new one returned: through the control API, else by the operator, who
 * pastes the new key (it is masked everywhere). Without a control API the old key cannot be put back: the question
 * says so.
 */
export async function regenerateSecret(t: RuleContext): Promise<string> {
  return operatorValue(t, {
    instruction: `regenerate the secret key of integration ${t.credentials.clientId} (the old key stops working: put the new one in CLIENT_SECRET for the next run)`,
    value: 'the new secret key',
    secret: true,
    control: () => setSecret(t),
  });
}

/** Puts `original` back through the control API; without one there is no way back (regenerateSecret said so). */
export async function restoreSecret(t: RuleContext, original: string): Promise<void> {
  if (t.target.capabilities.includes('control')) await setSecret(t, original);
}

/** §2.1: a new secret key (or back to `value`); the answer's secret is taught to the masker by the control client. */
export async function setSecret(t: RuleContext, value?: string): Promise<string> {
  const { client_secret } = await t.control.call<{ client_secret: string }>('POST', '/secret', value === undefined ? {} : { client_secret: value });
  return client_secret;
}

/** Moves the target's clock forward, runs `body`, and returns the clock to real time whatever happens. */
export async function withClockAdvanced<T>(t: RuleContext, body: (advance: (seconds: number) => Promise<void>) => Promise<T>): Promise<T> {
  try {
    return await body(async (seconds) => { await t.control.advanceClock(seconds); });
  } finally {
    await t.control.call('POST', '/clock/reset').catch(() => undefined);
  }
}

/** How far a scenario has moved the target's clock from where it started (steps that each go further in time). */
export interface ClockWalk {
  elapsed: number;
}

/** Moves the target's clock forward until `seconds` have passed since the walk began (never back). */
export async function clockTo(t: RuleContext, walk: ClockWalk, seconds: number): Promise<void> {
  if (seconds > walk.elapsed) await t.control.advanceClock(seconds - walk.elapsed);
  walk.elapsed = Math.max(walk.elapsed, seconds);
}


/**
 * Installs the integration in a side account, has the user disconnect it, and returns the hook that came within the
 * window (or none): the hook of that account, or one that does not name an account (another rule judges that).
 */
export async function disconnectAndReceive(t: RuleContext): Promise<{ hook: ReceivedHook | undefined; accountId: number }> {
  await t.hooks();
  const accountId = await sideAccount(t);
  await consentRedirect(t, { accountId });
  // A hook received before this disconnect is not its hook (an earlier rule's, or a retry of it).
  const since = Date.now();
  await t.control.call('POST', '/disconnect', { account_id: accountId });
  const hook = await t.waitForHook((h) => h.receivedAt >= since && (h.query.get('account_id') === String(accountId) || !h.query.has('account_id')), { within: POLICY_HOOK_WINDOW_MS });
  return { hook, accountId };
}

/** Hooks of earlier disconnects nobody claimed, at most this many, are set aside before a rule waits for its own. */
const MAX_STALE_HOOKS = 50;

/**
 * Claims the hooks already received for `accountId` (or naming none) that no rule took: an earlier rule's disconnect
 * of the same side account, so that the next hook waited for is the one of this rule's disconnect.
 */
export async function claimStaleHooks(t: RuleContext, accountId: number): Promise<void> {
  const mine = (h: ReceivedHook): boolean => h.query.get('account_id') === String(accountId) || !h.query.has('account_id');
  for (let i = 0; i < MAX_STALE_HOOKS && (await t.waitForHook(mine, { within: 0 })); i += 1);
}

/** disconnectAndReceive, after the side account's unclaimed hooks are set aside: the hook returned is this disconnect's. */
export async function disconnectAndReceiveOwn(t: RuleContext): Promise<{ hook: ReceivedHook | undefined; accountId: number }> {
  await t.hooks();
  await claimStaleHooks(t, await sideAccount(t));
  return disconnectAndReceive(t);
}

/** The hook of a disconnect, for rules about its content: none came is judged by `hook.disconnect.parameters` (TargetAnswer). */
export async function receivedHook(t: RuleContext): Promise<ReceivedHook> {
  const { hook } = await disconnectAndReceive(t);
  if (!hook) throw new TargetAnswer(STEP_OWNERS.disconnectHook, 'no disconnect hook arrived');
  return hook;
}
