/**
 * `conformance docs`: writes the generated files of docs/ (faults.md, rules.md, traceability tables).
 * `conformance faults`: prints the fault table.
 */
import { writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { GENERATED_DOCS } from '../../docs/index.js';
import { faultsMarkdown } from '../../docs/faults.js';
import { parseFlags } from '../args.js';

export async function docsCommand(args: string[]): Promise<number> {
  const { values } = parseFlags(args, { out: { type: 'string' } }, 'docs');
  const dir = resolve(values.out ?? 'docs');
  for (const [name, render] of Object.entries(GENERATED_DOCS)) {
    await writeFile(join(dir, name), render());
    process.stdout.write(`wrote ${join(dir, name)}\n`);
  }
  return 0;
}

export async function faultsCommand(args: string[]): Promise<number> {
  parseFlags(args, {}, 'faults');
  process.stdout.write(faultsMarkdown());
  return 0;
}
