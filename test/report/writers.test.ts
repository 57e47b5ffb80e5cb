import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeReports, type WrittenReports } from '../../src/report/write.js';
import { REPORT_FORMAT_VERSION } from '../../src/report/json.js';
import { VERDICTS } from '../../src/model/outcome.js';
import { HOSTILE, RESULTS, makeReport, xmlProblems } from './fixture.js';

let dir: string;
let written: WrittenReports;
const report = makeReport();

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'report-test-'));
  written = await writeReports(report, { outDir: join(dir, 'nested', 'out') });
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('writeReports', () => {
  it('creates outDir and returns the paths of every file', async () => {
    expect(written.json.endsWith('report.json')).toBe(true);
    const names = await readdir(join(dir, 'nested', 'out'));
    expect(names.sort()).toEqual(['allure-results', 'junit.xml', 'report.html', 'report.json', 'summary.md']);
  });

  it('report.json is the report as given, pretty-printed, its form\'s version first', async () => {
    const text = await readFile(written.json, 'utf8');
    expect(JSON.parse(text)).toEqual({ format_version: REPORT_FORMAT_VERSION, ...report });
    expect(text.startsWith(`{\n  "format_version": "${REPORT_FORMAT_VERSION}",`)).toBe(true);
    expect(text).toContain('\n  "suite": {');
  });

  describe('report.html', () => {
    let html: string;
    beforeAll(async () => {
      html = await readFile(written.html, 'utf8');
    });

    it('contains every rule id and the header data', () => {
      for (const r of RESULTS) expect(html).toContain(r.id);
      expect(html).toContain('conformance-kit');
      expect(html).toContain('http://127.0.0.1:4010/chat');
      expect(html).toContain('profile=quick');
    });

    it('escapes hostile bodies: exactly one script element, none from the results', () => {
      expect(html).not.toContain(HOSTILE);
      expect(html).toContain('&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;');
      expect(html.match(/<script/gi)?.length).toBe(1);
      expect(html.match(/<\/script/gi)?.length).toBe(1);
      expect(html).not.toContain('<b>bold</b>');
      expect(html).toContain('&lt;b&gt;bold&lt;/b&gt;');
      expect(html).not.toContain('\u0000');
    });

    it('is self-contained: no external resources', () => {
      expect(html).not.toMatch(/<(link|img|iframe)\b/i);
      expect(html).not.toMatch(/\bsrc=/i);
      expect(html).not.toMatch(/@import|url\(/i);
      expect(html).toContain('Content-Security-Policy');
    });

    it('sorts sections numerically and shows property, reading and reproduction', () => {
      const order = [...html.matchAll(/data-section="([^"]+)"/g)].map((m) => m[1]);
      expect(order).toEqual(['4.1', '4.2', '5.2', '5.3', '10.1']);
      expect(html).toContain('conformance run --only chat.signature.tampered-body --seed 42');
      expect(html).toContain('another 4xx than the stated one is acceptable');
      expect(html).toContain('ETIMEDOUT');
      expect(html.match(/<details class="rule"/g)?.length).toBe(RESULTS.length);
    });
  });

  it('junit.xml is well-formed with the right counts', async () => {
    const xml = await readFile(written.junit, 'utf8');
    expect(xmlProblems(xml)).toEqual([]);
    expect(xml.match(/<testcase /g)?.length).toBe(7);
    expect(xml.match(/<failure /g)?.length).toBe(2); // one must, one should
    expect(xml.match(/<error /g)?.length).toBe(1);
    expect(xml.match(/<skipped /g)?.length).toBe(1);
    expect(xml.match(/<testsuite /g)?.length).toBe(5);
    // The top level's time is the run's wall time (finished_at − started_at: 20 s), not the sum of the rules' 11.549 s.
    expect(xml).toMatch(/<testsuites [^>]*tests="7" failures="2" errors="1" skipped="1" time="20.000"/);
    expect(xml).toMatch(/<testsuite id="0" name="§4\.1 conformance-kit 0\.1\.0" tests="2" failures="1" errors="0" skipped="0" time="1\.512"/);
    expect(xml).toContain('classname="4.1" name="oauth.token.bad-secret: Wrong client secret is refused &lt;b&gt;bold&lt;/b&gt;" time="1.500"');
    expect(xml).toContain('<skipped message="target lacks capability: hook"/>');
    expect(xml).toContain('verdict: non_strict');
    expect(xml).toContain('verdict: informational');
    expect(xml).not.toContain('\u0000');
    expect(xml).not.toContain('\u0007');
    // a passed rule is a plain testcase
    expect(xml).toMatch(/name="oauth\.token\.grant-ok: [^"]*" time="0\.012"\/>/);
  });

  it('summary.md has the status, counts and problem tables', async () => {
    const md = await readFile(written.summary, 'utf8');
    expect(md.split('\n')[0]).toMatch(/^# ❌ .*1 failed must rule$/);
    for (const v of VERDICTS) {
      expect(md).toMatch(new RegExp(`\\| \\S+ ${v} \\| ${report.summary[v]} \\|`));
    }
    expect(md).toContain('oauth.token.bad-secret');
    expect(md).toContain('chat.signature.tampered-body');
    expect(md).toContain('accounts.filter.limit');
    expect(md).not.toContain('accounts.list.fields'); // informational is not a problem
    expect(md).toContain('| target lacks capability: hook | 1 |');
    // the pipe and the line break of the failed detail are escaped inside the cell
    expect(md).toContain('second line');
    expect(md).toContain('ctrl \\| pipe');
    const row = md.split('\n').find((l) => l.includes('oauth.token.bad-secret'));
    expect(row?.split(/(?<!\\)\|/).length).toBe(7);
  });

  it('allure-results has one result per rule with the mapped status and labels', async () => {
    const files = await readdir(written.allureDir);
    const resultFiles = files.filter((f) => f.endsWith('-result.json'));
    expect(resultFiles.length).toBe(RESULTS.length);
    const results = await Promise.all(resultFiles.map(async (f) => JSON.parse(await readFile(join(written.allureDir, f), 'utf8'))));
    const byId = new Map(results.map((r) => [r.fullName, r]));
    const expected: Record<string, string> = {
      'oauth.token.grant-ok': 'passed', 'oauth.token.bad-secret': 'failed', 'accounts.filter.limit': 'passed',
      'accounts.list.fields': 'passed', 'chat.hook.disconnect': 'skipped', 'chat.signature.tampered-body': 'broken',
      'chat.signature.ok': 'failed',
    };
    for (const r of RESULTS) {
      const a = byId.get(r.id);
      expect(a, r.id).toBeDefined();
      expect(a.status, r.id).toBe(expected[r.id]);
      expect(a.name).toBe(r.title);
      expect(a.statusDetails.message).toBe(r.detail);
      const label = (n: string) => a.labels.filter((l: { name: string }) => l.name === n).map((l: { value: string }) => l.value);
      expect(label('epic')).toEqual(['Conformance']);
      expect(label('feature')).toEqual([`§${r.section}`]);
      expect(label('severity')).toEqual([{ must: 'critical', should: 'normal', info: 'minor' }[r.level]]);
      expect(label('tag')).toContain(r.level);
      expect(label('verdict')).toEqual([r.status]);
      expect(a.historyId).toMatch(/^[0-9a-f]{32}$/);
    }
    const nonStrict = byId.get('accounts.filter.limit');
    expect(nonStrict.parameters).toContainEqual({ name: 'verdict', value: 'non_strict', excluded: true });
    const failed = byId.get('oauth.token.bad-secret');
    expect(failed.attachments).toHaveLength(1);
    expect(failed.attachments[0].type).toBe('application/json');
    const attachment = JSON.parse(await readFile(join(written.allureDir, failed.attachments[0].source), 'utf8'));
    expect(attachment[0].response.body).toBe(HOSTILE);
  });

  it('historyId is stable across runs and stale results are removed on re-run', async () => {
    const first = await readdir(written.allureDir);
    const firstHistory = new Set(await Promise.all(first.filter((f) => f.endsWith('-result.json'))
      .map(async (f) => JSON.parse(await readFile(join(written.allureDir, f), 'utf8')).historyId as string)));
    await writeReports(report, { outDir: join(dir, 'nested', 'out') });
    const second = (await readdir(written.allureDir)).filter((f) => f.endsWith('-result.json'));
    expect(second.length).toBe(RESULTS.length);
    const secondHistory = new Set(await Promise.all(second
      .map(async (f) => JSON.parse(await readFile(join(written.allureDir, f), 'utf8')).historyId as string)));
    expect(secondHistory).toEqual(firstHistory);
  });
});
