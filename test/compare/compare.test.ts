/**
 * Two runs compared rule by rule: exchanges paired by endpoint and occurrence, differences counted per place with one
 * example, the noise a secondary run shows kept apart (the place and everything under it), rules run on one side only
 * kept apart too; compare.json and compare.html written from it, secrets masked and text escaped.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { failing, failOnClasses } from '../../src/cli/commands/compare.js';
import { compareCaptures } from '../../src/compare/compare.js';
import type { ComparisonReport } from '../../src/compare/types.js';
import { renderComparisonHtml, writeComparisonReports } from '../../src/report/comparison.js';
import { capture, exchange } from './fixture.js';

const A = 'http://127.0.0.1:4010';
const A2 = 'http://127.0.0.1:4011';
const B = 'http://127.0.0.1:5020';
const SECRET = 'tok-abcdefghijklmnop';

const list = (base: string, names: string[], o: { extra?: boolean; total?: number } = {}) =>
  exchange('GET', `${base}/api/v4/leads?page=1`, 200, { _page: 1, ...(o.total === undefined ? {} : { total: o.total }), _embedded: { leads: names.map((name, i) => ({ id: i + 1, name, ...(o.extra ? { x: true } : {}) })) } });
const token = (base: string, type: string) => exchange('POST', `${base}/oauth2/access_token`, 200, { token_type: type, access_token: SECRET, expires_in: 86400 }, { request: { grant_type: 'refresh_token', refresh_token: 'r' } });

function full(c: ReturnType<typeof compareCaptures>): ComparisonReport {
  const d = (base: string, label: string) => ({ label, kind: 'emulator' as const, base_url: base });
  return { ...c, seed: 1, options: { runs: 5 }, started_at: 'a', finished_at: 'b', primary: d(A, 'release 41'), candidate: d(B, 'release 42 <b>'), secondary: d(A2, 'release 41 again') };
}

describe('compareCaptures', () => {
  const primary = capture(A, {
    'lists.a': { exchanges: [list(A, ['x', 'y'], { total: 2 }), list(A, ['x', 'y'], { total: 2 })] },
    'oauth.b': { exchanges: [token(A, 'Bearer')] },
    'only.here': { exchanges: [] },
  }, [SECRET]);
  // The secondary differs from the primary in `total` (noise: a count the service computes as it goes).
  const secondary = capture(A2, {
    'lists.a': { exchanges: [list(A2, ['x', 'y'], { total: 3 }), list(A2, ['x', 'y'], { total: 2 })] },
    'oauth.b': { exchanges: [token(A2, 'Bearer')] },
    'only.here': { exchanges: [] },
  }, [SECRET]);
  const candidate = capture(B, {
    'lists.a': { exchanges: [list(B, ['x', 'y'], { total: 7, extra: true }), list(B, ['x', 'y'], { total: 9, extra: true }), list(B, ['x', 'y']), exchange('GET', `${B}/api/v4/contacts`, 204, undefined)] },
    'oauth.b': { status: 'failed', exchanges: [token(B, 'mac')] },
    'only.here': { status: 'skipped', exchanges: [] },
  }, [SECRET]);
  const c = compareCaptures(primary, candidate, [secondary]);
  const rows = c.differences.map((d) => `${d.rule} | ${d.endpoint} | ${d.class} ${d.place} | ${d.count} of ${d.of}`);

  it('lists each difference once per place, with how often it was seen, verdict changes first', () => {
    expect(rows).toEqual([
      'oauth.b | (rule) | verdict verdict | 1 of 1',
      'oauth.b | POST {base_url}/oauth2/access_token | value body $.token_type | 1 of 1',
      'only.here | (rule) | verdict verdict | 1 of 1',
      'lists.a | GET {base_url}/api/v4/leads | shape body $._embedded.leads[].x | 4 of 2',
      'lists.a | GET {base_url}/api/v4/contacts | exchange exchange | 1 of 1',
    ]);
    expect(c.summary).toMatchObject({ rules_compared: 2, exchanges_compared: 3, differences: 5, noise_places: 1, verdict_changes: 2 });
    expect(c.summary.by_class).toMatchObject({ shape: 1, exchange: 1, verdict: 2, value: 1, status: 0 });
    expect(c.by_endpoint.map((e) => `${e.endpoint} ${e.differences}`)).toEqual(['(rule) 2', 'GET {base_url}/api/v4/contacts 1', 'GET {base_url}/api/v4/leads 1', 'POST {base_url}/oauth2/access_token 1']);
  });

  it('tells what each difference means for the spec: a verdict change, a broken rule, or allowed', () => {
    expect(c.differences.map((d) => `${d.rule} ${d.class} ${d.standing} (${d.verdicts.primary} → ${d.verdicts.candidate})`)).toEqual([
      'oauth.b verdict changes a verdict (passed → failed)',
      'oauth.b value changes a verdict (passed → failed)',
      'only.here verdict changes a verdict (passed → skipped)',
      'lists.a shape allowed by the spec (passed → passed)',
      'lists.a exchange allowed by the spec (passed → passed)',
    ]);
    expect(c.summary.by_standing).toEqual({ 'changes a verdict': 3, 'breaks a rule': 0, 'allowed by the spec': 2 });
    // Failed on both sides: the difference lies in a rule neither answer satisfies.
    const failedA = capture(A, { 'oauth.b': { status: 'failed', exchanges: [token(A, 'Bearer')] } });
    const failedB = capture(B, { 'oauth.b': { status: 'failed', exchanges: [token(B, 'mac')] } });
    expect(compareCaptures(failedA, failedB, []).differences.map((d) => d.standing)).toEqual(['breaks a rule']);
  });

  it('counts a verdict the primary itself gave in another run as noise, and any other verdict change not', () => {
    const flakyOnPrimary = capture(A2, { 'oauth.b': { status: 'failed', exchanges: [token(A2, 'Bearer')] } });
    const primaryOnly = capture(A, { 'oauth.b': { exchanges: [token(A, 'Bearer')] } });
    const failedCandidate = capture(B, { 'oauth.b': { status: 'failed', exchanges: [token(B, 'Bearer')] } });
    expect(compareCaptures(primaryOnly, failedCandidate, [flakyOnPrimary]).differences.filter((d) => d.class === 'verdict')).toEqual([]);
    const erroredCandidate = capture(B, { 'oauth.b': { status: 'errored', exchanges: [token(B, 'Bearer')] } });
    expect(compareCaptures(primaryOnly, erroredCandidate, [flakyOnPrimary]).differences.map((d) => d.what)).toEqual(['passed → errored']);
  });

  it('takes a rule\'s time for noise unless it moved beyond what the secondary run shows', () => {
    const timed = (base: string, ms: number) => capture(base, { 'chat.slow': { exchanges: [], ms } });
    // 20 s → 45 s, where the secondary took 30 s: within three times the 10 s the primary moved by itself.
    const loaded = compareCaptures(timed(A, 20_000), timed(B, 45_000), [timed(A2, 30_000)]);
    expect(loaded.differences).toEqual([]);
    expect(loaded.noise.map((n) => `${n.place} ${n.example.primary} → ${n.example.other}`)).toEqual(['rule time 20000 ms → 45000 ms']);
    // 3 s → 65 s, the secondary 3.5 s: a difference.
    expect(compareCaptures(timed(A, 3_000), timed(B, 65_000), [timed(A2, 3_500)]).differences.map((d) => `${d.class} ${d.place} ${d.standing}`)).toEqual(['timing rule time allowed by the spec']);
  });

  it('keeps the noise apart: the place the secondary differed in is not a difference', () => {
    expect(c.noise.map((n) => `${n.rule} | ${n.class} ${n.place} | ${n.example.primary} → ${n.example.other}`)).toEqual(['lists.a | value body $.total | 2 → 3']);
    expect(rows.some((r) => r.includes('$.total'))).toBe(false);
  });

  it('takes another number of calls of an endpoint whose answers were noisy for noise too', () => {
    // the candidate called the leads list a third time: the secondary's answers there differed, so that is not a finding
    expect(rows.some((r) => r.includes('leads | exchange'))).toBe(false);
    const quiet = compareCaptures(primary, candidate, [primary]).differences.map((d) => `${d.endpoint} ${d.class}`);
    expect(quiet).toContain('GET {base_url}/api/v4/leads exchange');
  });

  it('keeps a rule run on one side only apart, and a rule the candidate did not select out of the verdicts', () => {
    expect(c.not_paired).toEqual([{ rule: 'only.here', primary: 'passed', candidate: 'skipped' }]);
    const unselected = capture(B, { 'oauth.b': { exchanges: [token(B, 'Bearer')] }, 'only.here': { status: 'skipped', exchanges: [] } });
    const notSelected = { ...unselected, report: { ...unselected.report, results: unselected.report.results.map((r) => (r.id === 'only.here' ? { ...r, detail: 'not selected by --only oauth.b' } : r)) } };
    const p = capture(A, { 'oauth.b': { exchanges: [token(A, 'Bearer')] }, 'only.here': { exchanges: [] } });
    expect(compareCaptures(p, notSelected, []).differences).toEqual([]);
  });

  it('shows both answers of an example, masked', () => {
    const d = c.differences.find((x) => x.place === 'body $.token_type')!;
    expect(d.primary.value).toBe('"Bearer"');
    expect(d.candidate.value).toBe('"mac"');
    expect(d.candidate.body).toMatch(/"access_token":"tok-…[0-9a-f]{6}"/);
    expect(JSON.stringify(c)).not.toContain(SECRET);
  });

  it('covers what lies under a noisy place', () => {
    const noisy = capture(A2, { 'lists.a': { exchanges: [exchange('GET', `${A2}/api/v4/leads?page=1`, 200, { _page: 1, _embedded: 'other' }), list(A2, ['x', 'y'], { total: 2 })] }, 'oauth.b': { exchanges: [token(A2, 'Bearer')] } });
    const rest = compareCaptures(primary, candidate, [noisy]).differences.map((d) => d.place);
    expect(rest).not.toContain('body $._embedded.leads[].x');
  });

  it('finds nothing between a run and itself', () => {
    const self = compareCaptures(primary, primary, []);
    expect(self.differences).toEqual([]);
    expect(self.noise).toEqual([]);
  });

  it('fails a CI job on a verdict change whatever the classes, and on the classes --fail-on names', () => {
    const report = full(c);
    const places = (raw: string | undefined) => failing(report, failOnClasses(raw)).map((d) => `${d.rule} ${d.place}`);
    expect(places(undefined)).toHaveLength(5);
    expect(places('none')).toEqual([]);
    expect(places('status,header')).toEqual(['oauth.b verdict', 'only.here verdict']);
    expect(places('value')).toEqual(['oauth.b verdict', 'oauth.b body $.token_type', 'only.here verdict']);
    // The shape difference lies in a rule both servers pass: allowed by the spec, it fails `any` only.
    expect(places('shape')).toEqual(['oauth.b verdict', 'only.here verdict']);
    expect(places('any')).toContain('lists.a body $._embedded.leads[].x');
    expect(() => failOnClasses('status,colour')).toThrow(/--fail-on must be any, none or a list of verdict, exchange/);
  });

  it('writes compare.json and a self-contained compare.html, every text escaped', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'compare-'));
    const written = await writeComparisonReports(full(c), dir);
    expect(JSON.parse(readFileSync(written.json, 'utf8'))).toEqual(full(c));
    const html = readFileSync(written.html, 'utf8');
    expect(html).toContain('release 42 &lt;b&gt;');
    expect(html).not.toContain('release 42 <b>');
    expect(html).not.toContain(SECRET);
    expect(html).toMatch(/Content-Security-Policy" content="default-src &#39;none&#39;; style-src &#39;unsafe-inline&#39;; script-src &#39;sha256-/);
    expect(html).not.toMatch(/<(link|img|script) [^>]*src=/);
    expect(renderComparisonHtml(full(compareCaptures(primary, primary, [])))).toContain('no differences');
  });
});

describe('calls sent side by side', () => {
  const race = (base: string, winner: number, startedMs: number) => [0, 1, 2].map((i) => ({
    ...(i === winner ? token(base, 'Bearer') : exchange('POST', `${base}/oauth2/access_token`, 400, { error: 'invalid_grant' }, { request: { grant_type: 'refresh_token', refresh_token: 'r' } })),
    startedMs: startedMs + i, durationMs: 50,
  }));
  const after = (base: string, status: number) => ({ ...exchange('POST', `${base}/oauth2/access_token`, status, { error: 'invalid_grant' }, { request: { grant_type: 'refresh_token', refresh_token: 'r' } }), startedMs: 1000, durationMs: 5 });

  it('are paired by their answers: the winner of one race with the winner of the other', () => {
    const a = capture(A, { 'oauth.race': { exchanges: [...race(A, 0, 0), after(A, 400)] } });
    const b = capture(B, { 'oauth.race': { exchanges: [...race(B, 2, 0), after(B, 400)] } });
    expect(compareCaptures(a, b, []).differences).toEqual([]);
  });

  it('but calls sent one after another keep their order', () => {
    const a = capture(A, { 'oauth.seq': { exchanges: [{ ...after(A, 400), startedMs: 0 }, { ...token(A, 'Bearer'), startedMs: 100, durationMs: 5 }] } });
    const b = capture(B, { 'oauth.seq': { exchanges: [{ ...token(B, 'Bearer'), startedMs: 0, durationMs: 5 }, { ...after(B, 400), startedMs: 100 }] } });
    const status = compareCaptures(a, b, []).differences.find((d) => d.place === 'status')!;
    expect(`${status.what}, ${status.count} of ${status.of}`).toBe('400 → 200 (another class), 2 of 2');
  });
});

describe('calls sent other inputs', () => {
  const filter = (base: string, q: string, status: number) => exchange('GET', `${base}/api/v4/leads?filter[name]=${q}`, status, status === 200 ? { _page: 1 } : { title: 'Bad Request' });

  it('are paired with the call of the same input first, whatever the order', () => {
    const a = capture(A, { 'lists.f': { exchanges: [filter(A, 'x', 200), filter(A, 'y', 400)] } });
    const b = capture(B, { 'lists.f': { exchanges: [filter(B, 'y', 400), filter(B, 'x', 200)] } });
    expect(compareCaptures(a, b, []).differences).toEqual([]);
  });

  it('are kept apart as noise: the kit sent them, not the servers', () => {
    const a = capture(A, { 'lists.f': { exchanges: [filter(A, 'x', 200)] } });
    const b = capture(B, { 'lists.f': { exchanges: [filter(B, 'z', 400)] } });
    const c = compareCaptures(a, b, []);
    expect(c.differences).toEqual([]);
    expect(c.noise.map((n) => `${n.source} ${n.class} ${n.place} ${n.example.primary} → ${n.example.other}`)).toContain('other input status status 200 → 400');
  });
});
