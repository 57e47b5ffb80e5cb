/**
 * The package as an integrator installs it (issue 30): `npm pack` of the kit, unpacked into a consumer project's
 * node_modules beside the kit's dependencies (linked from the kit's own node_modules, without `@types/qs` and
 * `@types/picomatch`: a consumer does not install the kit's development types). The consumer compiles docs/examples
 * under `tsc --strict` without skipLibCheck, runs its vitest examples verbatim (two files on two workers, each with its
 * own sandbox and fault; the sandbox over https; a global setup; the startSandbox script), gets a message that says ESM only from require(),
 * and sees no Allure warning when its suite of rules runs without the Allure reporter.
 *
 * The installed kit is read-only, as in a CI cache or a container layer (issue 38 §5): it runs from the dist/ its
 * `prepack` built, and every command and export works without writing into it. Made read-only with `chmod -R a-w`,
 * which binds every user but root; so the test also checks that nothing in it changed, which binds root too.
 */
import { execFile } from 'node:child_process';
import { cp, lstat, mkdir, mkdtemp, readdir, readFile, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const run = promisify(execFile);
/** The kit's development types, which an integrator's install does not bring. */
const NOT_INSTALLED = new Set(['@types/qs', '@types/picomatch', 'conformance-kit']);

let dir: string;
let consumer: string;
const modules = () => join(consumer, 'node_modules');
const kit = () => join(modules(), 'conformance-kit');
/** The installed kit's every path with its size and modification time, as it was installed. */
let installed: Map<string, string>;

/** Every file and folder under `root`, each with its size and modification time. */
async function tree(root: string, dir = root, out = new Map<string, string>()): Promise<Map<string, string>> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    const s = await lstat(path);
    out.set(path.slice(root.length), `${s.size} ${s.mtimeMs}`);
    if (entry.isDirectory()) await tree(root, path, out);
  }
  return out;
}

/** What changed in the installed kit since it was installed: added, removed or modified paths. */
async function changedInKit(): Promise<string[]> {
  const now = await tree(kit());
  return [...new Set([...installed.keys(), ...now.keys()])].filter((path) => installed.get(path) !== now.get(path)).sort();
}

/** Runs a command in the consumer project; the exit code and the output, whatever the code. */
async function inConsumer(file: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number; out: string }> {
  const options = { cwd: consumer, env: { ...process.env, CI: '', ...env }, maxBuffer: 32 * 1024 * 1024 };
  return run(file, args, options).then(
    (r) => ({ code: 0, out: r.stdout + r.stderr }),
    (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, out: `${e.stdout}${e.stderr}` }),
  );
}

const vitest = (root: string, ...args: string[]) =>
  inConsumer(process.execPath, [join(modules(), 'vitest', 'vitest.mjs'), 'run', '--root', root, ...args]);

/** Links every package of the kit's node_modules into the consumer's, but the ones an integrator's install lacks. */
async function linkDependencies(): Promise<void> {
  const source = join(ROOT, 'node_modules');
  for (const entry of await readdir(source)) {
    if (entry.startsWith('.')) continue;
    if (entry.startsWith('@')) {
      await mkdir(join(modules(), entry), { recursive: true });
      for (const scoped of await readdir(join(source, entry))) {
        if (!NOT_INSTALLED.has(`${entry}/${scoped}`)) await symlink(join(source, entry, scoped), join(modules(), entry, scoped));
      }
    } else if (!NOT_INSTALLED.has(entry)) {
      await symlink(join(source, entry), join(modules(), entry));
    }
  }
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'conformance-consumer-'));
  consumer = join(dir, 'consumer');
  const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', dir], { cwd: ROOT, maxBuffer: 32 * 1024 * 1024 });
  const [packed] = JSON.parse(stdout.slice(stdout.indexOf('['))) as Array<{ filename: string }>;
  await mkdir(modules(), { recursive: true });
  await run('tar', ['-xzf', join(dir, packed!.filename), '-C', dir]);
  await rename(join(dir, 'package'), kit());
  await linkDependencies();
  await run('chmod', ['-R', 'a-w', kit()]);
  installed = await tree(kit());
  await writeFile(join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  await writeFile(join(consumer, 'tsconfig.json'), JSON.stringify({
    compilerOptions: {
      target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', lib: ['ES2023', 'DOM'], types: ['node'],
      strict: true, noEmit: true, skipLibCheck: false,
    },
    include: ['examples'],
  }));
  await cp(join(ROOT, 'docs', 'examples'), join(consumer, 'examples'), { recursive: true });
}, 600_000);
afterAll(async () => {
  if (!dir) return;
  if (consumer && existsSync(kit())) await run('chmod', ['-R', 'u+w', kit()]);
  await rm(dir, { recursive: true, force: true });
});

