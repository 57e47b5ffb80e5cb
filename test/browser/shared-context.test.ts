/**
 * The run's browser context as the page rules use it, against a small local target: a form posted to the target is
 * sent with the cookies Chromium sends (none of a SameSite=Lax session on a cross-site post, though the target's
 * documents are fetched by the kit), and a redirect into a watched origin reaches the rule, never the network; a 429
 * answered to a navigation, to a redirect's next hop or to an image is waited out and sent again, never shown as the
 * page (issue 39: `every-hundredth-429`).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumGap, SharedBrowser } from '../../src/browser/launch.js';
import { SharedContext } from '../../src/browser/shared-context.js';
import { logoPng } from '../../src/emulator/page/logo.js';

const INTEGRATION = 'https://integration.example';
const ATTACKER = 'https://attacker.example';

describe.skipIf(chromiumGap() !== undefined)('shared browser context', () => {
  let server: Server;
  let target = '';
  const posted: (string | undefined)[] = [];
  /** How many times each limited path was asked: its first request is answered 429. */
  const limited = new Map<string, number>();
  let browser: SharedBrowser;
  let shared: SharedContext;

  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url?.startsWith('/limited')) {
        const path = req.url;
        const n = (limited.get(path) ?? 0) + 1;
        limited.set(path, n);
        if (n === 1 && req.method === 'GET') return void res.writeHead(429, { 'retry-after': '0', 'content-type': 'application/problem+json' }).end('{"status":429}');
        if (path === '/limited/login') return void res.writeHead(303, { location: '/limited/after' }).end();
        if (path === '/limited/logo.png') return void res.writeHead(200, { 'content-type': 'image/png' }).end(logoPng());
        if (path === '/limited/after') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>after</title>');
        return void res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>page</title><img src="/limited/logo.png"><form method="post" action="/limited/login"><button id="login">Log in</button></form>');
      }
      if (req.url === '/set') {
        res.writeHead(200, { 'content-type': 'text/html', 'set-cookie': 'sid=s3cr3t; Path=/; HttpOnly; SameSite=Lax' });
        res.end('<!doctype html><form method="post" action="/post"><button id="go">Go</button></form>');
        return;
      }
      if (req.url?.startsWith('/post')) {
        posted.push(req.headers.cookie);
        if (req.url.includes('away')) res.writeHead(303, { location: `${ATTACKER}/cb?code=abc` }).end();
        else res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>posted</title>');
        return;
      }
      res.writeHead(404).end();
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    target = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await SharedBrowser.launch();
    shared = await SharedContext.open(browser, { interceptOrigin: INTEGRATION, watchOrigins: [ATTACKER], targetOrigins: [target], timeoutMs: 15_000 });
  }, 60_000);

  afterAll(async () => {
    await shared?.close();
    await browser?.close();
    await new Promise((done) => server?.close(done));
  });

  it('sends the session cookie on a same-site post, none on a post from another site, and routes a redirect into a watched origin to the rule', async () => {
    const intercepted: string[] = [];
    const opened = await shared.newPage(async (route) => {
      intercepted.push(route.request().url());
      const body = new URL(route.request().url()).pathname === '/forged'
        ? `<!doctype html><form method="post" action="${target}/post"><button id="go">Go</button></form><form method="post" action="${target}/post?away"><button id="away">Away</button></form>`
        : '<!doctype html><title>caught</title>';
      await route.fulfill({ status: 200, contentType: 'text/html', body });
    });
    try {
      const page = opened.page;
      await page.goto(`${target}/set`);
      await Promise.all([page.waitForURL(`${target}/post`), page.click('#go')]);
      expect(posted.at(-1)).toBe('sid=s3cr3t');

      await page.goto(`${INTEGRATION}/forged`);
      await Promise.all([page.waitForURL(`${target}/post`), page.click('#go')]);
      expect(posted.at(-1) ?? '').toBe('');

      await page.goto(`${INTEGRATION}/forged`);
      await Promise.all([page.waitForURL(`${ATTACKER}/cb?code=abc`), page.click('#away')]);
      expect(intercepted).toContain(`${ATTACKER}/cb?code=abc`);
    } finally {
      await opened.close();
    }
  });

  it('waits out a 429 to a navigation, to the next hop of a redirect and to an image: the page is the answer after it', async () => {
    const seen: number[] = [];
    const opened = await shared.newPage(async (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '' }), (_request, answer) => {
      if ('response' in answer) seen.push(answer.response.status);
    });
    try {
      const page = opened.page;
      await page.goto(`${target}/limited/page`);
      await page.waitForLoadState('load');
      expect(await page.title()).toBe('page');
      expect(await page.locator('img').evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)).toBeGreaterThan(0);
      await Promise.all([page.waitForLoadState('domcontentloaded'), page.click('#login')]);
      await page.waitForFunction('document.title === "after"');
      expect(await page.title()).toBe('after');
      // Each limited path was asked again after its 429; no 429 reached the page or its observer.
      expect([...limited].filter(([path, n]) => path !== '/limited/login' && n < 2)).toEqual([]);
      expect(seen).not.toContain(429);
    } finally {
      await opened.close();
    }
  });
});
