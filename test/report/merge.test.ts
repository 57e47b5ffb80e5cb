import { describe, expect, it } from 'vitest';
import type { RuleResult } from '../../src/model/result.js';
import { mergeReports } from '../../src/report/merge.js';
import { makeReport } from './fixture.js';

const r = (id: string, status: RuleResult['status'], detail: string = status): RuleResult => ({
  id, section: '4.1', level: 'must', requires: [], status, title: id, duration_ms: 1, detail,
});
const elsewhere = (id: string, shard: string) => r(id, 'skipped', `runs in another shard than ${shard}`);

describe('mergeReports', () => {
  const a = makeReport([r('a', 'passed'), elsewhere('b', '1/2'), r('c', 'failed', 'first'), elsewhere('d', '1/2')], {
    started_at: '2025-01-01T00:00:10.000Z', finished_at: '2025-01-01T00:01:00.000Z', request_count: 5, options: { profile: 'full', shard: '1/2' },
  });
  const b = makeReport([elsewhere('a', '2/2'), r('b', 'passed'), elsewhere('c', '2/2'), r('d', 'errored')], {
    started_at: '2025-01-01T00:00:05.000Z', finished_at: '2025-01-01T00:00:50.000Z', request_count: 7, options: { profile: 'full', shard: '2/2' },
  });

  it('takes each rule from the shard that ran it and recomputes the summary', () => {
    const m = mergeReports([a, b]);
    expect(m.results.map((x) => `${x.id}:${x.status}:${x.detail}`)).toEqual(['a:passed:passed', 'b:passed:passed', 'c:failed:first', 'd:errored:errored']);
    expect(m.summary).toEqual({ passed: 2, failed: 1, non_strict: 0, informational: 0, skipped: 0, errored: 1 });
  });

  it('keeps the earliest start, the latest finish, adds up request counts, and lists the shards joined', () => {
    const m = mergeReports([b, a]);
    expect(m.started_at).toBe('2025-01-01T00:00:05.000Z');
    expect(m.finished_at).toBe('2025-01-01T00:01:00.000Z');
    expect(m.request_count).toBe(12);
    expect(m.seed).toBe(42);
    expect(m.options).toEqual({ profile: 'full', shards: ['1/2', '2/2'] });
  });

  it('keeps a rule skipped for its own reason (a capability) in the shard that ran it', () => {
    const x = makeReport([r('x', 'skipped', 'target lacks capability: hook'), elsewhere('y', '1/2')], { options: { profile: 'full', shard: '1/2' } });
    const y = makeReport([elsewhere('x', '2/2'), r('y', 'non_strict')], { options: { profile: 'full', shard: '2/2' } });
    expect(mergeReports([y, x]).results.map((q) => `${q.id}:${q.detail}`)).toEqual(['x:target lacks capability: hook', 'y:non_strict']);
  });

  it('is pure: inputs are not modified', () => {
    const before = JSON.stringify([a, b]);
    mergeReports([a, b]);
    expect(JSON.stringify([a, b])).toBe(before);
  });

  it('refuses different seeds with ERR_MERGE_SEED', () => {
    expect(() => mergeReports([a, makeReport([], { seed: 7 })])).toThrow(expect.objectContaining({ code: 'ERR_MERGE_SEED' }));
  });

  it('refuses the same shard twice, and runs that overlap, with ERR_MERGE_OVERLAP', () => {
    expect(() => mergeReports([a, a])).toThrow(expect.objectContaining({ code: 'ERR_MERGE_OVERLAP', message: 'cannot merge: shard 1/2 is given twice' }));
    const again = { ...a, options: { profile: 'full', shard: '2/2' } };
    expect(() => mergeReports([a, again])).toThrow(expect.objectContaining({ code: 'ERR_MERGE_OVERLAP', message: expect.stringContaining('rule a ran in report 1 and in report 2') }));
    expect(() => mergeReports([makeReport([r('x', 'passed')]), makeReport([r('x', 'passed')])])).toThrow(expect.objectContaining({ code: 'ERR_MERGE_OVERLAP' }));
    // A merged report and one of its own shards again.
    expect(() => mergeReports([mergeReports([a, b]), b])).toThrow(expect.objectContaining({ code: 'ERR_MERGE_OVERLAP' }));
  });

  it('refuses shards of another kit, target, profile, case count or split with ERR_MERGE_INCOMPATIBLE', () => {
    const incompatible = [
      { ...b, suite: { name: 'conformance-kit', version: '9.9.9' } },
      { ...b, target: { kind: 'remote' as const, base_url: 'https://other.example', chat_url: 'https://other.example/chat' } },
      { ...b, options: { profile: 'quick', shard: '2/2' } },
      { ...b, options: { profile: 'full', runs: 3, shard: '2/2' } },
      { ...b, options: { profile: 'full', shard: '2/3' } },
    ];
    for (const other of incompatible) expect(() => mergeReports([a, other]), JSON.stringify(other.options)).toThrow(expect.objectContaining({ code: 'ERR_MERGE_INCOMPATIBLE' }));
    // The embedded emulator listens on another port in every run: still the same target.
    expect(() => mergeReports([a, { ...b, target: { ...b.target, base_url: 'http://127.0.0.1:5999' } }])).not.toThrow();
  });

  it('refuses an empty list', () => {
    expect(() => mergeReports([])).toThrow(/nothing to merge/);
  });

  it('a single report merges to itself (its shard listed)', () => {
    const m = mergeReports([a]);
    expect(m.results).toEqual(a.results);
    expect(m.summary).toEqual(a.summary);
    expect(m.options).toEqual({ profile: 'full', shards: ['1/2'] });
  });
});
