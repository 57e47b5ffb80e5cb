/**
 * The import graph of src/, specs/ and generators/ (type-only imports included): no cycle, every import between
 * folders one the layer table allows (each folder imports only folders below it), spec files import only specs/kit.ts,
 * their section's support.ts and the shared fixtures (and fast-check), and the README's "What is where" table names
 * the tree as it is.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * The layers, lowest first: each folder (or top-level file of src/) with the folders it may import. A folder names
 * only folders before it, so no import goes up; a new folder gets its row here, where its imports put it. The
 * emulator stands beside the kit: it imports only the protocol it implements and the one value it shares with the
 * kit, never the kit's model or runner (the kit reaches it only through src/emulator/index.ts and its switch tables).
 */
export const LAYERS: readonly (readonly [string, readonly string[]])[] = [
  ['src/errors.ts', []],
  ['src/paths.ts', []],
  ['src/effect-window.ts', []],
  ['src/host-resolve.ts', []],
  ['src/trust.ts', ['src/host-resolve.ts']],
  ['src/rule-scope.ts', []],
  ['src/model', ['src/errors.ts', 'src/host-resolve.ts', 'src/rule-scope.ts']],
  ['src/protocol', ['src/model']],
  ['src/hook', []],
  ['src/openapi', ['src/paths.ts', 'src/protocol', 'src/hook']],
  ['src/emulator', ['src/effect-window.ts', 'src/host-resolve.ts', 'src/protocol', 'src/openapi']],
  ['src/secrets', ['src/errors.ts']],
  ['src/browser', ['src/errors.ts', 'src/host-resolve.ts', 'src/trust.ts', 'src/rule-scope.ts', 'src/model']],
  ['generators', ['src/model', 'src/protocol']],
  ['src/checks', ['src/errors.ts', 'src/model', 'src/protocol', 'src/hook', 'generators']],
  ['src/steps', ['src/errors.ts', 'src/rule-scope.ts', 'src/model', 'src/protocol', 'src/browser', 'generators', 'src/checks']],
  ['specs', ['src/errors.ts', 'src/rule-scope.ts', 'src/model', 'src/protocol', 'generators', 'src/checks', 'src/steps']],
  ['src/needs', ['src/errors.ts', 'src/model', 'src/protocol', 'src/secrets', 'src/steps']],
  ['src/configurations', ['src/errors.ts', 'src/model', 'src/needs']],
  ['src/targets', ['src/errors.ts', 'src/host-resolve.ts', 'src/trust.ts', 'src/rule-scope.ts', 'src/model', 'src/protocol', 'src/emulator', 'src/secrets', 'src/browser', 'src/needs']],
  ['src/runner', ['src/errors.ts', 'src/paths.ts', 'src/effect-window.ts', 'src/host-resolve.ts', 'src/rule-scope.ts', 'src/model', 'src/hook', 'src/secrets', 'src/needs', 'src/configurations', 'src/targets']],
  ['src/compare', ['src/errors.ts', 'src/paths.ts', 'src/model', 'src/secrets', 'src/needs', 'src/targets', 'src/runner']],
  ['src/report', ['src/errors.ts', 'src/paths.ts', 'src/model', 'src/compare']],
  ['src/docs', ['src/paths.ts', 'src/model', 'src/protocol', 'src/openapi', 'src/emulator', 'specs', 'src/needs', 'src/configurations', 'src/targets', 'src/report']],
  ['src/cli', ['src/errors.ts', 'src/paths.ts', 'src/host-resolve.ts', 'src/model', 'src/protocol', 'src/openapi', 'src/emulator', 'src/hook', 'src/secrets', 'src/browser', 'specs', 'src/steps', 'src/needs', 'src/configurations', 'src/targets', 'src/runner', 'src/compare', 'src/report', 'src/docs']],
  ['src/sandbox.ts', ['src/emulator', 'src/needs']],
  ['src/vitest-adapter.ts', ['src/model', 'specs', 'src/needs', 'src/targets', 'src/runner', 'src/sandbox.ts']],
  ['src/resolve.ts', ['src/host-resolve.ts']],
];

