/**
 * Driving the access-granting page (§4.1) in the run's Chromium, as a user and as the integration's own window:
 * the integration's origin (the Redirect URI's) is intercepted, never contacted, so its start page (which opens
 * the grant window) and its redirect page (which reports to its opener with postMessage, then closes, as a
 * post_message integration does) are served by the kit, and every navigation to the Redirect URI is recorded with
 * the window that made it.
 */
import type { Page, Route } from 'playwright-core';
import { SharedBrowser } from '../browser/launch.js';
import { originsOf, SharedContext, type SessionKind, type TargetRouteOptions } from '../browser/shared-context.js';
import { Precondition } from '../errors.js';
import type { RuleContext } from '../model/context.js';
import type { TargetConfig } from '../model/target.js';

/** Generous: a loaded CI machine can take seconds per navigation; no rule waits this long when the page works. */
const STEP_TIMEOUT_MS = 15_000;
const START_PATH = '/__conformance/start';
/** Where the integration's window serves a page a rule wrote (a form another origin posts to the target). */
const FOREIGN_PAGE_PATH = '/__conformance/foreign';

/**
 * An origin no page of the service may send the browser to (RFC 6761 reserves .example): a rule adds it to a page's
 * address and watches whether the browser goes there. Routed in the run's context, never contacted.
 */
export const ATTACKER_ORIGIN = 'https://attacker.example';

export interface RedirectHit {
  readonly url: string;
  readonly params: URLSearchParams;
  /** The window whose navigation reached the Redirect URI. */
  readonly window: 'main' | 'popup';
}

/** A request a rule's page made to a watched origin (ATTACKER_ORIGIN), which the browser never sent. */
export interface ForeignHit {
  readonly url: string;
  readonly window: 'main' | 'popup';
}

export interface GrantBrowser {
  /** The integration's window, at the integration's origin. */
  readonly main: Page;
  /** Shows `html` in the integration's window, at the integration's origin (another origin than the target's). */
  openForeignPage(html: string): Promise<void>;
  /** The requests the rule's pages made to ATTACKER_ORIGIN so far. */
  foreign(): readonly ForeignHit[];
  /** The navigations to the Redirect URI so far that no `nextRedirect` took. */
  pendingRedirects(): readonly RedirectHit[];
  /** Opens the page in a popup from the integration's window (a click, as a user does) and returns the popup. */
  openPopup(pageUrl: string): Promise<Page>;
  /** The first navigation to the Redirect URI, or undefined when none came in time. */
  nextRedirect(timeoutMs?: number): Promise<RedirectHit | undefined>;
  /** Messages the integration's window received from the redirect page in its opened window. */
  messages(): Promise<unknown[]>;
}

const escapeJs = (s: string) => JSON.stringify(s).replace(/</g, '\\u003c');

const startPage = (authUrl: string) => `<!doctype html><meta charset="utf-8"><title>Integration</title>
<script>window.__messages = []; window.addEventListener('message', function (e) { window.__messages.push(e.data); });</script>
<button id="connect" onclick="window.open(${escapeJs(authUrl).replace(/"/g, '&quot;')}, 'grant', 'popup,width=520,height=720')">Connect</button>`;

const redirectPage = `<!doctype html><meta charset="utf-8"><title>Redirect URI</title><p>Redirect URI reached</p>
<script>if (window.opener) { try { window.opener.postMessage({ source: 'conformance-redirect', href: location.href }, '*'); } catch (e) {} window.close(); }</script>`;

export function browserOf(t: RuleContext): Promise<SharedBrowser> {
  return t.resource('browser', () => SharedBrowser.launch(browserLaunchOptions(t.target)));
}

/**
 * How a run's Chromium is launched for its target: the target's host rules, CA_FILE trusted for its origins, its proxy.
 * None of them (`{}`) is the launch a browser lent by the caller (executeRun `lent`) must have been made with.
 */
export function browserLaunchOptions(target: TargetConfig): NonNullable<Parameters<typeof SharedBrowser.launch>[0]> {
  const { hostRules, ca, proxy } = target;
  return { ...(hostRules?.length ? { hostRules } : {}), ...(ca ? { trust: { ca, origins: originsOf(target) } } : {}), ...(proxy ? { proxy } : {}) };
}

