/**
 * The access-granting page as a source of fixtures, for a target without a control API (a staging account of the
 * real service): the page is driven in the run's Chromium as the account administrator (ADMIN_LOGIN, ADMIN_PASSWORD),
 * the way the OpenID certification suite drives a real login page. A grant opens `{AUTH_URL}/oauth?client_id=…&state=…`,
 * logs in when asked, picks the account, clicks Allow or Deny, and catches the navigation to the Redirect URI, which is
 * intercepted and never loaded. One browser context per run (its session cookie shared by every grant), in the run's
 * one browser; a second integration whose Redirect URI (REDIRECT_URI_2) has another origin gets a context of its own,
 * since a context intercepts one origin.
 */
import pLimit from 'p-limit';
import type { BrowserContext, Page } from 'playwright-core';
import { Precondition, SkipRule, TargetAnswer } from '../errors.js';
import type { RuleContext, RunResource } from '../model/context.js';
import { closeWithoutWaiting, routeIntercepted, routeTargetRequests } from '../browser/shared-context.js';
import { accountChoicesOn, browserOf, decide, grantPageUrl, showsLogin, targetRoutes } from './browser.js';
import { redirectOwner, STEP_OWNERS } from './owners.js';

/** Generous: a loaded CI machine can take seconds per navigation; a working page answers far sooner. */
const STEP_TIMEOUT_MS = 15_000;
/** Grants driven at once: each is a page in Chromium, and two cores are shared with the kit and often the target. */
const MAX_PAGES = 3;

export interface PageGrant {
  readonly decision: 'allow' | 'deny';
  readonly state?: string;
  /** The account to pick (a radio button's value); the page's preselected one otherwise. */
  readonly accountId?: number;
  /** Another integration than CLIENT_ID. */
  readonly clientId?: string;
}

/** An account the page offers the user. */
export interface PageAccount {
  readonly id: number;
  /** What the page shows for it (name and subdomain), for an operator's instructions. */
  readonly label: string;
}

export class GrantDesk implements RunResource {
  readonly #redirects = new Map<Page, (url: string) => void>();
  /** Grants beyond MAX_PAGES wait for a page to close. */
  readonly #pages = pLimit(MAX_PAGES);
  #login: Promise<void> | undefined;

  private constructor(readonly t: RuleContext, readonly context: BrowserContext, readonly interceptOrigin: string) {}

  /** A context of the run's browser whose navigations to `interceptOrigin` (a Redirect URI's) are caught, never sent. */
  static async open(t: RuleContext, interceptOrigin: string): Promise<GrantDesk> {
    const { adminLogin, adminPassword } = t.credentials;
    if (!adminLogin || !adminPassword) throw new SkipRule('set ADMIN_LOGIN and ADMIN_PASSWORD (the grant page is driven in Chromium) or CONTROL_URL');
    t.masker.add(adminPassword);
    const context = await (await browserOf(t)).newContext();
    context.setDefaultTimeout(STEP_TIMEOUT_MS);
    context.setDefaultNavigationTimeout(STEP_TIMEOUT_MS);
    const desk = new GrantDesk(t, context, interceptOrigin);
    try {
      await desk.#route();
      await desk.#startSession();
    } catch (err) {
      await context.close().catch(() => undefined);
      throw err;
    }
    return desk;
  }

