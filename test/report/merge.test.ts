import { describe, expect, it } from 'vitest';
import type { Report, RuleResult, TargetAccount } from '../../src/model/result.js';
import { mergeReports } from '../../src/report/merge.js';
import { withStatements } from '../../src/report/statements.js';
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

  describe('the account the target says it is', () => {
    const remote = (report: Report, accounts: TargetAccount[]): Report => ({
      ...report, target: { kind: 'remote', base_url: 'https://release.example', chat_url: 'https://chat.example', accounts },
    });
    const account = (id: number, credential = 'oauth-access'): TargetAccount => ({ base_url: 'https://release.example', credential, id, subdomain: `s${id}` });

    it('keeps the account of each bearer, from a shard that could read it', () => {
      const unread: TargetAccount = { base_url: 'https://release.example', credential: 'oauth-access', error: 'GET /api/v4/account answered 503 without the account\'s id' };
      const m = mergeReports([remote(a, [unread, account(31, 'restricted-user')]), remote(b, [account(31)])]);
      expect(m.target.accounts).toEqual([account(31), account(31, 'restricted-user')]);
    });

    it('refuses shards whose remote target said it is another account (ERR_MERGE_INCOMPATIBLE)', () => {
      expect(() => mergeReports([remote(a, [account(31)]), remote(b, [account(32)])]))
        .toThrow(expect.objectContaining({ code: 'ERR_MERGE_INCOMPATIBLE', message: expect.stringContaining('another account (31 (s31) vs 32 (s32) with the oauth-access token)') }));
    });

    it('keeps the first shard\'s accounts of the embedded emulator, a new one in every shard', () => {
      const emu = (report: Report, id: number): Report => ({ ...report, target: { ...report.target, accounts: [{ ...account(id), base_url: report.target.base_url }] } });
      expect(mergeReports([emu(a, 1), emu(b, 2)]).target.accounts?.map((x) => x.id)).toEqual([1]);
    });
  });

  it('carries what the statement table needs, and no shard\'s own table', () => {
    const inventory = ['a', 'b', 'c', 'd'].map((id) => ({ id: `REQ-${id}`, section: '4.1', level: 'must', rules: [id] }));
    const ownTable = (report: Report) => withStatements(report, inventory);
    const m = mergeReports([ownTable({ ...a, not_selected: ['z'] }), ownTable({ ...b, not_selected: ['z'] })]);
    expect(m.statements).toBeUndefined();
    expect(m.not_selected).toEqual(['z']);
    // Recomputed from the merged results: every statement judged, where each shard judged only its half.
    const judged = (report: Report) => report.statements!.map((st) => `${st.id}:${st.judgement}`);
    expect(judged(ownTable(a))).toEqual(['REQ-a:full', 'REQ-b:none', 'REQ-c:full', 'REQ-d:none']);
    expect(judged(withStatements(m, inventory))).toEqual(['REQ-a:full', 'REQ-b:full', 'REQ-c:full', 'REQ-d:none']);
  });

  it('joins the interruptions of its shards: the first signal, every rule not run or abandoned', () => {
    const stopped = (report: Report, notRun: string[], abandoned: string[], at: string): Report => ({ ...report, incomplete: true, interruption: { signal: 'SIGTERM', at, not_run: notRun, abandoned } });
    const m = mergeReports([stopped(a, ['d'], [], '2025-01-01T00:00:30.000Z'), stopped(b, ['a'], ['b'], '2025-01-01T00:00:20.000Z')]);
    expect(m.incomplete).toBe(true);
    expect(m.interruption).toEqual({ signal: 'SIGTERM', at: '2025-01-01T00:00:30.000Z', not_run: ['d', 'a'], abandoned: ['b'] });
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
