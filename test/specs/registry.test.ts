/**
 * The registry: ids unique and stable in form, every rule traced to a section that exists in the spec.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { allRules, SPEC_SECTIONS } from '../../specs/index.js';
import { CAPABILITIES } from '../../src/model/target.js';

const spec = readFileSync(new URL('../../specs/service.md', import.meta.url), 'utf8');
const sections = new Set([...spec.matchAll(/^#{2,4} (\d+(?:\.\d+)*)\.? /gm)].map((m) => m[1]!));

describe('rule registry', () => {
  const rules = allRules();

  it('has unique ids', () => {
    const seen = new Set<string>();
    const dupes = rules.map((r) => r.id).filter((id) => seen.has(id) || !seen.add(id));
    expect(dupes).toEqual([]);
  });

  it('uses dotted lower-case ids', () => {
    expect(rules.map((r) => r.id).filter((id) => !/^[a-z0-9]+(\.[a-z0-9_-]+)+$/.test(id))).toEqual([]);
  });

  it('traces every rule to a section of the spec', () => {
    expect(sections.size).toBeGreaterThan(20);
    expect(rules.filter((r) => !sections.has(r.section)).map((r) => `${r.id} → §${r.section}`)).toEqual([]);
  });

  it('gives every rule a level, known capabilities and a one-line title', () => {
    for (const r of rules) {
      expect(['must', 'should', 'info']).toContain(r.level);
      for (const c of r.requires) expect(CAPABILITIES).toContain(c);
      expect(r.title.length).toBeGreaterThan(10);
      expect(r.title).not.toContain('\n');
    }
  });

  it('names each section directory after an existing section, in spec order', () => {
    for (const s of SPEC_SECTIONS) expect(sections.has(s.section), s.section).toBe(true);
    const numbers = SPEC_SECTIONS.map((s) => s.section.split('.').map(Number));
    for (let i = 1; i < numbers.length; i += 1) {
      const [a, b] = [numbers[i - 1]!, numbers[i]!];
      expect(a[0]! < b[0]! || (a[0] === b[0] && (a[1] ?? 0) < (b[1] ?? 0)), `${SPEC_SECTIONS[i - 1]!.section} before ${SPEC_SECTIONS[i]!.section}`).toBe(true);
    }
  });

  it('names the groups of a section with sub-headings after them', () => {
    const subHeadings = new Map<string, string[]>();
    let current = '';
    for (const line of spec.split('\n')) {
      const numbered = /^#{2,3} (\d+(?:\.\d+)*)\.? /.exec(line);
      if (numbered) current = numbered[1]!;
      else if (line.startsWith('#### ')) subHeadings.set(current, [...(subHeadings.get(current) ?? []), line.slice(5).trim()]);
    }
    for (const s of SPEC_SECTIONS) {
      const headings = subHeadings.get(s.section);
      if (!headings) continue;
      for (const g of s.groups) expect(headings.concat(s.title), `§${s.section} group "${g.heading}"`).toContain(g.heading);
    }
  });

  it('holds no group of a single rule (a lone rule joins the group it belongs with)', () => {
    const lone = SPEC_SECTIONS.flatMap((s) => s.groups.filter((g) => g.rules.length < 2).map((g) => `§${s.section} ${g.heading}`));
    expect(lone).toEqual([]);
  });
});
