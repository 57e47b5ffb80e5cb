/**
 * The registry: ids unique and stable in form, every rule traced to a section that exists in the spec.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { allRules, SPEC_FILES } from '../../specs/index.js';
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

  it('names each spec file after an existing section', () => {
    for (const f of SPEC_FILES) expect(sections.has(f.section), f.section).toBe(true);
  });
});
