/**
 * `conformance docs`: writes the generated files of docs/ (faults.md, rules.md, requirements.md, traceability tables)
 * and the generated blocks of the README (its counts).
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { GENERATED_BLOCKS, GENERATED_DOCS, GENERATED_ROOT_FILES, withBlock } from '../../docs/index.js';
import { defineCommand } from '../command.js';

interface DocsFlags {
  readonly out?: string;
}

export const docsCommand = defineCommand<DocsFlags>({
  name: 'docs',
  summary: 'regenerate the generated docs/ files and README counts',
  description: 'Writes the files of docs/ that are generated from the code (rules.md, faults.md, requirements.md, the traceability tables) and the generated blocks of the README.',
  examples: [['conformance docs', 'rewrite docs/rules.md, docs/faults.md, the traceability tables and the README counts']],
  flags: (command) => command.option('--out <dir>', 'where to write them (default: docs)'),
  action: async (flags) => {
    const dir = resolve(flags.out ?? 'docs');
    for (const [name, render] of Object.entries(GENERATED_DOCS)) {
      await writeFile(join(dir, name), render());
      process.stdout.write(`wrote ${join(dir, name)}\n`);
    }
    // Root files and blocks live at the repository root, the parent of the docs folder.
    for (const [name, render] of Object.entries(GENERATED_ROOT_FILES)) {
      const path = join(dir, '..', name);
      await writeFile(path, render());
      process.stdout.write(`wrote ${path}\n`);
    }
    for (const block of GENERATED_BLOCKS) {
      const path = join(dir, '..', block.file);
      await writeFile(path, withBlock(await readFile(path, 'utf8'), block));
      process.stdout.write(`updated ${path} (${block.name})\n`);
    }
    return 0;
  },
});
