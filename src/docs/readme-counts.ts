/**
 * The README's figures (rules per level, fault switches), generated so that they never drift from the code.
 */
import { allRules } from '../../specs/index.js';
import { FAULTS } from '../emulator/faults.js';

export function readmeCountsMarkdown(): string {
  const rules = allRules();
  const count = (level: string) => rules.filter((r) => r.level === level).length;
  return [
    `${rules.length} rules (${count('must')} \`must\`, ${count('should')} \`should\`, ${count('info')} \`info\`), each traced to its spec section (\`docs/rules.md\`); every §4.2 filter row and`,
    'every §2.4–§2.11 field and §4.3 endpoint maps to rules (`docs/traceability-filters.md`, `docs/traceability-chat.md`, both',
    'generated from the rules). The bundled emulator is a strict reference implementation with a control API',
    `(\`docs/control-api.md\`) and ${FAULTS.length} fault switches; each fault makes the rules named for it fail (\`docs/faults.md\`), which is`,
    'how the kit proves that every `must` and `should` rule can fail.',
  ].join('\n');
}
