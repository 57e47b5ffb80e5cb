/**
 * Who sends each request (src/rule-scope.ts, src/runner/trace.ts): a rule's attempt, or a run resource's
 * opener for every rule that shares it; and, while a trace listens, the sender's tag on every way the kit sends (the
 * early-answer client, the browser's pages, their popups and the redirects Chromium follows itself), never otherwise.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumGap, SharedBrowser } from '../../src/browser/launch.js';
import { SharedContext } from '../../src/browser/shared-context.js';
import { RunResources } from '../../src/runner/resources.js';
import { currentRuleId, currentSender, inRuleScope, resourceAsked, SENDER_HEADER, senderHeader, tagRequests, type Sender } from '../../src/rule-scope.js';
import { ObservingClient, type SentExchange } from '../../src/runner/trace.js';
import { EARLY_ANSWER_BYTES } from '../../src/targets/http.js';

interface Answer {
  readonly status: number;
  readonly headers?: Record<string, string>;
  readonly body?: string;
}

/** A local target that answers 200 (or `answer`'s) and keeps each request's sender tag by path. */
async function taggedTarget(answer?: (req: IncomingMessage) => Answer | undefined) {
  const tags: Record<string, string | undefined> = {};
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      tags[req.url ?? ''] = req.headers[SENDER_HEADER] as string | undefined;
      const a = answer?.(req) ?? { status: 200, headers: { 'content-type': 'text/html' }, body: '<!doctype html><title>ok</title>' };
      res.writeHead(a.status, a.headers).end(a.body ?? '');
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, tags, close: () => new Promise((done) => server.close(done)) };
}

describe('senders', () => {
  it('runs a resource opener as the resource, and tells whoever asks for it in their own scope', async () => {
    const resources = new RunResources();
    const opened: (Sender | undefined)[] = [];
    const asks: [string, string | undefined][] = [];
    const onAsk = (m: unknown) => asks.push([(m as { key: string }).key, currentRuleId()]);
    resourceAsked.subscribe(onAsk);
    try {
      const open = async () => {
        opened.push(currentSender());
        return { close: async () => {} };
      };
      await inRuleScope('rule.a', 0, () => resources.get('chat scope', open));
      await inRuleScope('rule.b', 1, () => resources.get('chat scope', open));
    } finally {
      resourceAsked.unsubscribe(onAsk);
      await resources.closeAll();
    }
    expect(opened).toEqual([{ resource: 'chat scope' }]);
    expect(asks).toEqual([['chat scope', 'rule.a'], ['chat scope', 'rule.b']]);
  });

  it('names the sender in a header only while a trace listens', () => {
    expect(inRuleScope('rule.a', 0, () => senderHeader())).toEqual({});
    const stop = tagRequests();
    try {
      expect(inRuleScope('rule.a', 0, () => senderHeader())).toEqual({ [SENDER_HEADER]: 'rule rule.a' });
      expect(senderHeader()).toEqual({});
    } finally {
      stop();
    }
    expect(inRuleScope('rule.a', 0, () => senderHeader())).toEqual({});
  });

  it('tells the observer each exchange with its sender, and tags a body of 256 KB or more (the early-answer client) while a trace listens', async () => {
    const target = await taggedTarget();
    const seen: SentExchange[] = [];
    const client = new ObservingClient({}, (x) => seen.push(x));
    const big = 'x'.repeat(EARLY_ANSWER_BYTES);
    try {
      await inRuleScope('rule.a', 1, () => client.send({ method: 'POST', url: `${target.url}/untraced`, body: big }));
      const stop = tagRequests();
      try {
        await inRuleScope('rule.a', 0, () => client.send({ method: 'POST', url: `${target.url}/large`, body: big }));
      } finally {
        stop();
      }
    } finally {
      await client.close();
      await target.close();
    }
    expect(seen.map((x) => [x.sender, x.response?.status])).toEqual([[{ rule: 'rule.a', attempt: 1 }, 200], [{ rule: 'rule.a', attempt: 0 }, 200]]);
    expect(target.tags).toEqual({ '/untraced': undefined, '/large': 'rule rule.a' });
  });
});

const INTEGRATION = 'https://integration.example';

describe.skipIf(chromiumGap() !== undefined)('the browser\'s requests while a trace listens', () => {
  let target: Awaited<ReturnType<typeof taggedTarget>>;
  let browser: SharedBrowser;
  let shared: SharedContext;
  let stop: () => void;

  beforeAll(async () => {
    target = await taggedTarget((req): Answer | undefined => {
      if (req.url === '/moved') return { status: 303, headers: { location: '/landing' } };
      if (req.url === '/landing') return { status: 200, headers: { 'content-type': 'text/html' }, body: '<!doctype html><img src="/logo.png">' };
      return undefined;
    });
    stop = tagRequests();
    browser = await SharedBrowser.launch();
    shared = await SharedContext.open(browser, { interceptOrigin: INTEGRATION, targetOrigins: [target.url], timeoutMs: 15_000 });
  }, 60_000);

  afterAll(async () => {
    stop?.();
    await shared?.close();
    await browser?.close();
    await target?.close();
  });

  it('tags a page\'s document, the redirect Chromium follows, its image and a popup\'s first request with the rule that opened the page', async () => {
    const opened = await inRuleScope('rule.page', 0, () => shared.newPage(async (route) => {
      await route.fulfill({ status: 200, contentType: 'text/html', body: `<!doctype html><button id="open" onclick="window.open('${target.url}/popup', 'p')">Open</button>` });
    }));
    try {
      const page = opened.page;
      await page.goto(`${target.url}/moved`);
      await page.waitForLoadState('load');
      await page.goto(`${INTEGRATION}/start`);
      const [popup] = await Promise.all([page.waitForEvent('popup'), page.click('#open')]);
      await popup.waitForLoadState('domcontentloaded');
    } finally {
      await opened.close();
    }
    // Only the requests the test made: Chromium adds its own (a /favicon.ico, at a time of its choosing).
    const owned = ['/moved', '/landing', '/logo.png', '/popup'];
    expect(Object.fromEntries(owned.map((path) => [path, target.tags[path]]))).toEqual({ '/moved': 'rule rule.page', '/landing': 'rule rule.page', '/logo.png': 'rule rule.page', '/popup': 'rule rule.page' });
  });
});