describe('a read-only install of the packed kit', () => {
  it('ships the built bundle and the licence', () => {
    for (const file of ['dist/cli.mjs', 'dist/embedded-worker.mjs', 'dist/emulator.mjs', 'dist/chat-signature.mjs', 'dist/hook.mjs', 'dist/vitest.mjs', 'LICENSE']) {
      expect(existsSync(join(kit(), file)), file).toBe(true);
    }
  });

  it('runs conformance --version and conformance rules, and imports every export, writing nothing into itself', async () => {
    const bin = join(kit(), 'bin', 'conformance.js');
    const version = await inConsumer(process.execPath, [bin, '--version']);
    expect(version, version.out).toEqual({ code: 0, out: `${JSON.parse(await readFile(join(kit(), 'package.json'), 'utf8')).version}\n` });
    const rules = await inConsumer(process.execPath, [bin, 'rules', '--json']);
    expect(rules.code, rules.out.slice(-2000)).toBe(0);
    expect((JSON.parse(rules.out) as unknown[]).length).toBeGreaterThan(100);
    const manifest = JSON.parse(await readFile(join(kit(), 'package.json'), 'utf8')) as { exports: Record<string, unknown> };
    const entries = Object.keys(manifest.exports).filter((e) => e !== './package.json').map((e) => `conformance-kit${e.slice(1)}`);
    expect(entries.sort()).toEqual(['conformance-kit/chat-signature', 'conformance-kit/emulator', 'conformance-kit/hook', 'conformance-kit/openapi.json', 'conformance-kit/resolve', 'conformance-kit/vitest']);
    // Each export loads: the modules give their API (resolve, a preload, gives its hook), the OpenAPI document its version.
    const script = `for (const name of ${JSON.stringify(entries)}) {
      const m = name.endsWith('.json') ? await import(name, { with: { type: 'json' } }) : await import(name);
      console.log(name, name.endsWith('.json') ? typeof m.default.openapi === 'string' : Object.keys(m).length > 0);
    }`;
    const imported = await inConsumer(process.execPath, ['--input-type=module', '-e', script]);
    expect(imported.code, imported.out).toBe(0);
    expect(imported.out.trim().split('\n').sort()).toEqual(entries.map((e) => `${e} true`));
    expect(await changedInKit()).toEqual([]);
  }, 120_000);

  it('runs a section of the suite against the embedded emulator', async () => {
    const out = join(dir, 'read-only-run');
    const r = await inConsumer(process.execPath, [join(kit(), 'bin', 'conformance.js'), 'run', '--only', '2.3', '--profile', 'quick', '--out', out]);
    expect(r.code, r.out.slice(-3000)).toBe(0);
    expect(existsSync(join(out, 'report.json'))).toBe(true);
  }, 300_000);
});