/**
 * The page's URL with its §4.1 query (`mode` may be one the spec does not name), and `extra` parameters the spec does
 * not know (a redirect_uri a rule adds).
 */
export function grantPageUrl(t: RuleContext, query: { clientId?: string; state?: string; mode?: string; extra?: Readonly<Record<string, string>> }): string {
  const params = new URLSearchParams({ client_id: query.clientId ?? t.credentials.clientId });
  if (query.state !== undefined) params.set('state', query.state);
  if (query.mode) params.set('mode', query.mode);
  for (const [k, v] of Object.entries(query.extra ?? {})) params.set(k, v);
  return `${t.target.authUrl}/oauth?${params.toString()}`;
}

/**
 * The run's browser context, shared by the page rules, with the integration's origin (the Redirect URI's)
 * intercepted. The browser's requests to the target count against the run's rate limit (remote targets) like the
 * kit's own; the slot is the run's, whichever rule asks.
 */
function grantContextOf(t: RuleContext): Promise<SharedContext> {
  return t.resource('browser-context', async () => SharedContext.open(await browserOf(t), { ...targetRoutes(t), timeoutMs: STEP_TIMEOUT_MS }));
}

/** How the run's browser reaches the target: its origins, the integration's origin intercepted, the run's rate limit. */
export function targetRoutes(t: RuleContext): TargetRouteOptions {
  return {
    interceptOrigin: new URL(t.credentials.redirectUri).origin,
    watchOrigins: [ATTACKER_ORIGIN],
    targetOrigins: originsOf(t.target),
    ...(t.target.rateLimitRps ? { throttled: <T>(url: string, send: () => Promise<T>) => t.throttled(url, send) } : {}),
  };
}

/**
 * A fresh page for `body` in the run's browser context, logged in unless `session` is 'none' (then the rule has the
 * context alone, without cookies); the page and its popups are closed afterwards. The user logs in once per run
 * (the login itself is judged by `oauth.page.login-required`, which starts without a session).
 */
export async function withGrantBrowser<T>(t: RuleContext, body: (b: GrantBrowser) => Promise<T>, options: { session?: SessionKind } = {}): Promise<T> {
  const shared = await grantContextOf(t);
  const redirectUri = t.credentials.redirectUri;
  const origin = new URL(redirectUri).origin;
  const hits: RedirectHit[] = [];
  const foreign: ForeignHit[] = [];
  const waiting: Array<(hit: RedirectHit) => void> = [];
  let startAuthUrl = '';
  let foreignPage = '';
  let main: Page | undefined;
  const intercept = async (route: Route, page: Page) => {
    const url = route.request().url();
    const at = new URL(url);
    if (at.origin === ATTACKER_ORIGIN) {
      // Whatever it carries (a code, when a page sent it there) is a secret, and the attacker's host is never reached.
      t.masker.learnFrom(Object.fromEntries(at.searchParams));
      foreign.push({ url, window: page === main ? 'main' : 'popup' });
      await route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: '<!doctype html><title>Not contacted</title>' });
      return;
    }
    if (at.pathname === START_PATH) {
      await route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: startPage(startAuthUrl) });
      return;
    }
    if (at.pathname === FOREIGN_PAGE_PATH) {
      await route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: foreignPage });
      return;
    }
    if (route.request().isNavigationRequest() && url.split('?')[0] === redirectUri.split('?')[0]) {
      const params = new URL(url).searchParams;
      t.masker.learnFrom(Object.fromEntries(params));
      const hit: RedirectHit = { url, params, window: page === main ? 'main' : 'popup' };
      hits.push(hit);
      waiting.shift()?.(hit);
    }
    await route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: redirectPage });
  };
  return shared.withSession(options.session ?? 'logged-in', async (context) => {
    const opened = await context.newPage(intercept, (req, answer) => t.recordBrowserExchange(req, answer));
    const mainPage = opened.page;
    main = mainPage;
    try {
      if (options.session !== 'none') {
        await context.loggedIn(async () => {
          await mainPage.goto(grantPageUrl(t, {}));
          await logInIfAsked(t, mainPage);
        });
      }
      const b: GrantBrowser = {
        main: mainPage,
        async openForeignPage(html) {
          foreignPage = html;
          await mainPage.goto(`${origin}${FOREIGN_PAGE_PATH}`);
        },
        foreign: () => [...foreign],
        pendingRedirects: () => [...hits],
        async openPopup(pageUrl) {
          startAuthUrl = pageUrl;
          await mainPage.goto(`${origin}${START_PATH}`);
          const [popup] = await Promise.all([mainPage.waitForEvent('popup'), mainPage.click('#connect')]);
          await popup.waitForLoadState('domcontentloaded');
          return popup;
        },
        nextRedirect(timeoutMs = STEP_TIMEOUT_MS) {
          const seen = hits.shift();
          if (seen) return Promise.resolve(seen);
          return new Promise((resolve) => {
            const timer = setTimeout(() => {
              waiting.splice(waiting.indexOf(done), 1);
              resolve(undefined);
            }, timeoutMs);
            const done = (hit: RedirectHit) => {
              clearTimeout(timer);
              hits.splice(hits.indexOf(hit), 1);
              resolve(hit);
            };
            waiting.push(done);
          });
        },
        async messages() {
          return (mainPage.evaluate('window.__messages || []') as Promise<unknown[]>).catch(() => []);
        },
      };
      return await body(b);
    } finally {
      await opened.close();
    }
  });
}