/** The row of the layer table a file belongs to: its folder under src/ (or itself at src/'s top), else its top folder. */
export function layerOf(file: string): string {
  const parts = file.split('/');
  if (parts[0] === 'src') return parts.length === 2 ? file : `src/${parts[1]}`;
  return parts[0]!;
}

/** Imports between layers that the table does not allow, as `layer → layer: file → file`. */
export function upwardImports(graph: ReadonlyMap<string, readonly string[]>, layers: typeof LAYERS): string[] {
  const allowed = new Map(layers.map(([layer, may]) => [layer, new Set(may)]));
  return [...graph].flatMap(([from, to]) => to.flatMap((target) => {
    const a = layerOf(from);
    const b = layerOf(target);
    return a === b || allowed.get(a)?.has(b) ? [] : [`${a} → ${b}: ${from} → ${target}`];
  }));
}

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

/**
 * The re-exports of a source text: `export … from '…'`, and `export { a, b }` of names the file imports. A module's
 * own declarations exported in a list are not re-exports.
 */
export function reExportsOf(text: string): string[] {
  const imported = new Set([...text.matchAll(/import\s+(?:type\s+)?\{([^}]*)\}\s+from/g)]
    .flatMap((m) => m[1]!.split(',').map((n) => n.trim().replace(/^type\s+/, '').split(/\s+as\s+/).pop()!)));
  for (const m of text.matchAll(/import\s+(?:type\s+)?(\w+)\s+from/g)) imported.add(m[1]!);
  const forwarded = [...text.matchAll(/(?:^|\n)\s*export\s+(?:type\s+)?(\*|\{[^}]*\})(?:\s+as\s+\w+)?\s+from\s+['"][^'"]+['"]/g)].map((m) => m[1]!.replace(/\s+/g, ' '));
  const listed = [...text.matchAll(/(?:^|\n)\s*export\s+(?:type\s+)?\{([^}]*)\}\s*;/g)]
    .flatMap((m) => m[1]!.split(',').map((n) => n.trim().replace(/^type\s+/, '').split(/\s+as\s+/)[0]!).filter((n) => imported.has(n)));
  return [...forwarded, ...listed];
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

  it('place a file in its layer and name an import the table does not allow', () => {
    expect([layerOf('src/model/rule.ts'), layerOf('src/needs/providers/control.ts'), layerOf('src/errors.ts'), layerOf('specs/4.3/index.ts'), layerOf('generators/filters.ts')])
      .toEqual(['src/model', 'src/needs', 'src/errors.ts', 'specs', 'generators']);
    const layers = [['src/model', []], ['src/steps', ['src/model']]] as const;
    const graph = new Map([['src/steps/a.ts', ['src/model/b.ts', 'src/steps/c.ts']], ['src/model/b.ts', ['src/steps/c.ts']], ['src/steps/c.ts', []]]);
    expect(upwardImports(graph, layers)).toEqual(['src/model → src/steps: src/model/b.ts → src/steps/c.ts']);
  });

  it('tell a re-export from a module exporting its own names', () => {
    const text = `import { A, type B } from './a.js';\nimport C from './c.js';\nconst d = 1;\nexport { A };\nexport type { B as E };\nexport { C, d };\nexport { f } from './f.js';\nexport type * from './g.js';`;
    expect(reExportsOf(text)).toEqual(['{ f }', '*', 'A', 'B', 'C']);
    expect(reExportsOf(`const a = 1;\nexport { a };\nexport function b() {}`)).toEqual([]);
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

  it('places every source file in a row of the layer table', () => {
    const rows = new Set(LAYERS.map(([layer]) => layer));
    expect([...new Set([...graph.keys()].map(layerOf))].filter((layer) => !rows.has(layer))).toEqual([]);
  });

  it('orders the layer table: a folder may import only folders before it, each row once', () => {
    const seen = new Set<string>();
    const upward: string[] = [];
    for (const [layer, may] of LAYERS) {
      expect(seen.has(layer), `${layer} has two rows`).toBe(false);
      upward.push(...may.filter((m) => !seen.has(m)).map((m) => `${layer} → ${m}`));
      seen.add(layer);
    }
    expect(upward).toEqual([]);
  });

  it('has no import the layer table does not allow (no upward import)', () => {
    expect(upwardImports(graph, LAYERS)).toEqual([]);
  });

  it('the base of the layers (the error catalogue, the kit\'s paths, the emulator\'s effect window) imports no source file', () => {
    for (const [layer] of LAYERS.filter(([name, may]) => may.length === 0 && name.endsWith('.ts'))) expect(graph.get(layer), layer).toEqual([]);
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

  it('gives each name of src/ and generators/ one home: only the entries re-export (the package\'s, the emulator\'s)', () => {
    // The package's entries (package.json `exports`) and the emulator's front door. specs/ has its own doors
    // (specs/kit.ts, specs/requirements/index.ts), held by the tests above.
    const entries = ['src/sandbox.ts', 'src/hook/index.ts', 'src/emulator/index.ts'];
    const offending = [...graph.keys()].filter((file) => !file.startsWith('specs/') && !entries.includes(file))
      .flatMap((file) => reExportsOf(readFileSync(join(ROOT, file), 'utf8')).map((names) => `${file}: ${names}`));
    expect(offending).toEqual([]);
  });

  it('src/ and generators/ reach the rules only through the registries (specs/index.ts, specs/requirements/index.ts), from the entries (the command line, the vitest adapter) and src/docs', () => {
    const registries = ['specs/index.ts', 'specs/requirements/index.ts'];
    const offending = [...graph].filter(([from]) => !from.startsWith('specs/'))
      .flatMap(([from, to]) => to.filter((t) => t.startsWith('specs/') && !(registries.includes(t) && /^src\/(cli\/|docs\/|vitest-adapter\.ts$)/.test(from))).map((t) => `${from} → ${t}`));
    expect(offending).toEqual([]);
  });
});

describe('the README\'s "What is where"', () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## What is where'), readme.indexOf('\n## ', readme.indexOf('## What is where') + 1));
  const named = (text: string) => [...text.matchAll(/`([^`]+)`/g)].map((m) => m[1]!.replace(/\/$/, ''));
  const firstColumn = section.split('\n').filter((line) => line.startsWith('| `')).flatMap((line) => named(line.split('|')[1]!));

  it('names only paths that exist', () => {
    expect(firstColumn.length).toBeGreaterThan(10);
    expect(firstColumn.filter((path) => !existsSync(join(ROOT, path)))).toEqual([]);
  });

  it('names every layer and every other top-level folder of the repository', () => {
    // src/ itself is named through its layers.
    // Output folders git ignores (reports/, allure-results/) are not part of the tree, whether a run made them or not.
    const ignored = readFileSync(join(ROOT, '.gitignore'), 'utf8').split('\n').map((line) => line.trim().replace(/\/$/, '')).filter(Boolean);
    const folders = readdirSync(ROOT, { withFileTypes: true }).filter((e) => e.isDirectory() && !e.name.startsWith('.') && !['src', ...ignored].includes(e.name)).map((e) => e.name);
    const wanted = [...LAYERS.map(([layer]) => layer), ...folders];
    expect(wanted.filter((path) => !firstColumn.includes(path))).toEqual([]);
  });

  it('lists the layers in the order of the layer table', () => {
    const paragraph = section.slice(section.indexOf('Layers, lowest first'));
    const order = named(paragraph.slice(paragraph.indexOf(':') + 1, paragraph.indexOf('\n\n') === -1 ? undefined : paragraph.indexOf('\n\n')));
    expect(order).toEqual(LAYERS.map(([layer]) => layer));
  });
});
