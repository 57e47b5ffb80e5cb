/**
 * The outcome of the access-granting page (§4.1 behaviour 3 and 4): the redirect to the Redirect URI, with a fresh
 * code on Allow and `error=access_denied` on Deny. Shared by the control API (acting as the user) and by the HTML
 * page (src/emulator/page/), so both produce exactly the same redirect.
 */
import type { EmulatorContext } from '../context.js';
import { ProblemError } from '../errors.js';
import type { Account, Integration } from '../world.js';
import { issueCode, type IssueSite } from './issue.js';
import { accountHost } from '../shape.js';
import { accountChoices, install, integrationById, platformOf } from './lifecycle.js';

export interface ConsentDecision {
  readonly clientId: string;
  readonly decision: 'allow' | 'deny';
  /** Returned unchanged, and only if passed. */
  readonly state?: string;
  /** The account picked among the choices (§4.1 behaviour 2); default: the first one (the developer account). */
  readonly accountId?: number;
  /** §4.1 behaviour 5, §6: the installation comes from an uploaded widget archive, so the hook carries `from_widget`. */
  readonly widget?: boolean;
  /** The user who decides; default the world's administrator. */
  readonly userId?: number;
}

export interface ConsentOutcome {
  readonly location: string;
  readonly code?: string;
  /** The account the integration was installed in (Allow only). */
  readonly account_id?: number;
}

export function integrationOrNotFound(ctx: EmulatorContext, clientId: string): Integration {
  const integration = integrationById(ctx, clientId);
  if (!integration) throw new ProblemError({ status: 404, detail: 'No integration has this client_id' });
  return integration;
}

function chosenAccount(ctx: EmulatorContext, integration: Integration, accountId: number | undefined): Account {
  const choices = accountChoices(ctx, integration);
  if (accountId === undefined || ctx.faults.isOn('allow-installs-in-first-account')) return choices[0]!;
  const account = choices.find((a) => a.id === accountId);
  if (!account) throw new ProblemError({ status: 400, detail: 'The account is not among the choices of this integration for this user' });
  return account;
}

/**
 * `site`: the host the deciding request called. `referer` is the chosen account's own address there (§4.1 "address of
 * the user's account"): the account's host on the deployed shape, host and the account's path on the one-origin one,
 * so a client's `https://{referer}/api/v4/...` reaches that account's {base_url} (../shape.ts), as the control API's
 * `base_url` names it.
 */
export function decideConsent(ctx: EmulatorContext, d: ConsentDecision, site: IssueSite): ConsentOutcome {
  const integration = integrationOrNotFound(ctx, d.clientId);
  const f = ctx.faults;
  // URL keeps any query the registered Redirect URI already has and encodes what is added.
  const location = new URL(integration.redirectUri);
  // The faults `deny-drops-state` and `widget-hook-drops-state` each forget the state on one path only.
  const keepState = d.state !== undefined && !f.isOn('drop-state') && !(d.decision === 'deny' && f.isOn('deny-drops-state'))
    && !(d.widget === true && f.isOn('widget-hook-drops-state'));
  const addState = () => {
    if (keepState) location.searchParams.set('state', storedState(ctx, d.state!));
    else if (d.state === undefined && ctx.variations.isOn('state-empty-when-absent')) location.searchParams.set('state', '');
    else if (d.state === undefined && f.isOn('state-invented')) location.searchParams.set('state', `s${Math.random().toString(36).slice(2, 10)}`);
  };
  if (d.decision === 'deny') {
    if (f.isOn('deny-installs')) install(ctx, integration.clientId, chosenAccount(ctx, integration, d.accountId).id);
    if (!f.isOn('deny-without-error')) location.searchParams.set('error', 'access_denied');
    // Only for the `deny-issues-code` fault: the code is minted before the decision is read.
    if (f.isOn('deny-issues-code')) location.searchParams.set('code', issueCode(ctx, { clientId: integration.clientId, userId: d.userId ?? ctx.world.admin.id, accountId: chosenAccount(ctx, integration, d.accountId).id }));
    addState();
    return { location: withRawState(ctx, location, d.state) };
  }
  const account = chosenAccount(ctx, integration, d.accountId);
  install(ctx, integration.clientId, account.id);
  const who = { clientId: integration.clientId, userId: d.userId ?? ctx.world.admin.id, accountId: account.id };
  const code = (f.isOn('consent-repeats-code') && unusedCodeOf(ctx, who)) || issueCode(ctx, who);
  location.searchParams.set('code', code);
  // Only for the `referer-names-first-account` fault: the referer is built from the default choice, not the chosen one.
  const named = f.isOn('referer-names-first-account') ? accountChoices(ctx, integration)[0]! : account;
  location.searchParams.set('referer', accountHost(ctx.addresses, site.host, named));
  addState();
  // Only for the `platform-inverted` fault: the two codes swapped (1 for the global domain, 2 for the regional one).
  const platform = f.isOn('platform-inverted') ? (platformOf(account) === 1 ? 2 : 1) : platformOf(account);
  location.searchParams.set('platform', f.isOn('platform-as-name') ? (platform === 1 ? 'regional' : 'global') : String(platform));
  if ((d.widget && !f.isOn('widget-hook-without-from-widget')) || f.isOn('from-widget-always')) location.searchParams.set('from_widget', '1');
  else if (ctx.variations.isOn('from-widget-zero')) location.searchParams.set('from_widget', '0');
  return { location: withRawState(ctx, location, d.state), code, account_id: account.id };
}

/**
 * The state as the page keeps it: unchanged, unless a fault cuts it to a 64-character column (`state-truncated`),
 * encodes it once before the URL encodes it again (`state-double-encoded`), or keeps the HTML-escaped text of the form
 * field it passed through (`state-html-escaped`).
 */
function storedState(ctx: EmulatorContext, state: string): string {
  const f = ctx.faults;
  if (f.isOn('state-truncated')) return state.slice(0, 64);
  // A VARCHAR(255) column, and a 1 KB buffer: only a state longer than each shows them.
  if (f.isOn('state-varchar-255')) return state.slice(0, 255);
  if (f.isOn('state-cut-at-1024')) return state.slice(0, 1024);
  if (f.isOn('state-double-encoded')) return encodeURIComponent(state);
  if (f.isOn('state-html-escaped')) return state.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  return state;
}

/**
 * The `state-unescaped` fault: state pasted into the query as is. Only what no Location header can carry (controls and
 * characters beyond ASCII, which Node refuses to send) is percent-encoded, as a server writing raw UTF-8 bytes would
 * have them read: the query's own delimiters (&, =, #, +, space) stay raw, which is the fault, on the page's redirect
 * as in the control API's answer.
 */
function withRawState(ctx: EmulatorContext, location: URL, state: string | undefined): string {
  if (!ctx.faults.isOn('state-unescaped') || state === undefined || !location.searchParams.has('state')) return location.toString();
  location.searchParams.delete('state');
  const raw = state.replace(/[^\x20-\x7e]/gu, (c) => encodeURIComponent(c));
  return `${location.toString()}${location.search ? '&' : '?'}state=${raw}`;
}

/** Only for the `consent-repeats-code` fault: the latest unused code of the same integration, user and account. */
function unusedCodeOf(ctx: EmulatorContext, who: { clientId: string; userId: number; accountId: number }): string | undefined {
  return [...ctx.store.codes.values()]
    .filter((c) => c.clientId === who.clientId && c.userId === who.userId && c.accountId === who.accountId && c.usedAtMs === undefined && c.revokedAtMs === undefined)
    .at(-1)?.value;
}
