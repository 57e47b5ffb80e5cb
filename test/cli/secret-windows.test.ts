/**
 * No report, log or console line holds more of a secret than its masked prefix, clipped or not (issue 28 §6): every
 * output of a run of the access rules (tokens, codes, the page in Chromium, the findings that quote them) is searched
 * for every 12-character window of every secret the emulator issued. test/cli/run.test.ts does the same for the
 * whole suite.
 */
import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import type { Report } from '../../src/model/result.js';
import { conformance, secretWindows, SECRET_WINDOW, type CommandResult } from './helpers.js';

async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    out.push(...(entry.isDirectory() ? await filesUnder(path) : [path]));
  }
  return out;
}

describe('secrets in every output of a run of the access rules', () => {
  let emulator: RunningEmulator;
  let out: string;
  let run: CommandResult;

  beforeAll(async () => {
    emulator = await startEmulator();
    out = join(await mkdtemp(join(tmpdir(), 'conformance-windows-')), 'out');
    run = await conformance(['run', '--target', 'remote', '--only', '2.2,2.3,3.1,4.1,5.1', '--seed', '5', '--runs', '3', '--out', out],
      { env: { ...emulator.env(), CONFORMANCE_BROWSER: '1' } });
  }, 300_000);

  afterAll(() => emulator?.close());

  it('ran the rules, the page ones included, and recorded the page\'s navigations', async () => {
    const report = JSON.parse(await readFile(join(out, 'report.json'), 'utf8')) as Report;
    const ran = report.results.filter((r) => r.status !== 'skipped');
    expect(ran.length).toBeGreaterThan(100);
    const page = report.results.find((r) => r.id === 'oauth.page.state-round-trip');
    expect(page?.status, page?.detail).toBe('passed');
    expect(page?.exchanges?.some((x) => x.request.method === 'POST' && x.request.url.endsWith('/oauth/decide'))).toBe(true);
  });

  it(`leaves no ${SECRET_WINDOW} characters of any issued secret in any file or console line`, async () => {
    const secrets = emulator.issuedSecrets();
    expect(secrets.length).toBeGreaterThan(50);
    const windowsIn = secretWindows(secrets);
    for (const file of await filesUnder(out)) expect(windowsIn(await readFile(file, 'utf8')).map((s) => `${s} in ${file}`)).toEqual([]);
    expect(windowsIn(`${run.stdout}\n${run.stderr}`)).toEqual([]);
  });
});
