/**
 * Reports a CI parses and a person reads (issue 38 §6, §3): report.json of the shipped schema, regressions against a
 * baseline at the head of summary.md and report.html and typed failures in junit.xml, report.html opening on what
 * needs attention, durations that read right, and the run's configuration, credentials and interruption shown when
 * the report carries them.
 */
import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import type { Report } from '../../src/model/result.js';
import { renderHtml } from '../../src/report/html.js';
import { REPORT_FORMAT_VERSION, REPORT_SCHEMA_PATH, renderJson, shapeProblem } from '../../src/report/json.js';
import { renderJunit } from '../../src/report/junit.js';
import { formatDuration } from '../../src/report/sections.js';
import { renderSummary } from '../../src/report/summary.js';
import { makeReport, RESULTS } from './fixture.js';

const schema = JSON.parse(readFileSync(REPORT_SCHEMA_PATH, 'utf8')) as object;
const validate = new Ajv({ allErrors: true, strict: true }).compile(schema);

/** A report with every optional field the contract declares. */
const FULL: Report = makeReport(RESULTS, {
  target: {
    kind: 'remote', base_url: 'https://release.example', chat_url: 'https://chat.example', auth_url: 'https://auth.example', control_url: 'https://release.example/_control',
    base_url_2: 'https://second.example',
    capabilities: ['control'],
    accounts: [
      { base_url: 'https://release.example', credential: 'oauth-access', id: 31, subdomain: 'release' },
      { base_url: 'https://release.example', credential: 'restricted-user', error: 'GET /api/v4/account answered 500 without the account\'s id' },
    ],
  },
  not_selected: ['x.not.selected'],
  baseline: { regressions: ['oauth.token.bad-secret'], fixes: [], added: ['chat.signature.ok'] },
  configuration: { name: 'staging-no-control', title: 'a staging account without a control API' },
  credentials: { access_token: 'long-lived', kinds: ['long-lived', 'oauth-access'] },
  statements: [{ id: 'REQ-4.1-x', section: '4.1', level: 'must', judgement: 'none', rules: [], cause: 'control', reason: 'needs a control API', left: ['rule a: b'] }],
  incomplete: true,
  interruption: { signal: 'SIGINT', at: '2025-01-01T00:00:10.000Z', not_run: ['chat.hook.disconnect'], abandoned: [] },
});

describe('report.json and its schema', () => {
  it('the fixtures, bare and with every optional field, validate against the shipped schema', () => {
    for (const report of [makeReport(), FULL]) {
      const written = JSON.parse(renderJson(report)) as unknown;
      expect(validate(written), JSON.stringify(validate.errors)).toBe(true);
      expect(shapeProblem(written)).toBeUndefined();
    }
  });

  it('carries format_version first, whatever version it was read with', () => {
    const written = renderJson({ ...makeReport(), format_version: '0.9' });
    expect(Object.keys(JSON.parse(written) as object)[0]).toBe('format_version');
    expect((JSON.parse(written) as Report).format_version).toBe(REPORT_FORMAT_VERSION);
  });

  it('the schema refuses what a parser could not read', () => {
    const r = JSON.parse(renderJson(makeReport())) as Record<string, unknown> & { results: Record<string, unknown>[] };
    const broken = [
      { ...r, summary: { passed: 1 } },
      { ...r, seed: 'seven' },
      { ...r, results: [{ ...r.results[0], level: 'may' }] },
      { ...r, results: [{ ...r.results[0], duration_ms: -1 }] },
      { ...r, statements: [{ id: 'x', section: '1', judgement: 'maybe', rules: [] }] },
      { ...r, format_version: 'one' },
      { ...r, target: { ...(r.target as object), accounts: [{ base_url: 'https://x.example', id: 31 }] } },
      { ...r, target: { ...(r.target as object), accounts: [{ base_url: 'https://x.example', credential: 'oauth-access', id: true }] } },
    ];
    for (const b of broken) expect(validate(b), JSON.stringify(b).slice(0, 80)).toBe(false);
  });
});

