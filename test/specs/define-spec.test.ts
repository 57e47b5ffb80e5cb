/**
 * A section owns its rules: they get its section, and the level, requires and needs of their group, else of their
 * section, unless they state their own; a rule names a section only when its own differs.
 */
import { describe, expect, it } from 'vitest';
import { SPEC_SECTIONS } from '../../specs/index.js';
import { RuleDefinitionError } from '../../src/errors.js';
import { rule } from '../../src/model/define.js';
import { outcomeOf } from '../../src/model/outcome.js';
import { defineGroup, defineSection, defineSpec } from '../../src/model/rule.js';

const run = async () => outcomeOf([]);

describe('defineSection and defineGroup', () => {
  it('pass the section and its defaults down through the group to each rule, the group\'s over the section\'s, the rule\'s over both', () => {
    const section = defineSection({ section: '4.3', title: 'x', defaults: { level: 'must', requires: ['write'], needs: ['second-account'] }, groups: [
      defineGroup({ heading: 'plain', rules: [rule({ id: 'a.inherits', title: 'takes every default of the section' }, run)] }),
      defineGroup({ heading: 'odd', defaults: { level: 'should', requires: [] }, rules: [
        rule({ id: 'a.group', title: 'takes the group defaults, the section needs' }, run),
        rule({ id: 'a.own', section: '8', level: 'info', requires: ['control'], needs: [], title: 'states its own' }, run),
      ] }),
    ] });
    expect(section.rules.map((r) => [r.id, r.section, r.level, r.requires, r.needs])).toEqual([
      ['a.inherits', '4.3', 'must', ['write'], ['second-account']],
      ['a.group', '4.3', 'should', [], ['second-account']],
      ['a.own', '8', 'info', ['control'], undefined],
    ]);
    expect(section.groups.map((g) => [g.heading, g.rules.length])).toEqual([['plain', 1], ['odd', 2]]);
  });

  it('refuses a rule that names its section\'s own, or has no level anywhere', () => {
    expect(() => defineSection({ section: '4.1', title: 'x', defaults: { level: 'must' }, groups: [defineGroup({ heading: 'h', rules: [rule({ id: 'a.same', section: '4.1', title: 'redundant' }, run)] })] }))
      .toThrow(RuleDefinitionError);
    expect(() => defineSection({ section: '4.1', title: 'x', groups: [defineGroup({ heading: 'h', rules: [rule({ id: 'a.nolevel', title: 'no level anywhere' }, run)] })] }))
      .toThrow(/no level/);
  });

  it('defineSpec (a section of one group, for tests) gives the file section and default level, and keeps what a rule names', () => {
    const file = defineSpec({ section: '4.1', title: 'x', level: 'must', rules: [
      rule({ id: 'a.own', title: 'takes the file section' }, run),
      rule({ id: 'a.other', section: '3.1', level: 'info', title: 'names another section' }, run),
    ] });
    expect(file.rules.map((r) => [r.id, r.section, r.level, r.requires])).toEqual([['a.own', '4.1', 'must', []], ['a.other', '3.1', 'info', []]]);
    expect(() => defineSpec({ section: '4.1', title: 'x', rules: [rule({ id: 'a.nolevel', title: 'no level anywhere' }, run)] })).toThrow(/no level/);
  });

  it('leaves every rule of the registry with a section and a level, filed under its own section but where its home holds no group', () => {
    const rules = SPEC_SECTIONS.flatMap((s) => s.rules);
    expect(rules.filter((r) => !r.section || !r.level).map((r) => r.id)).toEqual([]);
    // Ids and sections are public: a rule whose section has no directory of its own (§2.9 and §7 would hold one rule
    // each, §4.1's "Account API calls" one) stays beside the rules it goes with and names its section.
    const elsewhere = SPEC_SECTIONS.flatMap((s) => s.rules.filter((r) => r.section !== s.section).map((r) => `${r.id} §${r.section} in §${s.section}`));
    expect(elsewhere.sort()).toEqual(['api.account.body §4.1 in §5.1', 'chat.delivery-status.in-message §2.9 in §3.3', 'errors.body-structure §7 in §4.3']);
  });
});
