import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RuleResult } from '../../src/model/result.js';
import { compareSections, groupBySection } from '../../src/report/sections.js';
import { HTML_BODY_LIMIT, escapeHtml, renderHtml } from '../../src/report/html.js';
import { renderJunit, xmlAttr, xmlText } from '../../src/report/junit.js';
import { SUMMARY_LIMIT, mdCell, renderSummary } from '../../src/report/summary.js';
import { readReport, renderJson, REPORT_FORMAT_VERSION } from '../../src/report/json.js';
import { makeReport, xmlProblems } from './fixture.js';

function rule(i: number, over: Partial<RuleResult> = {}): RuleResult {
  return {
    id: `rule.${i}`, section: `${1 + (i % 9)}.${i % 4}`, level: i % 3 === 0 ? 'should' : 'must', requires: [], status: 'failed',
    title: `Rule number ${i}`, duration_ms: i % 50, detail: `expected 200 observed 500 | ${'x'.repeat(400)}`, ...over,
  };
}

describe('sections', () => {
  it('sorts section numbers numerically', () => {
    const sorted = ['10.1', '4.3', '5.2', '2.3', '4.1', '4.2', '4.10', '4'].sort(compareSections);
    expect(sorted).toEqual(['2.3', '4', '4.1', '4.2', '4.3', '4.10', '5.2', '10.1']);
    expect(groupBySection([rule(1, { section: '10.1' }), rule(2, { section: '2.3' })]).map((g) => g.section)).toEqual(['2.3', '10.1']);
  });
});

describe('html', () => {
  it('escapes every HTML-significant character', () => {
    expect(escapeHtml(`<a href="x" onclick='y'>&</a>`)).toBe('&lt;a href=&quot;x&quot; onclick=&#39;y&#39;&gt;&amp;&lt;/a&gt;');
  });

  it('escapes hostile text in ids, titles, headers and URLs too', () => {
    const evil = '"><script>alert(2)</script>';
    const html = renderHtml(makeReport([rule(1, {
      id: evil, title: evil, detail: evil, reading: evil, reproduction: evil,
      findings: [{ check: evil, verdict: 'failed', detail: evil }],
      exchanges: [{ request: { method: evil, url: evil, headers: { [evil]: evil }, body: evil }, response: { status: 500, headers: { x: evil }, body: evil }, error: evil, started_at: evil, duration_ms: 1 }],
      property: { seed: 1, runs: 1, counterexample: evil, replay: evil },
    })], { options: { only: evil } }));
    expect(html).not.toContain('<script>alert');
    expect(html.match(/<script/gi)?.length).toBe(1);
  });

  it('has a syntactically valid inline script', () => {
    const html = renderHtml(makeReport());
    const script = /<script>([\s\S]*)<\/script>/.exec(html)?.[1] ?? '';
    expect(script.length).toBeGreaterThan(100);
    expect(() => new Function(script)).not.toThrow();
    // the CSP pins the inline script by hash, so no other script could run even if an escape were missed
    const hash = createHash('sha256').update(script, 'utf8').digest('base64');
    expect(html).toContain(`script-src &#39;sha256-${hash}&#39;`);
  });

  it('cuts large bodies with a note, and stays in proportion for 1,000 rules', () => {
    const big = 'é'.repeat(50_000);
    const results = Array.from({ length: 1000 }, (_, i) => rule(i, {
      exchanges: [{ request: { method: 'GET', url: 'http://x/', headers: {} }, response: { status: 200, headers: {}, body: big }, started_at: '2025-01-01T00:00:00Z', duration_ms: 1 }],
    }));
    // Its size, not its time (which is the machine's): each rule's part is bounded, whatever its bodies hold.
    const html = renderHtml(makeReport(results));
    expect(html).toContain(`body cut: first ${HTML_BODY_LIMIT} of 100000 bytes shown`);
    expect(html.length).toBeLessThan(1000 * (HTML_BODY_LIMIT + 4000));
    expect(html.match(/<details class="rule"/g)?.length).toBe(1000);
  });
});

describe('junit', () => {
  it('escapes and strips characters invalid in XML 1.0', () => {
    expect(xmlText('a\u0000b\u0008c\u001fd\ufffe<&>')).toBe('a\ufffdb\ufffdc\ufffdd\ufffd&lt;&amp;&gt;');
    expect(xmlText('\ud800 lone')).toBe('\ufffd lone');
    expect(xmlText('😀 ok')).toBe('😀 ok');
    expect(xmlAttr('"q"\n\'a\'')).toBe('&quot;q&quot;&#10;&apos;a&apos;');
  });

  it('stays well-formed with hostile text everywhere', () => {
    const evil = ']]></failure><x a="\u0001">&&amp;\ud83d';
    const xml = renderJunit(makeReport([
      rule(1, { id: evil, title: evil, detail: evil }),
      rule(2, { status: 'errored', detail: evil, section: evil }),
      rule(3, { status: 'skipped', detail: evil }),
      rule(4, { status: 'non_strict', detail: evil, reproduction: evil }),
    ]));
    expect(xmlProblems(xml)).toEqual([]);
  });

  it('makes a rule skipped behind a refused step an error, not a skip: an unjudged rule is not green in CI', () => {
    const xml = renderJunit(makeReport([rule(1, { status: 'skipped', blocked_by: 'chat.message.answer', detail: 'not judged: no msgid' }), rule(2, { status: 'skipped', detail: 'filtered' })]));
    expect(xml).toContain('<error message="not judged: no msgid" type="unjudged">');
    expect(xml).toContain('<skipped message="filtered"/>');
    expect(xml).toMatch(/<testsuites [^>]*errors="1" skipped="1"/);
    expect(xmlProblems(xml)).toEqual([]);
  });

  it('the well-formedness check itself catches broken XML', () => {
    expect(xmlProblems('<a><b></a>')).not.toEqual([]);
    expect(xmlProblems('<a>x & y</a>')).not.toEqual([]);
    expect(xmlProblems('<a x="1">\u0001</a>')).not.toEqual([]);
    expect(xmlProblems('<a><</a>')).not.toEqual([]);
  });
});

