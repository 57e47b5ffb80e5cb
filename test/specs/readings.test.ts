/**
 * The reading policy (src/model/readings.ts, docs/verdicts.md) and the readings the inventory gives its statements:
 * every name on the page, every statement a known reading, `info` statements open points that fail only on a breakage,
 * `must` and `should` statements never open points, and the review rows a reading cites well-formed.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { outcomesOf, REQUIREMENTS, type Requirement } from '../../specs/requirements/index.js';
import {
  BREAKAGE, NONE, OUTCOMES, POLICY_EFFECT_WINDOW_MS, POLICY_HANG_MS, POLICY_HOOK_WINDOW_MS, READING_NAMES, READINGS,
} from '../../src/model/readings.js';

const verdicts = readFileSync(new URL('../../docs/verdicts.md', import.meta.url), 'utf8');
const id = (r: Requirement) => r.id;

describe('the reading policy', () => {
  it('names each reading in kebab case, with every outcome class stated', () => {
    expect(READING_NAMES.length).toBeGreaterThanOrEqual(13);
    for (const name of READING_NAMES) {
      expect(name).toMatch(/^[a-z]+(-[a-z]+)*$/);
      const r = READINGS[name];
      expect(r.title.trim().length, name).toBeGreaterThan(3);
      expect(r.applies.trim().length, name).toBeGreaterThan(10);
      for (const o of OUTCOMES) expect(r[o].trim().length, `${name} ${o}`).toBeGreaterThan(0);
    }
  });

  it('gives the names the issue asks for', () => {
    for (const name of ['status-code', 'required-member', 'unmarked-member', 'wrong-type', 'enumeration', 'answer-member', 'rfc-unstated',
      'security', 'open-point', 'effect-window', 'lifetime', 'precondition', 'one-observation']) {
      expect(READING_NAMES).toContain(name);
    }
  });

  it('puts nothing but a breakage under failed for an open point, and nothing under passed or non_strict', () => {
    expect(READINGS['open-point'].failed).toBe(BREAKAGE);
    expect(READINGS['open-point'].passed).toBe(NONE);
    expect(READINGS['open-point'].non_strict).toBe(NONE);
  });

  it('states its times in its texts as its constants give them', () => {
    const s = (ms: number) => `${ms / 1000} s`;
    expect(BREAKAGE).toContain(s(POLICY_HANG_MS));
    expect(READINGS['effect-window'].applies).toContain(s(POLICY_EFFECT_WINDOW_MS));
    expect(READINGS['effect-window'].applies).toContain(s(POLICY_HOOK_WINDOW_MS));
    expect(READINGS['effect-window'].applies).toContain(`slower than ${s(POLICY_HANG_MS)}`);
  });

  it('is written in docs/verdicts.md: every name, in the section and in its generated table', () => {
    const start = verdicts.indexOf('## How a statement\'s wording becomes a verdict');
    expect(start).toBeGreaterThan(0);
    const section = verdicts.slice(start, verdicts.indexOf('\n## ', start + 1));
    const table = section.slice(section.indexOf('<!-- generated:readings -->'), section.indexOf('<!-- /generated:readings -->'));
    for (const name of READING_NAMES) {
      expect(section, name).toContain(`**\`${name}\`**`);
      expect(table, name).toContain(`| \`${name}\`: ${READINGS[name].title} |`);
    }
  });
});

describe('the readings of the inventory', () => {
  it('gives every statement a known reading (and known further readings, none repeated)', () => {
    expect(REQUIREMENTS.filter((r) => !READING_NAMES.includes(r.reading?.kind)).map(id)).toEqual([]);
    for (const r of REQUIREMENTS) {
      const also = r.reading.also ?? [];
      for (const a of also) expect(READING_NAMES, r.id).toContain(a);
      expect(also, r.id).not.toContain(r.reading.kind);
      expect(new Set(also).size, r.id).toBe(also.length);
    }
  });

  it('states every outcome of every statement, its own words non-empty and not a copy of the default', () => {
    for (const r of REQUIREMENTS) {
      const outcomes = outcomesOf(r);
      for (const o of OUTCOMES) {
        expect(outcomes[o].trim().length, `${r.id} ${o}`).toBeGreaterThan(0);
        const own = r.reading[o];
        if (own !== undefined) {
          expect(own.trim().length, `${r.id} ${o}`).toBeGreaterThan(2);
          expect(own, `${r.id} ${o}`).not.toBe(READINGS[r.reading.kind][o]);
          expect(own, `${r.id} ${o}`).not.toContain('\n');
        }
      }
    }
  });

  it('reads every info statement as an open point whose only failure is a breakage', () => {
    const info = REQUIREMENTS.filter((r) => r.level === 'info');
    expect(info.length).toBeGreaterThan(30);
    expect(info.filter((r) => r.reading.kind !== 'open-point').map(id)).toEqual([]);
    expect(info.filter((r) => outcomesOf(r).failed !== BREAKAGE).map(id)).toEqual([]);
    expect(info.filter((r) => r.reading.passed !== undefined || r.reading.non_strict !== undefined).map(id)).toEqual([]);
  });

  it('never reads a must or should statement as an open point', () => {
    expect(REQUIREMENTS.filter((r) => r.level !== 'info' && r.reading.kind === 'open-point').map(id)).toEqual([]);
  });

  it('cites only rows the reviews have (K1–K42, C1–C68; R2-A1–A12, R2-C1–C20)', () => {
    // The independent reading of 2026-11-26 numbers its rows K1–K42 (access, tokens, lists, HTTP) and C1–C68 (chat);
    // that of 2026-11-27 R2-A1–R2-A12 and R2-C1–R2-C20.
    const range = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}${i + 1}`);
    const rows = new Set([...range('K', 42), ...range('C', 68), ...range('R2-A', 12), ...range('R2-C', 20)]);
    const cited = REQUIREMENTS.flatMap((r) => [...(r.reading.review ?? '').matchAll(/(?<![\w-])((?:R2-)?[KAC]\d+)\b/g)].map((m) => ({ id: r.id, row: m[1]! })));
    expect(cited.length).toBeGreaterThan(50);
    expect(cited.filter((c) => !rows.has(c.row)).map((c) => `${c.id} → ${c.row}`)).toEqual([]);
    expect(REQUIREMENTS.filter((r) => r.reading.review !== undefined && !/^(?:R2-)?[KAC]\d+/.test(r.reading.review)).map(id)).toEqual([]);
  });
});
