/**
 * The command line runs an esbuild bundle of the sources (bin/bundle.js): built from exactly the files it names, so an
 * edited, added or removed source gives another fingerprint (a rebuild at the next start, never a stale run), and
 * the bundle it loads is the kit's own entry point.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: plain JavaScript without declarations, run before any TypeScript is loaded
import { bundledEntry, fingerprint } from '../../bin/bundle.js';

describe('the bundle of the command line', () => {
  it('changes its fingerprint when a source is edited, added or removed, and only then', () => {
    const root = mkdtempSync(join(tmpdir(), 'bundle-fp-'));
    mkdirSync(join(root, 'src', 'cli'), { recursive: true });
    mkdirSync(join(root, 'specs'));
    writeFileSync(join(root, 'src', 'cli', 'main.ts'), 'export const a = 1;\n');
    writeFileSync(join(root, 'specs', 'one.ts'), 'export default 1;\n');
    writeFileSync(join(root, 'package.json'), '{}');
    const first = fingerprint('0.0.0', root);
    expect(fingerprint('0.0.0', root)).toBe(first);
    expect(fingerprint('0.0.1', root)).not.toBe(first);

    writeFileSync(join(root, 'src', 'cli', 'main.ts'), 'export const a = 2;\n');
    utimesSync(join(root, 'src', 'cli', 'main.ts'), new Date(0), new Date(0));
    const edited = fingerprint('0.0.0', root);
    expect(edited).not.toBe(first);
    utimesSync(join(root, 'src', 'cli', 'main.ts'), new Date(), new Date(1000));
    expect(fingerprint('0.0.0', root)).not.toBe(edited);

    const touched = fingerprint('0.0.0', root);
    writeFileSync(join(root, 'specs', 'two.ts'), 'export default 2;\n');
    const added = fingerprint('0.0.0', root);
    expect(added).not.toBe(touched);
    rmSync(join(root, 'specs', 'two.ts'));
    expect(fingerprint('0.0.0', root)).toBe(touched);
  });

  it('loads the kit\'s own command line from the built bundle', async () => {
    const url = await bundledEntry('cli');
    expect(existsSync(fileURLToPath(url))).toBe(true);
    // A development checkout runs its sources as they are now, never a dist/ an earlier `npm pack` left behind.
    expect(fileURLToPath(url)).toContain(join('node_modules', '.cache', 'conformance-kit'));
    expect(existsSync(fileURLToPath(new URL('embedded-worker.mjs', url)))).toBe(true);
    const { main } = (await import(url)) as { main: (argv: string[]) => Promise<number> };
    expect(typeof main).toBe('function');
  }, 60_000);
});