  async #route(): Promise<void> {
    const { t, context } = this;
    const routes = { ...targetRoutes(t), interceptOrigin: this.interceptOrigin };
    // The target's pages are fetched from here, so that the decision's redirect to the Redirect URI reaches the route
    // below instead of the network (Chromium follows a redirect past the routes), and under the run's rate limit.
    await routeTargetRequests(context, routes);
    await routeIntercepted(context, routes.interceptOrigin, async (route) => {
      const request = route.request();
      const url = request.url();
      await route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: '<!doctype html><title>Redirect URI</title>' }).catch(() => undefined);
      if (request.isNavigationRequest() && this.#isRedirectUri(url)) this.#caught(request.frame().page(), url);
    });
    // An origin no grant may lead to (a redirect the target sends there is handed over like the Redirect URI's): never contacted.
    for (const origin of routes.watchOrigins ?? []) {
      await routeIntercepted(context, origin, (route) => route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: '<!doctype html><title>Not contacted</title>' }).catch(() => undefined));
    }
  }

  /** The navigation reached the Redirect URI of CLIENT_ID or of the second integration (whichever the page serves). */
  #isRedirectUri(url: string): boolean {
    const { redirectUri, secondClient } = this.t.credentials;
    return [redirectUri, secondClient?.redirectUri].some((uri) => uri !== undefined && url.split('?')[0] === uri.split('?')[0]);
  }

  /** The grant open on `page` reached the Redirect URI: its query's values are secrets (the code). */
  #caught(page: Page, url: string): void {
    this.t.masker.learnFrom(Object.fromEntries(new URL(url).searchParams));
    this.#redirects.get(page)?.(url);
  }

  /**
   * Logs in once, before any grant: every grant page then shares the session. A login while grants are open would
   * start a new session, and the forms those pages hold (their form token is the old session's) would go stale.
   */
  async #startSession(): Promise<void> {
    const page = await this.context.newPage();
    try {
      await page.goto(grantPageUrl(this.t, {}));
      if (await showsLogin(page)) await this.#logIn(page);
    } finally {
      await closeWithoutWaiting(page);
    }
  }

  /** The session ended (the service logged the user out): one new login, shared by the grants that found it so. */
  async #logInIfAsked(page: Page): Promise<void> {
    if (!(await showsLogin(page))) return;
    this.#login ??= this.#logIn(page).finally(() => { this.#login = undefined; });
    await this.#login;
    if (await showsLogin(page)) await page.reload();
    if (await showsLogin(page)) throw new Precondition('the access-granting page asks to log in again right after logging in with ADMIN_LOGIN');
  }

  async #logIn(page: Page): Promise<void> {
    const { adminLogin, adminPassword } = this.t.credentials;
    const form = page.locator('form:has(input[type=password])').first();
    const login = form.locator('input[name=login], input[autocomplete=username], input[type=email], input[type=text]').first();
    await login.fill(adminLogin!);
    await form.locator('input[type=password]').first().fill(adminPassword!);
    await Promise.all([page.waitForLoadState('domcontentloaded'), form.locator('button[type=submit], input[type=submit], button:not([type])').first().click()]);
    await page.waitForLoadState('domcontentloaded');
    if (await showsLogin(page)) throw new Precondition('logging in on the access-granting page with ADMIN_LOGIN and ADMIN_PASSWORD did not work (the page asks again)');
  }

  /** A page open on the grant form of `clientId`, logged in; closed after `body`. */
  async #withGrantPage<T>(query: { clientId?: string; state?: string }, body: (page: Page) => Promise<T>): Promise<T> {
    return this.#pages(async () => {
      const page = await this.context.newPage();
      try {
        const res = await page.goto(grantPageUrl(this.t, query), { waitUntil: 'domcontentloaded' });
        if (res && res.status() >= 400) throw new TargetAnswer(STEP_OWNERS.grantPage, `the access-granting page answered ${res.status()} (${await page.title()})`);
        await this.#logInIfAsked(page);
        const out = await body(page);
        return out;
      } finally {
        this.#redirects.delete(page);
        await closeWithoutWaiting(page);
      }
    });
  }

  /** Allow or Deny on the page; the Redirect URI the browser was sent to, with its query (code, state, error, ...). */
  grant(request: PageGrant): Promise<string> {
    return this.#withGrantPage({ ...(request.clientId ? { clientId: request.clientId } : {}), ...(request.state === undefined ? {} : { state: request.state }) }, async (page) => {
      const redirected = new Promise<string>((resolve) => this.#redirects.set(page, resolve));
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<undefined>((resolve) => { timer = setTimeout(() => resolve(undefined), STEP_TIMEOUT_MS); });
      // A page that answers the decision with an error (a stale form, a refused account) says so at once.
      const refused = new Promise<never>((_resolve, reject) => {
        page.on('response', (res) => {
          if (res.request().isNavigationRequest() && res.status() >= 400) {
            reject(new TargetAnswer(redirectOwner(request.decision), `the access-granting page answered ${res.status()} to ${request.decision === 'allow' ? 'Allow' : 'Deny'} (${res.url().split('?')[0]})`));
          }
        });
      });
      refused.catch(() => undefined);
      try {
        await decide(page, request.decision, request.accountId);
        const location = await Promise.race([redirected, late, refused]);
        if (location === undefined) throw new TargetAnswer(redirectOwner(request.decision), `${request.decision === 'allow' ? 'Allow' : 'Deny'} on the access-granting page led to no navigation to the Redirect URI within ${STEP_TIMEOUT_MS / 1000} s`);
        return location;
      } finally {
        clearTimeout(timer);
      }
    });
  }

  /** The accounts the page offers for `clientId` (one without a choice when it shows no radio buttons). */
  accounts(clientId?: string): Promise<PageAccount[]> {
    return this.#withGrantPage(clientId ? { clientId } : {}, (page) => accountChoicesOn(page));
  }

  async close(): Promise<void> {
    await this.context.close().catch(() => undefined);
  }
}

/**
 * The run's grant desk for the integration whose Redirect URI is `redirectUri` (CLIENT_ID's by default), opened by
 * the first rule that needs one: one per origin of the Redirect URIs.
 */
export function grantDesk(t: RuleContext, redirectUri = t.credentials.redirectUri): Promise<GrantDesk> {
  const origin = new URL(redirectUri).origin;
  const own = origin === new URL(t.credentials.redirectUri).origin;
  return t.resource(own ? 'live-grant' : `live-grant ${origin}`, () => GrantDesk.open(t, origin));
}

