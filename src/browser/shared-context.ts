/**
 * The run's one browser context for the page rules. Each rule works in fresh pages of its own (a page and the popups
 * it opens); requests to the intercepted origin (the integration's, never contacted) are routed once for the whole
 * context and handed to the rule whose page made them; the cookies are shared, so a user logs in once per run. A rule
 * that needs no session gets a fresh context of its own, set up the same way, so it neither waits for the logged-in
 * rules nor makes them wait.
 *
 * One context instead of one per rule: no storage state to copy, no context set-up and tear-down per rule, and one
 * login for the run.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { APIResponse, BrowserContext, Page, Request, Route } from 'playwright-core';
import type { BrowserAnswer, RunResource } from '../model/context.js';
import type { HttpRequest } from '../model/http.js';
import { currentSender, senderHeader, senderKey, tagging } from '../rule-scope.js';
import type { SharedBrowser } from './launch.js';
import { retryDelayMs } from '../model/retry-after.js';

/** The session a rule's pages start with: the run's shared login, or none at all. */
export type SessionKind = 'logged-in' | 'none';

/** Answers an intercepted request of one of the rule's pages (`page` is the window that made it). */
export type Interceptor = (route: Route, page: Page) => Promise<void>;

/** Told of every exchange a page's document request had with the target, each redirect hop on its own. */
export type ExchangeObserver = (request: HttpRequest, answer: BrowserAnswer) => void;

export interface SharedContextOptions {
  /** Every request to this origin is intercepted and answered by the rule that owns the requesting page. */
  readonly interceptOrigin: string;
  /**
   * Origins the browser must never reach (an attacker's, which a rule watches for): intercepted like the integration's
   * and handed to the rule that owns the requesting page, so a rule can record that its page tried to go there.
   */
  readonly watchOrigins?: readonly string[];
  /** The target's origins (its pages redirect to the intercepted origin). */
  readonly targetOrigins: readonly string[];
  /** Sends a request to a URL in a slot of its budget, when the target has a rate limit: each browser request to it then takes one. */
  readonly throttled?: <T>(url: string, send: () => Promise<T>) => Promise<T>;
  /** Default timeout of every action and navigation. */
  readonly timeoutMs: number;
}

interface Owner {
  readonly intercept: Interceptor;
  readonly observe?: ExchangeObserver;
  readonly pages: Set<Page>;
  /** Who opened the page (src/rule-scope.ts), known while a trace listens, to tag its requests with. */
  readonly senders: readonly string[];
}

/** A request of a page no rule owns (any more): the answer of an integration page that reached nobody. */
const ORPHAN_PAGE = '<!doctype html><meta charset="utf-8"><title>Integration</title>';

export class SharedContext implements RunResource {
  readonly #owners = new WeakMap<Page, Owner>();
  /** The owners whose pages are open. */
  readonly #live = new Set<Owner>();
  #session: Promise<void> | undefined;

  private constructor(readonly context: BrowserContext, private readonly browser: SharedBrowser, private readonly options: SharedContextOptions) {}

  static async open(browser: SharedBrowser, options: SharedContextOptions): Promise<SharedContext> {
    const context = await browser.newContext();
    context.setDefaultTimeout(options.timeoutMs);
    context.setDefaultNavigationTimeout(options.timeoutMs);
    const shared = new SharedContext(context, browser, options);
    // A popup's first request has no page yet (Playwright: no frame before the popup's): it is tagged with every rule
    // that has a page open here, the opener among them.
    const tagOf = async (route: Route) => {
      const page = pageOf(route);
      const owner = page ? await shared.#ownerOf(page) : undefined;
      return senderHeader(owner ? owner.senders : [...new Set([...shared.#live].flatMap((o) => o.senders))]);
    };
    await routeTargetRequests(context, options, (route, request, answer) => shared.#observe(route, request, answer), tagging() ? tagOf : undefined);
    for (const origin of [options.interceptOrigin, ...(options.watchOrigins ?? [])]) {
      await routeIntercepted(context, origin, (route) => shared.#dispatch(route));
    }
    return shared;
  }

  /**
   * A fresh page whose intercepted requests, and those of every popup it opens, go to `intercept`; its exchanges with
   * the target go to `observe`.
   */
  async newPage(intercept: Interceptor, observe?: ExchangeObserver): Promise<{ page: Page; close(): Promise<void> }> {
    const sender = tagging() ? currentSender() : undefined;
    const owner: Owner = { intercept, ...(observe ? { observe } : {}), pages: new Set(), senders: sender ? [senderKey(sender)] : [] };
    this.#live.add(owner);
    // The redirects Chromium follows itself pass by the routes: the page's own headers tag them.
    const tag = senderHeader(owner.senders);
    const adopt = (page: Page) => {
      this.#owners.set(page, owner);
      owner.pages.add(page);
      page.on('popup', adopt);
      if (owner.senders.length > 0) return page.setExtraHTTPHeaders(tag).catch(() => undefined);
    };
    const page = await this.context.newPage();
    await adopt(page);
    return {
      page,
      close: async () => {
        this.#live.delete(owner);
        await Promise.all([...owner.pages].map(closeWithoutWaiting));
      },
    };
  }

  /** Runs `body` in this context, shared by the logged-in rules, or (`none`) in a fresh one of its own, then closed. */
  async withSession<T>(kind: SessionKind, body: (context: SharedContext) => Promise<T>): Promise<T> {
    if (kind === 'logged-in') return body(this);
    const own = await SharedContext.open(this.browser, this.options);
    try {
      return await body(own);
    } finally {
      await own.close();
    }
  }

  /**
   * Logs in once for every rule that shares the session: the first caller's `login` runs, the others wait for it.
   * Concurrent logins would each replace the session cookie and make the others' open forms stale.
   */
  loggedIn(login: () => Promise<void>): Promise<void> {
    this.#session ??= login().catch((err: unknown) => {
      this.#session = undefined;
      throw err;
    });
    return this.#session;
  }

  async close(): Promise<void> {
    await this.context.close().catch(() => undefined);
  }

  async #dispatch(route: Route): Promise<void> {
    const page = pageOf(route);
    const owner = page ? await this.#ownerOf(page) : undefined;
    if (owner && page) await owner.intercept(route, page);
    else await route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: ORPHAN_PAGE }).catch(() => undefined);
  }

  async #observe(route: Route, request: HttpRequest, answer: BrowserAnswer): Promise<void> {
    const page = pageOf(route);
    const owner = page ? await this.#ownerOf(page) : undefined;
    owner?.observe?.(request, answer);
  }

