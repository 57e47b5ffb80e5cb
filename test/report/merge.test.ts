import { describe, expect, it } from 'vitest';
import type { RuleResult } from '../../src/model/result.js';
import { mergeReports } from '../../src/report/merge.js';
import { makeReport } from './fixture.js';

const r = (id: string, status: RuleResult['status'], detail: string = status): RuleResult => ({
  id, section: '4.1', level: 'must', requires: [], status, title: id, duration_ms: 1, detail,
});

describe('mergeReports', () => {
  const a = makeReport([r('a', 'passed'), r('b', 'skipped', 'only filter'), r('c', 'failed', 'first')], {
    started_at: '2025-01-01T00:00:10.000Z', finished_at: '2025-01-01T00:01:00.000Z', request_count: 5, options: { profile: 'full', shard: '1/2' },
  });
  const b = makeReport([r('b', 'passed'), r('c', 'failed', 'second'), r('d', 'errored')], {
    started_at: '2025-01-01T00:00:05.000Z', finished_at: '2025-01-01T00:00:50.000Z', request_count: 7, options: { profile: 'full', shard: '2/2' },
  });

  it('concatenates, de-duplicates by id and recomputes the summary', () => {
    const m = mergeReports([a, b]);
    expect(m.results.map((x) => `${x.id}:${x.status}:${x.detail}`)).toEqual(['a:passed:passed', 'b:passed:passed', 'c:failed:first', 'd:errored:errored']);
    expect(m.summary).toEqual({ passed: 2, failed: 1, non_strict: 0, informational: 0, skipped: 0, errored: 1 });
  });

  it('keeps the earliest start, the latest finish and adds up request counts', () => {
    const m = mergeReports([a, b]);
    expect(m.started_at).toBe('2025-01-01T00:00:05.000Z');
    expect(m.finished_at).toBe('2025-01-01T00:01:00.000Z');
    expect(m.request_count).toBe(12);
    expect(m.seed).toBe(42);
    expect(m.options).toEqual({ profile: 'full' });
  });

  it('keeps the first when both are skipped, and a later non-skipped over an earlier skipped', () => {
    const m = mergeReports([makeReport([r('x', 'skipped', 'one')]), makeReport([r('x', 'skipped', 'two')]), makeReport([r('x', 'non_strict')])]);
    expect(m.results).toHaveLength(1);
    expect(m.results[0]?.status).toBe('non_strict');
    const n = mergeReports([makeReport([r('x', 'skipped', 'one')]), makeReport([r('x', 'skipped', 'two')])]);
    expect(n.results[0]?.detail).toBe('one');
  });

  it('is pure: inputs are not modified', () => {
    const before = JSON.stringify([a, b]);
    mergeReports([a, b]);
    expect(JSON.stringify([a, b])).toBe(before);
  });

  it('refuses different seeds with ERR_MERGE_SEED', () => {
    expect(() => mergeReports([a, makeReport([], { seed: 7 })])).toThrow(expect.objectContaining({ code: 'ERR_MERGE_SEED' }));
  });

  it('refuses an empty list', () => {
    expect(() => mergeReports([])).toThrow(/nothing to merge/);
  });

  it('a single report merges to itself (minus shard)', () => {
    const m = mergeReports([a]);
    expect(m.results).toEqual(a.results);
    expect(m.summary).toEqual(a.summary);
  });
});
