/**
 * `conformance docs`: writes the generated files of docs/ (faults.md, rules.md, requirements.md, traceability tables)
 * and the generated blocks of the README (its counts).
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { GENERATED_BLOCKS, GENERATED_DOCS, GENERATED_ROOT_FILES, withBlock } from '../../docs/index.js';
import { allRules } from '../../../specs/index.js';
import { REACH_PATH } from '../../paths.js';
import { placesOf } from '../../protocol/places.js';
import { traceRun, TRACE_SEED } from '../../runner/trace.js';
import { defineCommand } from '../command.js';
import { PROFILE_RUNS } from '../run-options.js';

interface DocsFlags {
  readonly out?: string;
  /** false with --no-trace: keep specs/requirements/reach.json as it is. */
  readonly trace?: boolean;
}

export const docsCommand = defineCommand<DocsFlags>({
  name: 'docs',
  summary: 'regenerate the generated docs/ files and README counts',
  description: 'Writes the files of docs/ that are generated from the code (rules.md, faults.md, requirements.md, the traceability tables) and the generated blocks of the README.',
  examples: [['conformance docs', 'rewrite docs/rules.md, docs/faults.md, the traceability tables and the README counts']],
  flags: (command) => command.option('--out <dir>', 'where to write them (default: docs)')
    .option('--no-trace', 'keep specs/requirements/reach.json instead of tracing a quick run against the emulator (about a minute)'),
  action: async (flags) => {
    const dir = resolve(flags.out ?? 'docs');
    if (flags.trace !== false) {
      // The places table (docs/requirements.md) reads which places each rule reaches from a traced quick run.
      const { places, cases } = await traceRun({ rules: allRules(), seed: TRACE_SEED, runs: PROFILE_RUNS.quick, placesOf });
      await writeFile(REACH_PATH, `${JSON.stringify({ places, cases }, null, 1)}\n`);
      process.stdout.write(`wrote ${REACH_PATH}\n`);
    }
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
