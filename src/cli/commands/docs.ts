/**
 * `conformance docs`: writes the generated files of docs/ (faults.md, rules.md, traceability tables) and the
 * generated blocks of the README (its counts).
 * `conformance faults`: prints the fault table.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { GENERATED_BLOCKS, GENERATED_DOCS, withBlock } from '../../docs/index.js';
import { faultsMarkdown } from '../../docs/faults.js';
import { parseFlags } from '../args.js';

export async function docsCommand(args: string[]): Promise<number> {
  const { values } = parseFlags(args, { out: { type: 'string' } }, 'docs');
  const dir = resolve(values.out ?? 'docs');
  for (const [name, render] of Object.entries(GENERATED_DOCS)) {
    await writeFile(join(dir, name), render());
    process.stdout.write(`wrote ${join(dir, name)}\n`);
  }
  // Blocks live in files at the repository root, the parent of the docs folder.
  for (const block of GENERATED_BLOCKS) {
    const path = join(dir, '..', block.file);
    await writeFile(path, withBlock(await readFile(path, 'utf8'), block));
    process.stdout.write(`updated ${path} (${block.name})\n`);
  }
  return 0;
}

export async function faultsCommand(args: string[]): Promise<number> {
  parseFlags(args, {}, 'faults');
  process.stdout.write(faultsMarkdown());
  return 0;
}
