/**
 * The HTML report in Chromium: its order control puts the costliest rules of each section first, by requests or by
 * time, and back in the spec's order; each section header sums its requests.
 */
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM_FLAGS, CHROMIUM_PATH, chromiumGap } from '../../src/browser/launch.js';
import { summarize, type Report, type RuleResult } from '../../src/model/result.js';
import { renderHtml } from '../../src/report/html.js';

const rule = (id: string, requests: number, ms: number): RuleResult => ({
  id, section: '4.2', level: 'must', requires: [], status: 'passed', title: id, duration_ms: ms, detail: '', request_count: requests,
});
const results = [rule('a.cheap', 2, 900), rule('b.costly', 180, 40), rule('c.middle', 30, 5000)];
const report: Report = {
  suite: { name: 'kit', version: '0' }, target: { kind: 'emulator', base_url: 'http://x', chat_url: 'http://x' }, seed: 1,
  started_at: '2026-01-01T00:00:00Z', finished_at: '2026-01-01T00:00:10Z', summary: summarize(results), results,
};

describe.skipIf(chromiumGap() !== undefined)('the HTML report orders rules by cost', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_FLAGS] });
  });
  afterAll(() => browser?.close());

  it('by requests, by time, and back to the spec order', async () => {
    const page = await browser.newPage();
    await page.setContent(renderHtml(report));
    const order = () => page.$$eval('section.sec details.rule code', (els) => els.map((e) => e.textContent));
    expect(await order()).toEqual(['a.cheap', 'b.costly', 'c.middle']);
    await page.selectOption('#order', 'requests');
    expect(await order()).toEqual(['b.costly', 'c.middle', 'a.cheap']);
    await page.selectOption('#order', 'ms');
    expect(await order()).toEqual(['c.middle', 'a.cheap', 'b.costly']);
    await page.selectOption('#order', 'spec');
    expect(await order()).toEqual(['a.cheap', 'b.costly', 'c.middle']);
    expect(await page.textContent('section.sec header')).toContain('212 requests');
  });
});
