/**
 * The real browser of the access-granting page rules (capability `browser`): Debian's Chromium driven with
 * playwright-core (which never downloads a browser). One browser per run, started by the first rule that needs it
 * and closed when the run ends; the rules share one context of it (src/browser/shared-context.ts), each with fresh
 * pages of its own.
 *
 * The user data dir: `chromium.launch` starts Chromium with a fresh temporary profile directory of its own and
 * removes it when the browser closes (passing `--user-data-dir` to `launch` is refused by Playwright), which is
 * exactly the fresh, removed-after profile the kit wants.
 */
import { accessSync, constants } from 'node:fs';
import type { Browser, BrowserContext, BrowserContextOptions } from 'playwright-core';
import type { RunResource } from '../model/context.js';
import type { ProxySettings } from '../model/target.js';
import { chromiumHostRules, hostLookup, type HostRule } from '../host-resolve.js';
import { verifiedServerKeys } from '../trust.js';
import { trustInProcess } from './process-trust.js';

export const CHROMIUM_PATH = '/usr/bin/chromium';

export const CHROMIUM_FLAGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
  '--disable-sync', '--no-first-run',
] as const;

/** Why the browser capability is missing, or undefined when Chromium is there. */
export function chromiumGap(path = CHROMIUM_PATH): string | undefined {
  try {
    accessSync(path, constants.X_OK);
    return undefined;
  } catch {
    return `Chromium is not installed at ${path} (apt-get install -y chromium)`;
  }
}

let playwright: Promise<typeof import('playwright-core')> | undefined;

/**
 * Loads Playwright (0.3 s of the main thread) once per process. A run that will drive the browser starts it before the
 * embedded emulator, whose start on its worker thread leaves the main thread idle for most of a second: the load then
 * costs the run nothing, where it otherwise sat on the main thread, which bounds a full run, beside the first rules.
 */
export function loadPlaywright(): Promise<typeof import('playwright-core')> {
  playwright ??= import('playwright-core');
  return playwright;
}

export class SharedBrowser implements RunResource {
  private constructor(readonly browser: Browser, private readonly releaseTrust: () => void = () => {}) {}

  /**
   * `hostRules`: the target's HOST_RESOLVE, so the page reaches the hosts the kit's own client does. `trust`: the
   * target's CA_FILE and its origins; Chromium, which takes no CA, gets the keys of those servers the kit verified
   * against it (src/trust.ts `verifiedServerKeys`), whose certificates it then accepts; the page's documents, fetched
   * in this process, trust CA_FILE for the same servers (src/browser/process-trust.ts) while the browser is open.
   */
  static async launch(options: { readonly path?: string; readonly hostRules?: readonly HostRule[]; readonly trust?: { readonly ca: string; readonly origins: readonly string[] }; readonly proxy?: ProxySettings } = {}): Promise<SharedBrowser> {
    // Loaded on first use: a run without browser rules never loads Playwright (0.3 s at start).
    const { chromium } = await loadPlaywright();
    const hostArgs = options.hostRules?.length ? [`--host-resolver-rules=${chromiumHostRules(options.hostRules)}`] : [];
    const lookup = options.hostRules && hostLookup(options.hostRules);
    // Origin by origin, to know which ones verified: those the process then trusts CA_FILE for, as Chromium their keys.
    const verified = options.trust
      ? (await Promise.all(options.trust.origins.map(async (origin) => ({ origin, keys: await verifiedServerKeys([origin], options.trust!.ca, lookup) })))).filter((v) => v.keys.length > 0)
      : [];
    const serverKeys = [...new Set(verified.flatMap((v) => v.keys))];
    // Chromium honours the list only with a --user-data-dir, which Playwright's launch always passes (its own profile).
    const keyArgs = serverKeys.length > 0 ? [`--ignore-certificate-errors-spki-list=${serverKeys.join(',')}`] : [];
    // Playwright's own SIGINT and SIGTERM handlers would close the browser under the rules in flight and end the
    // process with no report: the run stops itself on those signals (src/runner/interrupt.ts) and closes the
    // browser with its other resources; Playwright still kills it when the process exits.
    const proxy = browserProxy(options.proxy);
    const browser = await chromium.launch({
      executablePath: options.path ?? CHROMIUM_PATH, headless: true, args: [...CHROMIUM_FLAGS, ...hostArgs, ...keyArgs], timeout: 15_000,
      handleSIGINT: false, handleSIGTERM: false, ...(proxy ? { proxy } : {}),
    });
    return new SharedBrowser(browser, options.trust ? trustInProcess(verified.map((v) => v.origin), options.trust.ca) : undefined);
  }

  /** A fresh context: its own cookies and storage (or the given ones), closed by the caller. */
  newContext(storageState?: BrowserContextOptions['storageState']): Promise<BrowserContext> {
    return this.browser.newContext({ serviceWorkers: 'block', ...(storageState ? { storageState } : {}) });
  }

  async close(): Promise<void> {
    await this.browser.close().catch(() => {});
    this.releaseTrust();
  }
}

/**
 * Playwright's `proxy` of a launch from HTTPS_PROXY, HTTP_PROXY and NO_PROXY: Chromium takes one proxy for every
 * scheme, the https one first (the service is https), its credentials apart, NO_PROXY as its bypass list.
 */
export function browserProxy(p: ProxySettings | undefined): { server: string; bypass?: string; username?: string; password?: string } | undefined {
  const via = p?.httpsProxy ?? p?.httpProxy;
  if (!via) return undefined;
  const url = new URL(via);
  const credentials = url.username ? { username: decodeURIComponent(url.username), password: decodeURIComponent(url.password) } : {};
  url.username = '';
  url.password = '';
  return { server: url.href.replace(/\/$/, ''), ...(p?.noProxy ? { bypass: p.noProxy } : {}), ...credentials };
}
