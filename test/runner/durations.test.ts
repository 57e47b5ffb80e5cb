/**
 * The run order from the last durations: longest first, new rules before them, the others in their own order; the
 * cache is per kind of target, survives a run that skipped a rule, and a missing or broken file changes nothing.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RuleResult } from '../../src/model/result.js';
import { cacheDir, keepDurations, keepRequestCounts, lastDurations, lastRequestCounts, longestFirst } from '../../src/runner/durations.js';

const result = (id: string, ms: number, status: RuleResult['status'] = 'passed') => ({ id, duration_ms: ms, status }) as RuleResult;
const ids = (rules: readonly { id: string }[]) => rules.map((r) => r.id);

describe('run order from the last durations', () => {
  const rules = ['a', 'b', 'c', 'd'].map((id) => ({ id }));

  it('keeps the rules in their order without durations, and puts the longest first with them', () => {
    expect(ids(longestFirst(rules, new Map()))).toEqual(['a', 'b', 'c', 'd']);
    expect(ids(longestFirst(rules, new Map([['a', 5], ['b', 900], ['c', 40], ['d', 40]])))).toEqual(['b', 'c', 'd', 'a']);
    expect(ids(longestFirst(rules, new Map([['a', 5], ['b', 900]])))).toEqual(['c', 'd', 'b', 'a']);
  });

  it('keeps them per kind of target, keeps a skipped rule\'s earlier figure, and ignores a broken file', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'durations-')), 'durations.json');
    expect(lastDurations('emulator', path).size).toBe(0);
    keepDurations('emulator', [result('a', 10), result('b', 20)], path);
    keepDurations('remote', [result('a', 3000)], path);
    keepDurations('emulator', [result('a', 12), result('b', 0, 'skipped')], path);
    expect([...lastDurations('emulator', path)]).toEqual([['a', 12], ['b', 20]]);
    expect([...lastDurations('remote', path)]).toEqual([['a', 3000]]);
    writeFileSync(path, '{not json');
    expect(lastDurations('emulator', path).size).toBe(0);
    keepDurations('emulator', [result('c', 1)], path);
    expect([...lastDurations('emulator', path)]).toEqual([['c', 1]]);
  });

  it('keeps the request count of each rule that ran, per kind of target', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'requests-')), 'requests.json');
    keepRequestCounts('remote:5', [{ ...result('a', 10), request_count: 186 }, { ...result('b', 5, 'skipped'), request_count: 0 }, result('c', 1)], path);
    expect([...lastRequestCounts('remote:5', path)]).toEqual([['a', 186]]);
    expect(lastRequestCounts('remote:100', path).size).toBe(0);
  });
});

describe('where the figures live', () => {
  it('outside the package (npm ci wipes node_modules): CONFORMANCE_CACHE_DIR, else the user cache folder', () => {
    expect(cacheDir({ CONFORMANCE_CACHE_DIR: '/ci/cache/kit' })).toBe('/ci/cache/kit');
    expect(cacheDir({ XDG_CACHE_HOME: '/home/u/.xdg' })).toBe(join('/home/u/.xdg', 'conformance-kit'));
    expect(cacheDir({})).toBe(join(homedir(), '.cache', 'conformance-kit'));
    expect(cacheDir()).not.toContain('node_modules');
  });
});