  /** The rule of a page: its own, or that of the window that opened it (a popup not yet seen as one). */
  async #ownerOf(page: Page): Promise<Owner | undefined> {
    for (let p: Page | null = page; p; p = await p.opener().catch(() => null)) {
      const owner = this.#owners.get(p);
      if (owner) return owner;
    }
    return undefined;
  }
}

/**
 * A request of the browser to the target. Chromium does not show a redirect's next request to the routes, so a
 * page's redirect to the intercepted origin would go out to the network (where the integration's host does not
 * resolve): the target's requests are fetched from here instead, and a redirect into the intercepted origin (or a
 * watched one) is handed to the window as a navigation of its own (`location.replace`, same window, same URL), which
 * is routed. A redirect within the target is followed here too, each hop on its own, since the browser would send
 * that hop past the routes: past a rate limit's slots, and past the retry of a 429, which would then be judged as the
 * page. With a rate limit, every request is sent in a slot held until its answer (its departure through the browser
 * driver is not punctual enough to count from the start).
 */
/**
 * Routes every request to `origin` (the integration's, never contacted) to `handler`. Registered after the target's
 * route, since Playwright runs the most recently registered matching route first: it then wins when the integration
 * shares an origin with the target. A RegExp, not a glob: a glob route misses the navigation when it arrives as a 303
 * from the page (Chromium then tries to resolve the integration's host, and fails or stalls).
 */
export async function routeIntercepted(context: BrowserContext, origin: string, handler: (route: Route) => Promise<void>): Promise<void> {
  await context.route(new RegExp(`^${escapeRegExp(origin)}/`), handler);
}

/**
 * Routes the browser's requests to the target. Its document requests are fetched here, so each of their exchanges
 * (each redirect hop) goes to `observe`: the page's navigations (the consent answer, the Allow redirect) are then
 * judged like the kit's own requests (issue 28 §6).
 */
export async function routeTargetRequests(context: BrowserContext, options: TargetRouteOptions, observe?: (route: Route, request: HttpRequest, answer: BrowserAnswer) => void, tagOf?: TagOf): Promise<void> {
  await context.route((url) => options.targetOrigins.includes(url.origin), (route) => targetRequest(route, context, options, observe, tagOf));
}

/** Headers the request gets on its way to the target, not shown as sent: the sender's tag of a trace (src/runner/trace.ts). */
type TagOf = (route: Route) => Promise<Record<string, string>>;

/** The distinct origins a target serves (its base, auth and chat URLs may share one). */
export function originsOf(target: { readonly authUrl: string; readonly baseUrl: string; readonly chatUrl: string }): string[] {
  return [...new Set([target.authUrl, target.baseUrl, target.chatUrl].map((u) => new URL(u).origin))];
}

export type TargetRouteOptions = Pick<SharedContextOptions, 'interceptOrigin' | 'watchOrigins' | 'targetOrigins' | 'throttled'>;

/**
 * The request's headers as Chromium sends them. Without a Cookie header of its own, Playwright's fetch would add every
 * cookie of the context, also those Chromium withholds (SameSite cookies on a cross-site form post): an explicitly
 * empty one keeps the request as the browser made it.
 */
function asSent(request: Request): Record<string, string> {
  const headers = request.headers();
  return headers.cookie === undefined ? { ...headers, cookie: '' } : headers;
}

