/**
 * compare.html in Chromium, as a person reads it: the endpoint table, each rule's differences with how often, an
 * example opening on both answers side by side, the class buttons and the search filtering the rows, the noise
 * apart; and no request leaves the page (its CSP allows nothing but its own inline script and style).
 */
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM_FLAGS, CHROMIUM_PATH, chromiumGap } from '../../src/browser/launch.js';
import { compareCaptures } from '../../src/compare/compare.js';
import type { ComparisonReport } from '../../src/compare/types.js';
import { renderComparisonHtml } from '../../src/report/comparison.js';
import { capture, exchange } from './fixture.js';

const A = 'http://127.0.0.1:4010';
const A2 = 'http://127.0.0.1:4011';
const B = 'http://127.0.0.1:5020';
const token = (base: string, type: string, ms = 5) => exchange('POST', `${base}/oauth2/access_token`, 200, { token_type: type, expires_in: 86400 }, { request: { grant_type: 'refresh_token' }, ms });
const connect = (base: string, title: string, contentType: string) => exchange('POST', `${base}/v2/origin/custom/ch/connect`, 200, { title, scope_id: `${base}-s` }, { headers: { 'content-type': contentType } });

const c = compareCaptures(
  capture(A, { 'oauth.a': { exchanges: [token(A, 'Bearer'), token(A, 'Bearer')] }, 'chat.b': { exchanges: [connect(A, 'Channel', 'application/json; charset=utf-8')] } }),
  capture(B, { 'oauth.a': { exchanges: [token(B, 'mac'), token(B, 'Bearer')] }, 'chat.b': { exchanges: [connect(B, 'Channel <script>alert(1)</script>', 'application/json')] } }),
  [capture(A2, { 'oauth.a': { exchanges: [token(A2, 'Bearer'), token(A2, 'Bearer')] }, 'chat.b': { exchanges: [connect(A2, 'Channel 2', 'application/json; charset=utf-8')] } })],
);
const report: ComparisonReport = {
  ...c, seed: 3, options: { runs: 5 }, started_at: '2026-11-28T10:00:00Z', finished_at: '2026-11-28T10:01:00Z',
  primary: { label: 'release 41', kind: 'remote', base_url: A }, candidate: { label: 'release 42', kind: 'remote', base_url: B }, secondary: { label: 'release 41 again', kind: 'remote', base_url: A },
};

describe.skipIf(chromiumGap() !== undefined)('compare.html in Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_FLAGS] });
  });
  afterAll(() => browser?.close());

  it('shows each difference with both answers, filters by class and text, and keeps the noise apart', async () => {
    const page = await browser.newPage();
    const requests: string[] = [];
    const errors: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
    await page.setContent(renderComparisonHtml(report));
    const visible = () => page.$$eval('tr.diff', (rows) => rows.filter((r) => !(r as unknown as { hidden: boolean }).hidden).map((r) => r.querySelector('td:nth-child(3)')!.textContent));

    expect(await page.textContent('#summary')).toContain('2 differences, 1 noise place');
    expect(await page.$$eval('#endpoints tbody tr td:first-child', (tds) => tds.map((t) => t.textContent))).toEqual(['POST {base_url}/oauth2/access_token', 'POST {base_url}/v2/origin/custom/ch/connect']);
    expect(await visible()).toEqual(['body $.token_type', 'header content-type']);
    expect(await page.textContent('#shown')).toBe('2 of 2 differences shown');
    expect(await page.textContent('section.rule[data-rule="oauth.a"] tr.diff')).toContain('1 of 2');

    // an example opens on both answers side by side
    await page.click('section.rule[data-rule="oauth.a"] details summary');
    const sides = await page.$$eval('section.rule[data-rule="oauth.a"] details .side .value', (els) => els.map((e) => e.textContent));
    expect(sides).toEqual(['"Bearer"', '"mac"']);
    expect(await page.isVisible('section.rule[data-rule="oauth.a"] details .side pre')).toBe(true);

    await page.click('button[data-class="header"]');
    expect(await visible()).toEqual(['body $.token_type']);
    await page.click('button[data-class="header"]');
    await page.fill('#q', 'connect');
    expect(await visible()).toEqual(['header content-type']);
    expect(await page.textContent('#shown')).toBe('1 of 2 differences shown');

    // the title differed in the secondary run too: noise, with both values; the candidate's markup stays text
    expect(await page.$$eval('#noise tbody tr', (rows) => rows.map((r) => r.textContent))).toEqual([expect.stringContaining('body $.title')]);
    expect(await page.$$eval('script', (s) => s.length)).toBe(1);
    expect(errors).toEqual([]);
    expect(requests.filter((u) => !u.startsWith('about:') && !u.startsWith('data:'))).toEqual([]);
  });
});
