/**
 * docs/sandbox.md shows docs/examples/ verbatim (issue 30): every TypeScript block names its file on its first line
 * and is that file whole, and every file of docs/examples/ is shown. The files themselves run from a project that
 * installs the packed kit (consumer-project.test.ts) and from the kit (package-entry.test.ts, vitest-adapter.test.ts).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const EXAMPLES = join(ROOT, 'docs', 'examples');

function filesUnder(dir: string): string[] {
  // node_modules: vitest's cache of a run of the example, not part of it.
  return readdirSync(dir, { withFileTypes: true }).filter((e) => e.name !== 'node_modules')
    .flatMap((e) => (e.isDirectory() ? filesUnder(join(dir, e.name)) : [join(dir, e.name)]));
}

/** The TypeScript blocks of a Markdown page, each as written between its fences. */
function typescriptBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);
}

describe('docs/sandbox.md and docs/examples/', () => {
  const blocks = typescriptBlocks(readFileSync(join(ROOT, 'docs', 'sandbox.md'), 'utf8'));

  it('shows each example file whole, in a block that names it', () => {
    const shown = new Set<string>();
    for (const block of blocks) {
      const named = /^\/\/ (docs\/examples\/\S+)\n/.exec(block)?.[1];
      expect(named, `a block names no file of docs/examples/:\n${block.slice(0, 200)}`).toBeDefined();
      expect(block, named).toBe(readFileSync(join(ROOT, named!), 'utf8'));
      shown.add(named!);
    }
    const files = filesUnder(EXAMPLES).map((f) => relative(ROOT, f));
    expect([...shown].sort()).toEqual(files.sort());
  });
});
