/**
 * The `--env-file` trap of Node 20 (issue 29): Node 20 takes `--env-file` from anywhere in its argv, past the script's
 * name (nodejs/node#54232), so a Node started without `--` before the script exits 9 with `node: <path>: not found`
 * for a missing file, and for an existing one applies the NODE_OPTIONS it holds. The kit's bin starts Node with `--`
 * (its shebang), so through the installed bin a CI job gets the kit's own exit 2 naming the flag and the path, and
 * the file is read by the kit alone. `npx conformance …` puts npx's own Node in front, which the kit cannot reach:
 * `npx -- conformance …` (README) keeps the flag past npx's Node too.
 *
 * The kit is installed into a project as npm installs a dependency (`npm install <dir>`: a link, and the bin linked
 * into node_modules/.bin), and started the ways a CI job starts it.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
let project = '';

function run(file: string, args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(file, args, { cwd: project, env: { PATH: process.env.PATH, HOME: process.env.HOME, CI: 'true', ...env } }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : null) : 0, stdout, stderr });
    });
  });
}

beforeAll(async () => {
  project = await mkdtemp(join(tmpdir(), 'conformance-installed-'));
  await writeFile(join(project, 'package.json'), JSON.stringify({ name: 'ci-project', version: '1.0.0', private: true }));
  const installed = await run('npm', ['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts', ROOT]);
  expect(installed.code, installed.stderr).toBe(0);
  expect(existsSync(join(project, 'node_modules/.bin/conformance'))).toBe(true);
}, 120_000);
afterAll(() => rm(project, { recursive: true, force: true }));

const BIN = () => join(project, 'node_modules/.bin/conformance');

describe('--env-file through the installed bin', () => {
  it('a mistyped path exits 2 naming the flag and the path, not Node\'s own exit 9', async () => {
    const r = await run(BIN(), ['run', '--target', 'remote', '--env-file', 'ci.env']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('conformance run: --env-file names a file that does not exist: ci.env\n');
  });

  it('through `npx -- conformance` as well', async () => {
    const r = await run('npx', ['--', 'conformance', 'run', '--target', 'remote', '--env-file', 'ci.env']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('conformance run: --env-file names a file that does not exist: ci.env');
  });

  it('an existing file is read by the kit alone: Node applies none of it (its NODE_OPTIONS stay unrun)', async () => {
    const marker = join(project, 'node-read-the-file');
    const hook = join(project, 'hook.cjs');
    await writeFile(hook, `require('node:fs').writeFileSync(${JSON.stringify(marker)}, 'Node applied the env file');\n`);
    // A remote target without BASE_URL: the kit names the key it read the file for, so the file was read, by the kit.
    await writeFile(join(project, 'ci.env'), `NODE_OPTIONS=--require ${hook}\nCONFORMANCE_TARGET=remote\n`);
    for (const [file, args] of [[BIN(), []], ['npx', ['--', 'conformance']]] as const) {
      const r = await run(file, [...args, 'run', '--env-file', 'ci.env']);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain('BASE_URL is not set');
      expect(existsSync(marker) ? await readFile(marker, 'utf8') : 'not applied').toBe('not applied');
    }
  });
});