describe('summary', () => {
  it('says ✅ when no must rule failed (a failed should rule does not fail the run)', () => {
    const md = renderSummary(makeReport([rule(1, { level: 'should' }), rule(2, { status: 'passed' })]));
    expect(md.split('\n')[0]).toMatch(/^# ✅ /);
  });

  it('says ❌ for a failed should rule when the run was strict', () => {
    const md = renderSummary(makeReport([rule(1, { level: 'should' })], { options: { strict: true } }));
    expect(md.split('\n')[0]).toMatch(/^# ❌ /);
  });

  it('lists a rule skipped behind a refused step with the unjudged ones, naming the rule that judges the step', () => {
    const md = renderSummary(makeReport([rule(1, { status: 'skipped', blocked_by: 'chat.message.answer', detail: 'not judged: no msgid' }), rule(2, { status: 'skipped', detail: 'filtered' })]));
    expect(md).toContain('## Failed, unjudged and non-strict rules');
    expect(md).toMatch(/\| ⚪ skipped behind chat\.message\.answer \| rule\.1 \|/);
    expect(md).toContain('## Skipped rules (1)');
  });

  it('stays under 64 KB with 2,000 failures and says how many were left out', () => {
    const results = Array.from({ length: 2000 }, (_, i) => rule(i));
    for (let i = 0; i < 300; i++) results.push(rule(5000 + i, { status: 'skipped', detail: `reason ${i % 7}` }));
    const md = renderSummary(makeReport(results));
    expect(Buffer.byteLength(md)).toBeLessThan(64 * 1024);
    expect(Buffer.byteLength(md)).toBeLessThanOrEqual(SUMMARY_LIMIT);
    const more = /… and (\d+) more/.exec(md);
    expect(more).not.toBeNull();
    const shown = md.split('\n').filter((l) => /^\| 🔴 failed \| rule\.\d+ /.test(l)).length;
    expect(shown + Number(more?.[1])).toBe(2000);
    expect(md).toContain('## Skipped rules (300)');
    expect(md).toMatch(/\| reason 0 \| 43 \|/);
  });

  it('escapes pipes and line breaks in cells and cuts long details', () => {
    expect(mdCell('a|b\nc\r\nd')).toBe('a\\|b c d');
    expect(mdCell('<img src=x>')).toBe('&lt;img src=x&gt;');
    expect(mdCell('y'.repeat(500), 200).length).toBe(200);
  });
});

describe('readReport', () => {
  let dir: string;
  beforeAll(async () => { dir = await mkdtemp(join(tmpdir(), 'report-read-')); });
  afterAll(async () => { await rm(dir, { recursive: true, force: true }); });

  it('reads back what was written', async () => {
    const path = join(dir, 'ok.json');
    await writeFile(path, renderJson(makeReport()));
    expect(await readReport(path)).toEqual({ format_version: REPORT_FORMAT_VERSION, ...makeReport() });
  });

  it('names the file on missing, unparsable or badly shaped input', async () => {
    const missing = join(dir, 'missing.json');
    await expect(readReport(missing)).rejects.toThrow(missing);
    const bad = join(dir, 'bad.json');
    await writeFile(bad, '{ not json');
    await expect(readReport(bad)).rejects.toThrow(/bad\.json is not valid JSON/);
    const shape = join(dir, 'shape.json');
    await writeFile(shape, JSON.stringify({ ...makeReport(), results: [{ id: 'x' }] }));
    await expect(readReport(shape)).rejects.toThrow(/shape\.json is not a conformance report: results\[0\]\.section/);
    const verdict = join(dir, 'verdict.json');
    const r = makeReport();
    await writeFile(verdict, JSON.stringify({ ...r, results: [{ ...r.results[0], status: 'ok' }] }));
    await expect(readReport(verdict)).rejects.toThrow(/status "ok" is not one of/);
    const arr = join(dir, 'arr.json');
    await writeFile(arr, '[]');
    await expect(readReport(arr)).rejects.toThrow(/arr\.json.*top level/);
    expect(await readFile(arr, 'utf8')).toBe('[]');
  });
});
