/**
 * Checks of what the access-granting page (§4.1) showed and where it led, judged on the views src/steps/grant-page.ts
 * takes of it: plain data, read while the browser was open.
 */
import type { Judge } from '../model/check.js';
import { fail, observed, pass } from '../model/outcome.js';
import { valueAt } from './fields.js';

export type GrantWindow = 'main' | 'popup';

/** The first navigation to the Redirect URI, when there was one. */
export interface RedirectView {
  readonly hit?: { readonly window: GrantWindow; readonly params: URLSearchParams };
}

export interface LoginView {
  readonly loginForm: boolean;
  readonly allowButtons: number;
}

export interface IntegrationView {
  readonly text: string;
  readonly logoLoaded: boolean;
  readonly permissions: number;
}

export const loginFormShown: Judge<LoginView> = (v) => v.loginForm
  ? pass('login form', 'a password field is shown')
  : fail('login form', 'expected a login form for a user without a session, observed none');

export const noGrantBeforeLogin: Judge<LoginView> = (v) => v.allowButtons === 0
  ? pass('no grant before login')
  : fail('no grant before login', 'expected no Allow button before logging in, observed one');

export function integrationNameShown(name: string): Judge<IntegrationView> {
  return (v) => v.text.includes(name) ? pass('name', 'the integration name is shown') : fail('name', 'expected the integration name on the page, observed none');
}

export const logoLoaded: Judge<IntegrationView> = (v) => v.logoLoaded
  ? pass('logo', 'a logo image loaded')
  : fail('logo', 'expected a logo image that loads, observed none');

export const permissionsListed: Judge<IntegrationView> = (v) => v.permissions > 0
  ? pass('permissions', `${v.permissions} permission(s) listed`)
  : fail('permissions', 'expected the requested permissions listed, observed none');

const windowName = (w: GrantWindow) => (w === 'main' ? 'main' : 'opened');

/** The redirect happened, in the window the mode says; `what` says what was expected. */
export function redirectedIn(expected: GrantWindow, what: string): Judge<RedirectView> {
  return ({ hit }) => {
    if (!hit) return fail('redirect', `expected ${what}, observed no navigation to the Redirect URI`);
    return hit.window === expected
      ? pass('redirect', `the ${windowName(expected)} window went to the Redirect URI`)
      : fail('redirect', `expected ${what}, observed the ${windowName(hit.window)} window going to the Redirect URI`);
  };
}

/** A redirect to the Redirect URI came, in whichever window, after `decision`. */
export function redirectReached(decision: string): Judge<RedirectView> {
  return ({ hit }) => hit
    ? pass('redirect', `the ${windowName(hit.window)} window went to the Redirect URI`)
    : fail('redirect', `expected a redirect to the Redirect URI after ${decision}, observed none`);
}

export const popupClosed: Judge<{ readonly popupClosed: boolean }> = (v) => v.popupClosed
  ? pass('popup closed', 'the grant window closed')
  : fail('popup closed', 'expected the grant window to close, observed it open');

/** The integration's window got the redirect's result from the opened window: a message with the redirect's code. */
/** Whether the main window received the result by postMessage: recorded, §4.1 says the window "may report" it (K7). */
export const postMessageReceived: Judge<{ readonly messages: readonly unknown[] }> = ({ messages }) => {
  const href = messages.map((m) => valueAt(m, 'href')).find((h): h is string => typeof h === 'string');
  return href && new URL(href).searchParams.get('code')
    ? pass('postMessage', 'the main window received the redirect\'s result from the opened window')
    : observed('postMessage', 'the main window received no postMessage with the result from the opened window (the spec says it "may report"), recorded');
};

/** The account choice of the page: how many accounts it offers, and whether, offering none, it shows one at all. */
export interface AccountChoicesView {
  readonly choices: number;
  readonly showsAccount: boolean;
}

/**
 * "For private integrations the list holds exactly 1 account" (§4.1): one choice, or one account shown without a
 * choice, passes; several fail, and so does a page that offers no account at all.
 */
export const oneAccountOffered: Judge<AccountChoicesView> = ({ choices, showsAccount }) => {
  if (choices === 1) return pass('one account', 'exactly one account offered');
  if (choices > 1) return fail('one account', `expected exactly one account for a private integration, observed ${choices} choices`);
  return showsAccount
    ? pass('one account', 'one account shown without a choice')
    : fail('one account', 'expected exactly one account for a private integration, observed a page that offers none (no choice, no account_id field, no account named)');
};

