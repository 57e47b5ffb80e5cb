/**
 * `conformance rules`: every rule with its id, section, level, requirements and title.
 */
import { allRules } from '../../../specs/index.js';
import { defineCommand } from '../command.js';

interface RulesFlags {
  readonly json?: boolean;
}

export const rulesCommand = defineCommand<RulesFlags>({
  name: 'rules',
  summary: 'every rule: id, section, level, title',
  description: 'Lists every rule: its id, spec section, level (must, should, info), the capabilities it requires and its '
    + 'title; --json adds each rule\'s reading of the spec.',
  examples: [
    ['conformance rules', 'a table, one rule a line'],
    ['conformance rules --json', 'with each rule\'s reading of the spec, for tools'],
  ],
  flags: (command) => command.option('--json', 'JSON, with each rule\'s reading of the spec'),
  action: async (flags) => {
    const rules = allRules();
    if (flags.json) {
      process.stdout.write(`${JSON.stringify(rules.map(({ id, section, level, requires, title, reading }) => ({ id, section, level, requires, title, reading })), null, 2)}\n`);
      return 0;
    }
    const width = Math.max(...rules.map((r) => r.id.length));
    for (const r of rules) {
      process.stdout.write(`${r.id.padEnd(width)}  §${r.section.padEnd(5)} ${r.level.padEnd(6)} ${(r.requires.join(',') || '-').padEnd(14)} ${r.title}\n`);
    }
    process.stdout.write(`${rules.length} rules\n`);
    return 0;
  },
});