describe('a consumer project with the packed kit', () => {
  it('ships declaration files, and compiles the docs examples under tsc --strict with no extra @types', async () => {
    const manifest = JSON.parse(await readFile(join(kit(), 'package.json'), 'utf8')) as { exports: Record<string, { types?: string }> };
    for (const [entry, target] of Object.entries(manifest.exports)) {
      if (typeof target === 'object') expect(existsSync(join(kit(), target.types!)), `${entry}: ${target.types}`).toBe(true);
    }
    expect(existsSync(join(modules(), '@types', 'qs'))).toBe(false);
    const tsc = await inConsumer(process.execPath, [join(modules(), 'typescript', 'bin', 'tsc'), '-p', '.']);
    expect(tsc.out).toBe('');
    expect(tsc.code).toBe(0);
  }, 300_000);

  it('runs two test files on two workers, each switching its own fault in its own sandbox, side by side', async () => {
    // The example as the docs show it, with one addition of the test's own: a barrier before each file's fault test,
    // which lets neither start until both workers reached it. The run passes only if both were in flight at once (run
    // one after the other, the first file would wait at the barrier until its hook timed out), whatever the machine's speed.
    const barrier = join(dir, 'barrier');
    await mkdir(barrier);
    await writeFile(join(consumer, 'barrier.setup.js'), [
      "import { readdirSync, writeFileSync } from 'node:fs';",
      "import { basename, join } from 'node:path';",
      "import { beforeEach } from 'vitest';",
      'const dir = process.env.WORKERS_BARRIER;',
      'beforeEach(async ({ task }) => {',
      "  if (!task.name.startsWith('sees its own fault')) return;",
      "  writeFileSync(join(dir, basename(task.file.name)), '');",
      '  while (readdirSync(dir).length < 2) await new Promise((resolve) => setTimeout(resolve, 20));',
      '});',
    ].join('\n'));
    await writeFile(join(consumer, 'workers.config.ts'), [
      "import { defineConfig, mergeConfig } from 'vitest/config';",
      "import example from './examples/vitest-workers/vitest.config.ts';",
      `export default mergeConfig(example, defineConfig({ test: { setupFiles: [${JSON.stringify(join(consumer, 'barrier.setup.js'))}], hookTimeout: 240_000 } }));`,
    ].join('\n'));
    const report = join(dir, 'workers.json');
    const { code, out } = await inConsumer(process.execPath, [join(modules(), 'vitest', 'vitest.mjs'), 'run', '--root', 'examples/vitest-workers', '--config', join(consumer, 'workers.config.ts'), '--reporter=json', `--outputFile=${report}`], { WORKERS_BARRIER: barrier });
    expect(code, out.slice(-3000)).toBe(0);
    const json = JSON.parse(await readFile(report, 'utf8')) as { numPassedTests: number };
    expect(json.numPassedTests).toBe(3);
    expect((await readdir(barrier)).sort()).toEqual(['account.test.ts', 'chat.test.ts']);
  }, 300_000);

  it('runs the https example and the global-setup example verbatim', async () => {
    for (const example of ['examples/vitest-https', 'examples/vitest-sandbox']) {
      const { code, out } = await vitest(example);
      expect(code, `${example}: ${out.slice(-3000)}`).toBe(0);
    }
  }, 300_000);

  it('runs the startSandbox example as a script', async () => {
    const { code, out } = await inConsumer(process.execPath, ['--import', 'tsx', 'examples/start-sandbox/start.ts']);
    expect(code, out).toBe(0);
    expect(out.trim().split('\n')).toEqual([expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/), "[ 'token-type-mac' ]", '200', '[]']);
  }, 120_000);

  it('answers require() with a message that says ESM only', async () => {
    const { code, out } = await inConsumer(process.execPath, ['-e', "require('conformance-kit/emulator')"]);
    expect(code).not.toBe(0);
    expect(out).toContain('conformance-kit is ESM only');
    expect(out).toContain("await import('conformance-kit/emulator')");
  });

  it('runs a suite of rules without the Allure reporter and prints no Allure warning', async () => {
    const root = join(consumer, 'plain-rules');
    await mkdir(root);
    await writeFile(join(root, 'vitest.config.ts'), "import { defineConfig } from 'vitest/config';\nexport default defineConfig({ test: { include: ['*.test.ts'], hookTimeout: 300_000 } });\n");
    await writeFile(join(root, 'rules.test.ts'), [
      "import { conformanceSuite, useSandbox } from 'conformance-kit/vitest';",
      'const sandbox = useSandbox();',
      "conformanceSuite({ settings: () => sandbox.settings, only: 'api.bearer.*' });",
    ].join('\n'));
    const { code, out } = await vitest('plain-rules');
    expect(code, out.slice(-3000)).toBe(0);
    expect(out).toMatch(/Tests\s+.*\d+ passed/);
    // allure-js-commons' warning for each label call made with no Allure runtime (it does not name Allure).
    expect(out).not.toContain('no test runtime is found');
    expect(out).not.toMatch(/allure/i);
  }, 300_000);
});