async function targetRequest(route: Route, context: BrowserContext, options: TargetRouteOptions, observe?: (route: Route, request: HttpRequest, answer: BrowserAnswer) => void, tagOf?: TagOf): Promise<void> {
  const request = route.request();
  const tag = (await tagOf?.(route)) ?? {};
  const send = options.throttled ?? (<T>(_url: string, f: () => Promise<T>) => f());
  /**
   * One hop, sent and told to `observe`, answered or not. A 429 is the limit's answer, not the page's (§8 "Rate limits:
   * not shown"; K21): it is waited out for its Retry-After and the hop sent again, as the kit's client does with its
   * own requests (src/targets/http.ts), and only the answer after it is the page's (issue 39: a 429 to a navigation
   * was read as a page offering no account).
   */
  const hop = async (sent: HttpRequest, fetch: () => Promise<APIResponse>): Promise<APIResponse> => {
    const started = performance.now();
    try {
      let response = await send(sent.url, fetch);
      for (let attempt = 0; response.status() === 429 && attempt < LIMITED_RETRIES; attempt += 1) {
        await sleep(retryDelayMs(response.headers()['retry-after'], attempt));
        response = await send(sent.url, fetch);
      }
      observe?.(route, sent, { response: { status: response.status(), headers: response.headers(), text: await response.text().catch(() => ''), durationMs: performance.now() - started } });
      return response;
    } catch (err) {
      const message = (err as Error)?.message ?? String(err);
      // A page that is gone left nobody waiting: not the target's doing, and nothing to record.
      if (!/closed|disposed/i.test(message)) observe?.(route, sent, { error: message.split('\n')[0]!, kind: /timeout/i.test(message) ? 'timeout' : /ECONNRESET|socket hang up|EPIPE/i.test(message) ? 'reset' : 'other' });
      throw err;
    }
  };
  try {
    const first: HttpRequest = { method: request.method(), url: request.url(), headers: request.headers(), ...(request.postData() !== null ? { body: request.postData()! } : {}) };
    let response = await hop(first, () => route.fetch({ maxRedirects: 0, headers: { ...asSent(request), ...tag } }));
    for (let n = 0; n < MAX_TARGET_REDIRECTS; n += 1) {
      const next = redirectWithin(response, options.targetOrigins);
      if (!next) break;
      // The context's request client shares the browser's cookies, so a cookie the redirect set goes along.
      response = await hop({ ...first, url: next.url, ...(next.keepMethod ? {} : { method: 'GET', body: undefined }) },
        // Tagged as the first hop is, while a trace listens: the hop is the page's as much as the first.
        () => next.keepMethod ? route.fetch({ url: next.url, maxRedirects: 0, ...(Object.keys(tag).length > 0 ? { headers: { ...request.headers(), ...tag } } : {}) }) : context.request.get(next.url, { maxRedirects: 0, headers: tag }));
    }
    const location = response.headers().location;
    const next = location && response.status() >= 300 && response.status() < 400 ? new URL(location, response.url()) : undefined;
    const caught = [options.interceptOrigin, ...(options.watchOrigins ?? [])];
    if (!next || !caught.includes(next.origin) || request.resourceType() !== 'document') {
      await route.fulfill({ response });
      return;
    }
    const { location: _moved, 'content-length': _length, 'content-encoding': _encoding, ...headers } = response.headers();
    await route.fulfill({
      status: 200,
      headers: { ...headers, 'content-type': 'text/html; charset=utf-8' },
      body: `<!doctype html><meta charset="utf-8"><title>Redirect</title><script>location.replace(${JSON.stringify(next.href).replace(/</g, '\\u003c')});</script>`,
    });
  } catch {
    // The page may be gone (a rule that has its answer closes it while the browser still loads the logo): then
    // nobody waits for this request. Otherwise the browser sees a failed load, which the rule judges.
    await route.abort('failed').catch(() => undefined);
  }
}

const MAX_TARGET_REDIRECTS = 5;

/** Retries of a hop answered 429, as the kit's client retries its own requests when the target has no rate limit. */
const LIMITED_RETRIES = 2;

/** Where a redirect leads when it stays on the target; a browser keeps the method only on 307 and 308. */
function redirectWithin(response: APIResponse, origins: readonly string[]): { url: string; keepMethod: boolean } | undefined {
  const location = response.headers().location;
  if (response.status() < 300 || response.status() > 308 || !location) return undefined;
  const url = new URL(location, response.url());
  if (!origins.includes(url.origin)) return undefined;
  return { url: url.href, keepMethod: response.status() === 307 || response.status() === 308 };
}

function pageOf(route: Route): Page | undefined {
  try {
    return route.request().frame().page();
  } catch {
    // Requests of service workers have no frame (and service workers are blocked anyway).
    return undefined;
  }
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/**
 * Closes a page without waiting for Chromium to acknowledge it: a popup that is closing itself (window.close() after
 * Allow) may never acknowledge a close sent meanwhile, nor may a page whose decision was answered with an error (a 500
 * to Allow), and a plain close() would then wait for ever, stopping the run behind it.
 */
export async function closeWithoutWaiting(page: Page): Promise<void> {
  await page.close({ runBeforeUnload: true }).catch(() => undefined);
}
