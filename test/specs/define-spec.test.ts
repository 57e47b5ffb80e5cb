/**
 * A spec file owns its section: its rules get the file's section and default level, and name a section only when theirs differs.
 */
import { describe, expect, it } from 'vitest';
import { SPEC_FILES } from '../../specs/index.js';
import { RuleDefinitionError } from '../../src/errors.js';
import { rule } from '../../src/model/define.js';
import { outcomeOf } from '../../src/model/outcome.js';
import { defineSpec } from '../../src/model/rule.js';

const run = async () => outcomeOf([]);

describe('defineSpec', () => {
  it('gives its rules the file section and default level, and keeps a section or level a rule names', () => {
    const file = defineSpec({ section: '4.1', title: 'x', level: 'must', rules: [
      rule({ id: 'a.own', title: 'takes the file section' }, run),
      rule({ id: 'a.other', section: '3.1', level: 'info', title: 'names another section' }, run),
    ] });
    expect(file.rules.map((r) => [r.id, r.section, r.level])).toEqual([['a.own', '4.1', 'must'], ['a.other', '3.1', 'info']]);
  });

  it('refuses a rule that names its file section, or has no level at all', () => {
    expect(() => defineSpec({ section: '4.1', title: 'x', level: 'must', rules: [rule({ id: 'a.same', section: '4.1', title: 'redundant' }, run)] }))
      .toThrow(RuleDefinitionError);
    expect(() => defineSpec({ section: '4.1', title: 'x', rules: [rule({ id: 'a.nolevel', title: 'no level anywhere' }, run)] }))
      .toThrow(/no level/);
  });

  it('leaves every rule of the registry with a section and a level', () => {
    const rules = SPEC_FILES.flatMap((f) => f.rules);
    expect(rules.filter((r) => !r.section || !r.level).map((r) => r.id)).toEqual([]);
    // Rules that carry another section than their file's keep it (ids and sections are public).
    const elsewhere = SPEC_FILES.flatMap((f) => f.rules.filter((r) => r.section !== f.section).map((r) => `${r.id} §${r.section}`));
    expect(elsewhere.length).toBeGreaterThan(20);
    expect(elsewhere).toContain('oauth.code.expired §3.1');
  });
});