describe('regressions against the baseline', () => {
  const report = makeReport(RESULTS, { baseline: { regressions: ['oauth.token.bad-secret'], fixes: ['accounts.list.fields'], added: [] } });

  it('head summary.md: the title counts them and their table comes before the verdicts', () => {
    const md = renderSummary(report);
    expect(md.split('\n')[0]).toBe('# ❌ conformance-kit 0.1.0: 1 regression against the baseline (1 failed must rule in all)');
    const table = md.indexOf('## Regressions against the baseline (1)');
    expect(table).toBeGreaterThan(0);
    expect(table).toBeLessThan(md.indexOf('| verdict | count |'));
    expect(md.slice(table)).toMatch(/\| oauth\.token\.bad-secret \| must \| §4\.1 \| expected 401 observed 200/);
  });

  it('head report.html: listed, linked to the rule, before the rules', () => {
    const html = renderHtml(report);
    const attention = html.indexOf('id="attention"');
    expect(attention).toBeGreaterThan(0);
    expect(attention).toBeLessThan(html.indexOf('<details class="rule"'));
    expect(html.slice(attention)).toMatch(/^[^]*?<h2>Regressions against the baseline \(1\)<\/h2><ul><li><a href="#rule-oauth\.token\.bad-secret">/);
    expect(html).toContain('<dt>baseline</dt><dd>1 regression, 1 fixed, 0 new rules</dd>');
  });

  it('are failures of their own type in junit.xml', () => {
    const xml = renderJunit(report);
    expect(xml).toMatch(/<failure message="regression against the baseline: expected 401 observed 200[^"]*" type="regression">regression: held in the baseline report, fails now/);
    expect(xml.match(/<failure /g)).toHaveLength(2); // the regression, and the should rule that failed in the baseline too
    expect(xml.match(/type="regression"/g)).toHaveLength(1);
  });

  it('without a baseline there is no regression section, and a clean baseline run says so in the title', () => {
    expect(renderSummary(makeReport())).not.toContain('Regressions');
    const clean = makeReport(RESULTS.filter((r) => r.status !== 'failed'), { baseline: { regressions: [], fixes: [], added: [] } });
    expect(renderSummary(clean).split('\n')[0]).toBe('# ✅ conformance-kit 0.1.0: no regression against the baseline (0 failed must rules in all)');
  });
});

describe('report.html opens with failures, errors and regressions', () => {
  it('lists the failed and errored rules, must first, before the controls and the rules', () => {
    const html = renderHtml(makeReport());
    const attention = html.indexOf('<section class="first" id="attention">');
    expect(attention).toBeGreaterThan(0);
    expect(attention).toBeLessThan(html.indexOf('<div class="controls">'));
    const first = html.slice(attention, html.indexOf('</section>', attention));
    expect(first.indexOf('<h2>Failed (2)</h2>')).toBeGreaterThan(0);
    expect(first.indexOf('#rule-oauth.token.bad-secret')).toBeLessThan(first.indexOf('#rule-chat.signature.ok')); // must before should
    expect(first).toContain('<h2>Errored or unjudged (1)</h2>');
    expect(first).toContain('#rule-chat.signature.tampered-body');
    expect(first).not.toContain('oauth.token.grant-ok');
  });

  it('says so when nothing needs attention', () => {
    const html = renderHtml(makeReport(RESULTS.filter((r) => r.status === 'passed')));
    expect(html).toContain('<section class="first clean" id="attention"><h2>Nothing failed, errored or regressed</h2></section>');
  });
});

describe('the run header', () => {
  it('shows the configuration, the run\'s access token, an interruption and the rules not selected', () => {
    const md = renderSummary(FULL);
    expect(md).toContain('Configuration **staging-no-control**: a staging account without a control API');
    expect(md).toContain('The run\'s access token: **long-lived** · credentials offered: long-lived, oauth-access');
    expect(md).toContain('⚠️ **Incomplete run**: stopped by SIGINT at 2025-01-01T00:00:10.000Z; 1 rule(s) not run, 0 abandoned');
    expect(md.split('\n')[0]).toContain('(incomplete run)');
    expect(md).toContain('· 7 rules selected (1 not selected)');
    const html = renderHtml(FULL);
    expect(html).toContain('<dt>configuration</dt><dd><b>staging-no-control</b> a staging account without a control API</dd>');
    expect(html).toContain('<dt>access token</dt><dd>long-lived');
    expect(html).toContain('<dt>incomplete</dt>');
    expect(html).toContain('<dt>not selected</dt><dd>1 rules (--only/--exclude): not run, not counted</dd>');
  });
});

describe('durations', () => {
  it('read right at every rounding edge', () => {
    expect(formatDuration(0)).toBe('0 ms');
    expect(formatDuration(999)).toBe('999 ms');
    expect(formatDuration(1000)).toBe('1.0 s');
    expect(formatDuration(59_949)).toBe('59.9 s');
    expect(formatDuration(59_960)).toBe('1 min 0 s'); // not "60.0 s"
    expect(formatDuration(179_600)).toBe('3 min 0 s'); // not "2 min 60 s"
    expect(formatDuration(239_999)).toBe('4 min 0 s'); // not "3 min 60 s"
    expect(formatDuration(185_000)).toBe('3 min 5 s');
    expect(formatDuration(3_599_700)).toBe('1 h 0 min');
    expect(formatDuration(3_725_000)).toBe('1 h 2 min');
    expect(formatDuration(Number.NaN)).toBe('—');
  });

  it('in report.html, never "60 s"', () => {
    const html = renderHtml(makeReport(RESULTS, { started_at: '2025-01-01T00:00:00.000Z', finished_at: '2025-01-01T00:03:59.900Z' }));
    expect(html).toContain('(4 min 0 s)');
    expect(html).not.toMatch(/\b60 s\b/);
  });
});
