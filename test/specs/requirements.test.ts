/**
 * The requirement inventory (specs/requirements/): well-formed stable ids, every cited rule in the registry, every
 * statement traced (rules, untestable or gap), every spec section with tables or numbered rules inventoried, and the
 * number of gaps never growing.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { allRules } from '../../specs/index.js';
import { coverageOf, GAP_THEMES, NEEDS, REQUIREMENTS, type Requirement } from '../../specs/requirements/index.js';
import { GENERATED_DOCS } from '../../src/docs/index.js';

/**
 * Ratchet: the gaps are the work list of the next issues. Lower this as rules land (a gap becomes `rules`); never raise
 * it: a new statement the kit cannot check yet comes with a rule, or the inventory says why it is untestable.
 */
const MAX_GAPS = 0;

const spec = readFileSync(new URL('../../specs/service.md', import.meta.url), 'utf8');

/** Sections whose text (including their unnumbered sub-headings) holds a table or a numbered rule. */
function sectionsWithTablesOrRules(text: string): Set<string> {
  const out = new Set<string>();
  let section = '';
  for (const line of text.split('\n')) {
    const h = /^#{2,3} (\d+(?:\.\d+)*)\.? /.exec(line);
    if (h) {
      section = h[1]!;
      continue;
    }
    if (section && (line.startsWith('|') || /^\d+\. /.test(line))) out.add(section);
  }
  return out;
}

const specSections = new Set([...spec.matchAll(/^#{2,4} (\d+(?:\.\d+)*)\.? /gm)].map((m) => m[1]!));
const rules = new Map(allRules().map((r) => [r.id, r]));
const describeReq = (r: Requirement) => r.id;

describe('requirement inventory', () => {
  it('has unique ids of the form REQ-<section>-<slug>, the section being the statement\'s own', () => {
    const seen = new Set<string>();
    expect(REQUIREMENTS.map(describeReq).filter((id) => seen.has(id) || !seen.add(id))).toEqual([]);
    expect(REQUIREMENTS.filter((r) => !/^REQ-\d+(\.\d+)*-[a-z0-9]+(-[a-z0-9]+)*$/.test(r.id)).map(describeReq)).toEqual([]);
    expect(REQUIREMENTS.filter((r) => !r.id.startsWith(`REQ-${r.section}-`)).map(describeReq)).toEqual([]);
  });

  it('places every statement in a section of the spec (0 is the preamble)', () => {
    expect(specSections.size).toBeGreaterThan(20);
    expect(REQUIREMENTS.filter((r) => r.section !== '0' && !specSections.has(r.section)).map((r) => `${r.id} → §${r.section}`)).toEqual([]);
  });

  it('cites only rules that exist in the registry', () => {
    expect(REQUIREMENTS.flatMap((r) => (r.rules ?? []).filter((id) => !rules.has(id)).map((id) => `${r.id} → ${id}`))).toEqual([]);
  });

  it('traces every statement exactly one way: rules, untestable or gap', () => {
    const ways = (r: Requirement) => [(r.rules?.length ?? 0) > 0, Boolean(r.untestable?.trim()), Boolean(r.gap?.trim())].filter(Boolean).length;
    expect(REQUIREMENTS.filter((r) => ways(r) !== 1).map(describeReq)).toEqual([]);
    expect(REQUIREMENTS.filter((r) => r.partial !== undefined && (!r.rules || r.partial.trim() === '')).map(describeReq)).toEqual([]);
  });

  it('gives every gap a known theme, and themes only to gaps and partial coverage', () => {
    const themes = Object.keys(GAP_THEMES);
    expect(REQUIREMENTS.filter((r) => coverageOf(r) === 'gap' && !themes.includes(r.theme ?? '')).map(describeReq)).toEqual([]);
    expect(REQUIREMENTS.filter((r) => r.theme !== undefined && !['gap', 'partial'].includes(coverageOf(r))).map(describeReq)).toEqual([]);
  });

  it('states each statement, its observation and its needs in the stated forms', () => {
    for (const r of REQUIREMENTS) {
      expect(['must', 'should', 'info'], r.id).toContain(r.level);
      expect(r.source, r.id).toMatch(/^(table|prose|http|rfc(6749|6750|7519) §\d+(\.\d+)*)$/);
      expect(r.statement.trim().length, r.id).toBeGreaterThan(10);
      expect(r.observes.trim().length, r.id).toBeGreaterThan(5);
      expect(`${r.statement}${r.observes}`, r.id).not.toContain('\n');
      for (const n of r.needs) expect(NEEDS, r.id).toContain(n);
      if (r.needs.includes('nothing')) expect(r.needs, r.id).toEqual(['nothing']);
      expect(new Set(r.needs).size, r.id).toBe(r.needs.length);
    }
  });

  it('calls a must or should statement covered only when a judging rule (not an info rule) checks it', () => {
    const onlyRecorded = REQUIREMENTS.filter((r) => coverageOf(r) === 'covered' && r.level !== 'info'
      && (r.rules ?? []).every((id) => rules.get(id)?.level === 'info'));
    expect(onlyRecorded.map(describeReq)).toEqual([]);
  });

  it('inventories every section of the spec that has tables or numbered rules', () => {
    const inventoried = new Set(REQUIREMENTS.map((r) => r.section));
    const wanted = sectionsWithTablesOrRules(spec);
    expect(wanted.size).toBeGreaterThan(20);
    expect([...wanted].filter((s) => !inventoried.has(s))).toEqual([]);
  });

  it(`keeps the gaps at ${MAX_GAPS} or fewer (lower MAX_GAPS as rules land)`, () => {
    expect(REQUIREMENTS.filter((r) => coverageOf(r) === 'gap').length).toBeLessThanOrEqual(MAX_GAPS);
  });

  it('is published as docs/requirements.md, which test/specs/docs.test.ts keeps current with every other generated doc', () => {
    expect(Object.keys(GENERATED_DOCS)).toContain('requirements.md');
  });
});
