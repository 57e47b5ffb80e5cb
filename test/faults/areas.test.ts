/**
 * Faults and variations live beside the code they change: each area's table (src/emulator/<area>/faults.ts,
 * variations.ts) is read by the code of its own folder, so adding a fault touches one table next to its reader. The
 * tables of the emulator's root folder (general-faults.ts, general-variations.ts) belong to the shared code directly
 * in src/emulator, not to the areas below it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { FAULT_AREAS, FAULTS, type FaultArea } from '../../src/emulator/faults.js';
import { VARIATION_AREAS, VARIATIONS, type VariationArea } from '../../src/emulator/variations.js';

const EMULATOR = resolve(fileURLToPath(new URL('../../src/emulator', import.meta.url)));
/** The root and each area folder below it. */
const FOLDERS = ['.', ...readdirSync(EMULATOR, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name)];

/** A switch read in code: `isOn('<name>')` on the fault or variation switches, or chat state's `faultOn`/`variationOn`. */
const FAULT_READ = /\b(?:isOn|faultOn)\('([a-z0-9-]+)'\)/g;
const VARIATION_READ = /\b(?:isOn|variationOn)\('([a-z0-9-]+)'\)/g;

/** The source files of a folder: the root's own files only (its sub-folders are areas of their own), an area's all. */
function sources(folder: string): Map<string, string> {
  const root = folder === '.';
  const files = readdirSync(join(EMULATOR, folder), { recursive: !root, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts'))
    .map((e) => join(e.parentPath, e.name));
  return new Map(files.map((f) => [relative(EMULATOR, f), readFileSync(f, 'utf8')]));
}

function namesRead(folder: string, pattern: RegExp): Set<string> {
  const names = new Set<string>();
  for (const text of sources(folder).values()) for (const m of text.matchAll(pattern)) names.add(m[1]!);
  return names;
}

interface Table { readonly file: string; readonly names: readonly string[] }

function checkAreas(kind: string, tables: readonly Table[], all: readonly { name: string }[], pattern: RegExp): void {
  const folderOf = (t: Table) => dirname(t.file);

  it(`names each ${kind} once, in one area table`, () => {
    const names = tables.flatMap((t) => t.names);
    expect(names.filter((n, i) => names.indexOf(n) !== i)).toEqual([]);
    expect(names.length).toBe(all.length);
  });

  it.each(tables.map((t) => [t.file, t] as const))(`reads each ${kind} of %s in its folder`, (_, table) => {
    const read = namesRead(folderOf(table), pattern);
    expect(table.names.filter((n) => !read.has(n))).toEqual([]);
  });

  // A folder without a table of this kind reads none: a switch read in one area and declared in another is one a reader
  // of the code cannot find.
  it.each(FOLDERS)(`reads in src/emulator/%s only the ${kind}s of its own table`, (folder) => {
    const own = new Set(tables.filter((t) => folderOf(t) === folder).flatMap((t) => t.names));
    const known = new Set(all.map((s) => s.name));
    expect([...namesRead(folder, pattern)].filter((n) => known.has(n) && !own.has(n))).toEqual([]);
  });
}

describe('fault table: areas', () => {
  describe('faults', () => {
    checkAreas('fault', (FAULT_AREAS as readonly FaultArea[]).map((a) => ({ file: a.file, names: a.faults.map((f) => f.name) })), FAULTS, FAULT_READ);
  });
  describe('variations', () => {
    checkAreas('variation', (VARIATION_AREAS as readonly VariationArea[]).map((a) => ({ file: a.file, names: a.variations.map((v) => v.name) })), VARIATIONS, VARIATION_READ);
  });
});
