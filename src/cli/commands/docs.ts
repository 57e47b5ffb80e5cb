/**
 * `conformance docs`: writes the generated files of docs/ (faults.md, rules.md, traceability tables).
 */
import { writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { GENERATED_DOCS } from '../../docs/index.js';
import { defineCommand } from '../command.js';

interface DocsFlags {
  readonly out?: string;
}

export const docsCommand = defineCommand<DocsFlags>({
  name: 'docs',
  summary: 'regenerate the generated docs/ files',
  description: 'Writes the files of docs/ that are generated from the code: rules.md, faults.md and the traceability tables.',
  examples: [['conformance docs', 'rewrite docs/rules.md, docs/faults.md and the traceability tables']],
  flags: (command) => command.option('--out <dir>', 'where to write them (default: docs)'),
  action: async (flags) => {
    const dir = resolve(flags.out ?? 'docs');
    for (const [name, render] of Object.entries(GENERATED_DOCS)) {
      await writeFile(join(dir, name), render());
      process.stdout.write(`wrote ${join(dir, name)}\n`);
    }
    return 0;
  },
});