/**
 * The administrator's login for the page, from the control API, else from the settings (ADMIN_LOGIN, ADMIN_PASSWORD);
 * the password is taught to the masker.
 */
export async function pageLogin(t: RuleContext): Promise<{ login: string; password: string }> {
  return t.need('login');
}

/** Whether the page shows a login form (a password field). */
export async function showsLogin(page: Page): Promise<boolean> {
  return (await page.locator('input[type=password]').count()) > 0;
}

/** Logs in when the page asks for it; then the page shows the grant form. */
export async function logInIfAsked(t: RuleContext, page: Page): Promise<void> {
  if (!(await showsLogin(page))) return;
  const { login, password } = await pageLogin(t);
  await page.locator('input[name=login]').fill(login);
  await page.locator('input[type=password]').fill(password);
  await Promise.all([page.waitForLoadState('domcontentloaded'), page.getByRole('button', { name: /log in/i }).click()]);
  if (await showsLogin(page)) throw new Precondition('logging in on the access-granting page did not work');
}

/** Clicks Allow or Deny (after picking `accountId` when given). */
export async function decide(page: Page, decision: 'allow' | 'deny', accountId?: number): Promise<void> {
  if (accountId !== undefined) {
    const select = page.locator('select[name=account_id]');
    if (await select.count() > 0) await select.first().selectOption(String(accountId));
    else await page.locator(`input[name=account_id][value="${accountId}"]`).check();
  }
  await page.getByRole('button', { name: decision === 'allow' ? /^allow$/i : /^deny$/i }).click({ noWaitAfter: true });
}

/** How many Allow buttons the page shows (none: it shows a login, an error, or refused the address). */
export function allowButtons(page: Page): Promise<number> {
  return page.getByRole('button', { name: /^allow$/i }).count();
}

/**
 * The accounts the page's choice offers: each radio button's value (the account id) and its label's text, or each
 * option of a `<select name=account_id>` and its text (a placeholder option without an id is no account).
 */
export async function accountChoicesOn(page: Page): Promise<{ id: number; label: string }[]> {
  const radios = page.locator('input[type=radio][name=account_id]');
  const out: { id: number; label: string }[] = [];
  for (let i = 0; i < (await radios.count()); i += 1) {
    const radio = radios.nth(i);
    const id = Number(await radio.getAttribute('value'));
    const label = (await radio.locator('xpath=ancestor::label[1]').textContent().catch(() => null))?.trim() ?? String(id);
    if (Number.isSafeInteger(id)) out.push({ id, label });
  }
  const options = page.locator('select[name=account_id] option');
  for (let i = 0; i < (await options.count()); i += 1) {
    const option = options.nth(i);
    const value = (await option.getAttribute('value')) ?? '';
    const id = Number(value);
    if (value !== '' && Number.isSafeInteger(id)) out.push({ id, label: (await option.textContent())?.trim() ?? value });
  }
  return out;
}