/** A decision posted other than by the user on his own page (src/steps/grant-page.ts `forgedAllows`). */
export interface ForgedDecisionView extends RedirectView {
  /** Hidden fields of the page's form that are not §4.1 parameters: the candidate anti-forgery fields left out. */
  readonly tokenFields: readonly string[];
  /** Status of the page's answer to the post; absent when it was not sent. */
  readonly answered?: number;
}

/** The forged decision (`what`) led to no redirect carrying a code: the service granted nothing. */
export function noCodeGranted(what: string): Judge<ForgedDecisionView> {
  return ({ hit, answered, tokenFields }) => {
    if (answered === undefined) {
      return pass('no code', `${what}: not tried, the form holds no field beyond the §4.1 parameters (${tokenFields.length === 0 ? 'no form token to leave out' : tokenFields.join(', ')})`);
    }
    if (hit?.params.get('code')) return fail('no code', `expected ${what} to grant nothing, observed the ${windowName(hit.window)} window going to the Redirect URI with a code`);
    if (hit) return pass('no code', `${what}: the Redirect URI was reached without a code${hit.params.get('error') ? ` (error=${hit.params.get('error')})` : ''}`);
    return pass('no code', `${what}: ${answered > 0 ? `the page answered ${answered}` : 'the page\'s answer was not seen'}, and no navigation to the Redirect URI followed`);
  };
}

/** Allow on a page whose address carried a foreign redirect_uri: where it led, and what the browser tried to reach. */
export interface ForeignRedirectView extends RedirectView {
  /** Requests of the rule's pages to the foreign origin (routed, never sent). */
  readonly foreign: readonly string[];
  /** The page showed no Allow button for that address (it refused it): the title it showed. */
  readonly refused?: string;
}

/** The browser never tried to reach `origin`: neither the decision's redirect nor anything else went there. */
export function originNotContacted(origin: string): Judge<ForeignRedirectView> {
  return ({ foreign, hit, refused }) => {
    if (foreign.length > 0) return fail('not redirected there', `expected the browser never to go to ${origin}, observed ${foreign.length} request(s) to it, first ${new URL(foreign[0]!).pathname}`);
    const where = hit ? `the ${windowName(hit.window)} window went to the registered Redirect URI`
      : refused !== undefined ? `the page refused the address (it showed "${refused}" and no Allow button)` : 'no navigation followed Allow';
    return pass('not redirected there', where);
  };
}

/** Records which window reached the Redirect URI (for a mode the spec does not name), or that none did. */
export function redirectWindowObserved(what: string): Judge<RedirectView & { readonly refused?: string }> {
  return ({ hit, refused }) => observed('redirect window', hit
    ? `${what}: the ${windowName(hit.window)} window went to the Redirect URI${hit.params.get('code') ? ' with a code' : ''}`
    : refused !== undefined ? `${what}: the page showed no Allow button ("${refused}")` : `${what}: no navigation to the Redirect URI followed Allow`);
}

/** The accounts the page offered, as its account choice shows them (radio value and label). */
export interface OfferedAccountsView {
  readonly offered: readonly { readonly id: number; readonly label: string }[];
}

/** An account named by id (digits) or by domain is the offered one: the same id, or its domain (or sub-domain) in the label. */
function offers(offered: OfferedAccountsView['offered'][number], account: string): boolean {
  if (/^\d+$/.test(account)) return offered.id === Number(account);
  const sub = account.toLowerCase().split('.')[0]!;
  return offered.label.toLowerCase().split(/[^a-z0-9.-]+/).some((word) => word.split('.')[0] === sub);
}

/** None of `accounts` (ids or domains) is offered; `what` says what they are. */
export function accountsNotOffered(accounts: readonly string[], what: string): Judge<OfferedAccountsView> {
  return ({ offered }) => {
    const wrong = offered.filter((o) => accounts.some((a) => offers(o, a)));
    return wrong.length === 0
      ? pass(`no ${what}`, `${offered.length} account(s) offered, none of ${accounts.join(', ')}`)
      : fail(`no ${what}`, `expected the page not to offer ${what}, observed ${wrong.map((o) => `${o.id} (${o.label})`).join(', ')} among the choices`);
  };
}

/** Every account of `ids` is offered. */
export function accountsOffered(ids: readonly number[], what: string): Judge<OfferedAccountsView> {
  return ({ offered }) => {
    const missing = ids.filter((id) => !offered.some((o) => o.id === id));
    return missing.length === 0
      ? pass(what, `all ${ids.length} offered`)
      : fail(what, `expected the page to offer ${what}, observed ${missing.join(', ')} missing among ${offered.length} choice(s)`);
  };
}
