/**
 * The real browser: Debian's Chromium, launched by playwright-core with the kit's flags and a throw-away profile,
 * and the access-granting page rules run in it against the embedded emulator (they run in CI: .ci/run installs
 * Chromium). A missing Chromium fails here rather than skipping silently.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allRules } from '../../specs/index.js';
import { CHROMIUM_PATH, chromiumGap, SharedBrowser } from '../../src/browser/launch.js';
import type { Report } from '../../src/model/result.js';
import { executeRun } from '../../src/runner/execute.js';
import { startEmbeddedTarget, type EmbeddedTarget } from '../../src/targets/embedded.js';
import { targetFromEnv } from '../../src/targets/from-env.js';

const profiles = async (dir: string) => (await readdir(dir)).filter((f) => f.startsWith('playwright_chromiumdev_profile-')).sort();

describe('Chromium', () => {
  it(`is installed at ${CHROMIUM_PATH}`, () => {
    expect(chromiumGap()).toBeUndefined();
    expect(chromiumGap('/nonexistent/chromium')).toContain('not installed');
  });

  it('launches headless with a fresh profile that is removed after', async () => {
    // A temp folder of the test's own (Playwright makes the profile in os.tmpdir(), read from TMPDIR at each launch):
    // the machine's /tmp is shared with other tests and processes launching browsers of their own.
    const own = await mkdtemp(join(tmpdir(), 'browser-test-'));
    const saved = process.env.TMPDIR;
    process.env.TMPDIR = own;
    let b: SharedBrowser;
    try {
      b = await SharedBrowser.launch();
    } finally {
      if (saved === undefined) delete process.env.TMPDIR; else process.env.TMPDIR = saved;
    }
    try {
      expect(await profiles(own)).toHaveLength(1);
      expect(b.browser.version()).toMatch(/^\d+\./);
      const ctx = await b.newContext();
      const page = await ctx.newPage();
      expect(await page.evaluate('navigator.webdriver')).toBe(true);
      await ctx.close();
    } finally {
      await b.close();
    }
    expect(await profiles(own)).toEqual([]);
    await rm(own, { recursive: true, force: true });
  });
});

describe('browser capability', () => {
  const base = { BASE_URL: 'http://127.0.0.1:1', CLIENT_ID: 'x', CLIENT_SECRET: 'y', REDIRECT_URI: 'https://r.example/cb' };
  it('is on for the emulator, on for a remote target only with CONFORMANCE_BROWSER=1', () => {
    expect(targetFromEnv(base, 'emulator').capabilities).toContain('browser');
    expect(targetFromEnv(base, 'remote').capabilities).not.toContain('browser');
    expect(targetFromEnv(base, 'remote').gaps?.browser).toContain('CONFORMANCE_BROWSER=1');
    expect(targetFromEnv({ ...base, CONFORMANCE_BROWSER: '1' }, 'remote').capabilities).toContain('browser');
    expect(() => targetFromEnv({ ...base, CONFORMANCE_BROWSER: 'yes' }, 'remote')).toThrow(/CONFORMANCE_BROWSER/);
  });
  it('gives hook to the emulator (ephemeral loopback listener) and to a remote target with HOOK_LISTEN', () => {
    expect(targetFromEnv(base, 'emulator')).toMatchObject({ hookListen: '127.0.0.1:0' });
    expect(targetFromEnv(base, 'emulator').capabilities).toContain('hook');
    expect(targetFromEnv(base, 'remote').capabilities).not.toContain('hook');
    expect(targetFromEnv({ ...base, HOOK_LISTEN: '0.0.0.0:8765' }, 'remote').capabilities).toContain('hook');
  });
});

describe('access-granting page rules in Chromium', () => {
  let target: EmbeddedTarget;
  let report: Report;
  const rules = allRules().filter((r) => r.requires.includes('browser'));

  beforeAll(async () => {
    target = await startEmbeddedTarget();
    report = await executeRun({ target: target.config, rules, seed: 3, runs: 5 });
  }, 60_000);
  afterAll(() => target?.close());

  it('covers popup, post_message, deny, state, login, page content, the account choices, forgery, foreign redirects and an unknown mode', () => {
    expect(rules.map((r) => r.id).sort()).toEqual([
      'oauth.page.admin-accounts-only', 'oauth.page.allow-csrf', 'oauth.page.allow-popup', 'oauth.page.allow-post-message', 'oauth.page.deny',
      'oauth.page.login-required', 'oauth.page.private-single-account', 'oauth.page.registered-redirect-only', 'oauth.page.shows-integration',
      'oauth.page.state-round-trip', 'oauth.page.unknown-mode',
    ]);
  });

  it('keeps the sandbox instance when the configuration is read again (after Chromium was installed)', () => {
    expect(target.config.sandbox?.baseUrl).toBeDefined();
    expect(target.reconfigure().sandbox?.baseUrl).toBe(target.config.sandbox?.baseUrl);
  });

  it('passes every one of them on the emulator (an info rule reports)', () => {
    const expected = (r: (typeof rules)[number]) => (r.level === 'info' ? 'informational' : 'passed');
    expect(report.results.map((r) => `${r.id}: ${r.status}${r.status === 'passed' || r.status === 'informational' ? '' : ` ${r.detail}`}`))
      .toEqual(rules.map((r) => `${r.id}: ${expected(r)}`));
  });

  it('leaves no secret in the results (codes of the redirects, the login password)', async () => {
    const text = JSON.stringify(report);
    const leaked = (await target.emulator.issuedSecrets()).filter((s) => text.includes(s));
    expect(leaked.map((s) => `${s.slice(0, 4)}…`)).toEqual([]);
  });
});
