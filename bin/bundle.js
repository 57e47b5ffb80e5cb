// The kit's TypeScript sources as one ES module per entry point. Loading a few hundred modules through tsx's hooks
// took 2.4 s at every start of the command line and 1.4 s at every start of the emulator's thread; the bundle loads
// in 0.1 s. Two places hold it:
// - dist/, built at `npm pack` (`npm run build`, scripts/build-dist.js) and shipped in the package: an installed kit
//   writes nothing into itself, so a read-only install (a CI cache, a container layer) runs (issue 38 §5);
// - node_modules/.cache/conformance-kit/<fingerprint>/, built on first use in a development checkout (one with its
//   test/ folder, which the package never ships), so a fresh clone needs no build step and an edited source is
//   never run stale: a checkout ignores any dist/ a `npm pack` left in it.
//
// The fingerprint covers every source file's path, size and modification time, package.json, the lock file, this
// file and esbuild's version, so an edited source is rebuilt at the next start and never run stale. Concurrent
// starts each build into a temporary directory and the first to rename it into place wins.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SOURCE_DIRS = ['src', 'specs', 'generators'];
const CACHE = join(ROOT, 'node_modules', '.cache', 'conformance-kit');
/** The bundle the package ships (package.json `files`; gitignored). */
export const DIST = join(ROOT, 'dist');
/** A development checkout: the package never ships its tests. */
const DEVELOPMENT = existsSync(join(ROOT, 'test'));

/**
 * The entry points, named as the bundle's files. `embedded-worker` keeps the name src/targets/embedded.ts starts; the
 * last five are the package's exports (lib/*.js load them: docs/sandbox.md).
 */
export const ENTRIES = {
  cli: 'src/cli/main.ts',
  'embedded-worker': 'src/targets/embedded-thread.ts',
  emulator: 'src/sandbox.ts',
  'chat-signature': 'src/protocol/chat-signature.ts',
  hook: 'src/hook/index.ts',
  vitest: 'src/vitest-adapter.ts',
  resolve: 'src/resolve.ts',
};

/** What the bundle is built from, as a short hash: every file's path, size and modification time under `root`. */
export function fingerprint(esbuildVersion, root = ROOT) {
  const hash = createHash('sha256').update(esbuildVersion).update(readFileSync(fileURLToPath(import.meta.url)));
  const walk = (dir) => {
    for (const entry of readdirSync(join(root, dir), { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else addFile(path);
    }
  };
  const addFile = (path) => {
    const s = statSync(join(root, path));
    hash.update(`${path}\0${s.size}\0${s.mtimeMs}\n`);
  };
  for (const dir of SOURCE_DIRS) if (existsSync(join(root, dir))) walk(dir);
  for (const file of ['package.json', 'package-lock.json', 'tsconfig.json']) if (existsSync(join(root, file))) addFile(file);
  return hash.digest('hex').slice(0, 16);
}

/**
 * esbuild's options for a bundle in `outdir`. `root`: the kit's root as the bundle names it (src/paths.ts); without
 * one the bundle finds it as the parent of its own folder, as dist/ has it (the sources do the same from src/).
 */
function bundleOptions(outdir, root) {
  return {
    absWorkingDir: ROOT,
    entryPoints: ENTRIES,
    outdir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    // Modules the sources import lazily (the emulator's server, Playwright) become chunks loaded when first needed.
    splitting: true,
    target: 'node20',
    packages: 'external',
    // Paths the sources take relative to their own file (package.json, specs/service.md, scripts/) keep working
    // from the bundle: src/paths.ts reads the kit's root from here when bundled.
    ...(root ? { define: { __KIT_ROOT__: JSON.stringify(root) } } : {}),
    sourcemap: 'linked',
    logLevel: 'silent',
  };
}

async function build(esbuild, dir) {
  const temp = `${dir}.${process.pid}.${Date.now()}`;
  await esbuild.build(bundleOptions(temp, ROOT));
  try {
    renameSync(temp, dir);
  } catch (err) {
    // Another start renamed its build first: theirs is the same bundle.
    rmSync(temp, { recursive: true, force: true });
    if (!existsSync(dir)) throw err;
  }
  // Builds of sources as they were an hour ago and more: a process still running from one has long loaded it.
  for (const old of readdirSync(CACHE)) {
    const path = join(CACHE, old);
    if (path !== dir && Date.now() - statSync(path).mtimeMs > 3_600_000) rmSync(path, { recursive: true, force: true });
  }
}

/**
 * Builds dist/ (`npm run build`, run by `prepack`): into a temporary folder renamed into place, so that a kit running
 * from an earlier dist/ never loads half of a new one. Its source maps name the sources (shipped in src/) without
 * holding them again.
 */
export async function buildDist() {
  const esbuild = await import('esbuild');
  const temp = `${DIST}.${process.pid}.${Date.now()}`;
  await esbuild.build({ ...bundleOptions(temp), sourcesContent: false });
  const old = `${DIST}.old.${process.pid}`;
  if (existsSync(DIST)) renameSync(DIST, old);
  renameSync(temp, DIST);
  rmSync(old, { recursive: true, force: true });
}

/**
 * The URL of the bundled entry `name`: from dist/ in an installed kit, else built first when the sources changed
 * since the last build.
 */
export async function bundledEntry(name) {
  if (!DEVELOPMENT && existsSync(join(DIST, `${name}.mjs`))) return pathToFileURL(join(DIST, `${name}.mjs`)).href;
  const esbuild = await import('esbuild');
  const dir = join(CACHE, fingerprint(esbuild.version));
  const file = join(dir, `${name}.mjs`);
  if (!existsSync(file)) {
    mkdirSync(CACHE, { recursive: true });
    await build(esbuild, dir);
  }
  return pathToFileURL(file).href;
}
