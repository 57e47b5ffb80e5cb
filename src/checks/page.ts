/**
 * Checks of what the access-granting page (§4.1) showed and where it led, judged on the views src/steps/grant-page.ts
 * takes of it: plain data, read while the browser was open.
 */
import type { Judge } from '../model/check.js';
import { fail, pass } from '../model/outcome.js';
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
export const postMessageReceived: Judge<{ readonly messages: readonly unknown[] }> = ({ messages }) => {
  const href = messages.map((m) => valueAt(m, 'href')).find((h): h is string => typeof h === 'string');
  return href && new URL(href).searchParams.get('code')
    ? pass('postMessage', 'the main window received the redirect\'s result from the opened window')
    : fail('postMessage', 'expected the main window to receive the result by postMessage from the opened window, observed none');
};

export const oneAccountOffered: Judge<{ readonly choices: number }> = ({ choices }) => choices <= 1
  ? pass('one account', choices === 0 ? 'one account shown without a choice' : 'exactly one account offered')
  : fail('one account', `expected exactly one account for a private integration, observed ${choices} choices`);
