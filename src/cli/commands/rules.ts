/**
 * `conformance rules`: every rule with its id, section, level, requirements and title.
 */
import { allRules } from '../../../specs/index.js';
import { parseFlags } from '../args.js';

export async function rulesCommand(args: string[]): Promise<number> {
  const { values } = parseFlags(args, { json: { type: 'boolean' } }, 'rules');
  const rules = allRules();
  if (values.json) {
    process.stdout.write(`${JSON.stringify(rules.map(({ id, section, level, requires, title, reading }) => ({ id, section, level, requires, title, reading })), null, 2)}\n`);
    return 0;
  }
  const width = Math.max(...rules.map((r) => r.id.length));
  for (const r of rules) {
    process.stdout.write(`${r.id.padEnd(width)}  §${r.section.padEnd(5)} ${r.level.padEnd(6)} ${(r.requires.join(',') || '-').padEnd(14)} ${r.title}\n`);
  }
  process.stdout.write(`${rules.length} rules\n`);
  return 0;
}
