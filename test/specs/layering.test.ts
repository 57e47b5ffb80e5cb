/**
 * The import graph of src/, specs/ and generators/ (type-only imports included): no cycle, src/model imports no other
 * src/ folder, and spec files import only specs/kit.ts, their section's support.ts and the shared fixtures (and fast-check).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** `import … from '…'`, `import type … from '…'`, `export … from '…'`, `import '…'`, across lines. */
const IMPORT = /(?:^|[\n;])\s*(?:import|export)\s+(?:type\s+)?(?:[\w*\s{},$]*?\s+from\s+)?['"]([^'"]+)['"]/g;

/** Module specifiers of a source text, in order. */
export function specifiersOf(text: string): string[] {
  return [...text.matchAll(IMPORT)].map((m) => m[1]!);
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

type Graph = Map<string, string[]>;

/** Files relative to the repository, each with the files it imports (relative imports only; `.js` names the `.ts`). */
function importGraph(): { graph: Graph; packages: Map<string, string[]> } {
  const graph: Graph = new Map();
  const packages = new Map<string, string[]>();
  for (const file of ['src', 'specs', 'generators'].flatMap((d) => sourceFiles(join(ROOT, d)))) {
    const from = relative(ROOT, file);
    const specs = specifiersOf(readFileSync(file, 'utf8'));
    graph.set(from, specs.filter((s) => s.startsWith('.')).map((s) => relative(ROOT, resolve(dirname(file), s)).replace(/\.js$/, '.ts')));
    packages.set(from, specs.filter((s) => !s.startsWith('.')));
  }
  return { graph, packages };
}

/** Strongly connected components with more than one file, or a file importing itself (Tarjan). */
export function cyclesOf(graph: Graph): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (v: string) => {
    index.set(v, counter);
    low.set(v, counter);
    counter += 1;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || graph.get(v)!.includes(v)) cycles.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return cycles;
}


describe('the import parser and the cycle finder', () => {
  it('read every import form, type-only and multi-line ones included', () => {
    const text = `import fc from 'fast-check';\nimport type { A } from './a.js';\nimport {\n  b,\n  type C,\n} from '../b.js';\nexport * from './c.js';\nexport type { D } from './d.js';\nimport './side-effect.js';\nconst s = "import x from 'nope'";`;
    expect(specifiersOf(text)).toEqual(['fast-check', './a.js', '../b.js', './c.js', './d.js', './side-effect.js']);
  });

  it('find a cycle through type-only edges and none in a tree', () => {
    expect(cyclesOf(new Map([['a', ['b']], ['b', ['c']], ['c', ['a']], ['d', ['a']]]))).toEqual([['a', 'b', 'c']]);
    expect(cyclesOf(new Map([['a', ['b', 'c']], ['b', ['c']], ['c', []]]))).toEqual([]);
    expect(cyclesOf(new Map([['a', ['a']]]))).toEqual([['a']]);
  });
});

describe('layering', () => {
  const { graph, packages } = importGraph();

  it('reads the whole tree', () => {
    expect(graph.size).toBeGreaterThan(150);
    for (const [from, to] of graph) for (const target of to) expect(graph.has(target), `${from} imports ${target}, which is not a source file`).toBe(true);
  });

  it('has no import cycle in src/, specs/ and generators/', () => {
    expect(cyclesOf(graph)).toEqual([]);
  });

  it('src/model imports nothing from another src/ folder (only itself and the error catalogue)', () => {
    const offending = [...graph].filter(([from]) => from.startsWith('src/model/'))
      .flatMap(([from, to]) => to.filter((t) => !t.startsWith('src/model/') && t !== 'src/errors.ts').map((t) => `${from} → ${t}`));
    expect(offending).toEqual([]);
  });

  it('the error catalogue depends on nothing', () => {
    expect(graph.get('src/errors.ts')).toEqual([]);
    expect(packages.get('src/errors.ts')).toEqual([]);
  });

  it('spec files import specs/kit.ts, their own section\'s support.ts and the shared fixtures (and fast-check); only the kit reaches into src/ and generators/', () => {
    // A section's index.ts imports its groups, the registry the sections' index.ts. The requirement inventory
    // (specs/requirements/) is data about the spec, not rules: it imports only its own model, and the reading policy
    // (src/model/readings.ts) whose names its statements cite.
    const sectionOf = (file: string) => /^specs\/([\d.]+)\//.exec(file)?.[1];
    const allowed = (from: string, t: string): boolean => {
      if (t === 'specs/kit.ts') return true;
      if (from.startsWith('specs/requirements/')) return t.startsWith('specs/requirements/') || t === 'src/model/readings.ts';
      if (from === 'specs/index.ts') return /^specs\/[\d.]+\/index\.ts$/.test(t);
      if (from.startsWith('specs/fixtures/')) return t.startsWith('specs/fixtures/');
      const own = sectionOf(from);
      if (!own) return false;
      if (from === `specs/${own}/index.ts`) return sectionOf(t) === own && t !== `specs/${own}/support.ts`;
      return t === `specs/${own}/support.ts` || t.startsWith('specs/fixtures/');
    };
    const specFiles = [...graph].filter(([from]) => from.startsWith('specs/') && from !== 'specs/kit.ts');
    expect(specFiles.length).toBeGreaterThan(60);
    const offending = specFiles.flatMap(([from, to]) => to.filter((t) => !allowed(from, t)).map((t) => `${from} → ${t}`));
    expect(offending).toEqual([]);
    const foreign = [...packages].filter(([from]) => from.startsWith('specs/')).flatMap(([from, p]) => p.filter((x) => x !== 'fast-check').map((x) => `${from} → ${x}`));
    expect(foreign).toEqual([]);
  });

  it('holds every spec file in its place: a section directory, the shared fixtures, the inventory, or the registry and the kit', () => {
    const misplaced = [...graph.keys()].filter((f) => f.startsWith('specs/') && !/^specs\/(index|kit)\.ts$|^specs\/(requirements|fixtures)\/|^specs\/[\d.]+\/[a-z-]+\.ts$/.test(f));
    expect(misplaced).toEqual([]);
  });

  it('src/ and generators/ reach the rules only through the registries (specs/index.ts, specs/requirements/index.ts), from the entries (the command line, the vitest adapter) and src/docs', () => {
    const registries = ['specs/index.ts', 'specs/requirements/index.ts'];
    const offending = [...graph].filter(([from]) => !from.startsWith('specs/'))
      .flatMap(([from, to]) => to.filter((t) => t.startsWith('specs/') && !(registries.includes(t) && /^src\/(cli\/|docs\/|vitest-adapter\.ts$)/.test(from))).map((t) => `${from} → ${t}`));
    expect(offending).toEqual([]);
  });
});
