/**
 * Settings mistakes are settings errors (issue 37 §7): one line naming the file and line, the flag or the port, and
 * exit 2, never a stack, and never a mistake read past (a malformed env line skipped, then "BASE_URL is not set").
 */
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { mkdtemp, mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { malformedLine } from '../../src/cli/settings.js';
import { startEmulator } from '../../src/emulator/index.js';
import { emulatorSettings } from '../../src/needs/emulator-settings.js';
import { conformance } from './helpers.js';

let dir: string;
beforeAll(async () => { dir = await mkdtemp(join(tmpdir(), 'conformance-settings-')); });

const oneLine = (text: string) => text.trim().split('\n');

describe('malformedLine', () => {
  it.each([
    ['BASE_URL=http://x\n# a comment\n\nexport CLIENT_ID=1\nKEY: value\nNAME="two\nlines"\nA=\'q\' # c\n', undefined],
    ['BASE_URL=http://x\nCLIENT_SECRET abc\n', 2],
    ['BASE_URL=http://x\nCLIENT_ID\n', 2],
    ['A=1\nB="never closed\nC=3\n', 2],
    ['A=1\r\nB=2\r\n= value\r\n', 3],
  ])('%j: line %s', (text, line) => {
    expect(malformedLine(text)?.line).toBe(line);
  });

  it('reads every line `conformance emulator` prints', async () => {
    const emulator = await startEmulator();
    try {
      const lines = Object.entries(await emulatorSettings(emulator)).map(([k, v]) => `${k}=${v}`);
      expect(lines.length).toBeGreaterThan(10);
      expect(malformedLine(lines.join('\n'))).toBeUndefined();
    } finally {
      await emulator.close();
    }
  });
});

describe('the command line', () => {
  it('a malformed env file: exit 2, one line naming file:line, not its text', async () => {
    const file = join(dir, 'bad.env');
    await writeFile(file, 'CONFORMANCE_TARGET=remote\nBASE_URL=http://127.0.0.1:1\nCLIENT_SECRET s3cr3t-value-here\n');
    const r = await conformance(['run', '--env-file', file]);
    expect(r.code, r.stderr).toBe(2);
    expect(oneLine(r.stderr)).toEqual([`conformance run: ${file}:3 is not a KEY=value line (an env file holds KEY=value lines, # comments and blank lines; see env.example)`]);
    expect(r.stderr).not.toContain('s3cr3t');
  });

  it('--env-file naming a directory: exit 2, one line', async () => {
    const folder = join(dir, 'settings.d');
    await mkdir(folder, { recursive: true });
    const r = await conformance(['run', '--env-file', folder]);
    expect(r.code, r.stderr).toBe(2);
    expect(oneLine(r.stderr)).toEqual([`conformance run: --env-file names a directory, not a settings file: ${folder}`]);
  });

  it('conformance emulator on a busy port: exit 2, one line naming the port', async () => {
    const busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    const port = (busy.address() as AddressInfo).port;
    try {
      const r = await conformance(['emulator', '--port', String(port)]);
      expect(r.code, r.stderr).toBe(2);
      expect(oneLine(r.stderr)).toEqual([expect.stringMatching(new RegExp(`^conformance emulator: --port ${port} on 127\\.0\\.0\\.1 is in use`))]);
      expect(r.stdout).toBe('');
    } finally {
      busy.close();
    }
  });
});
