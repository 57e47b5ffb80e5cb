/**
 * `conformance clean` (issue 37 §7): what earlier runs left on an account is found by the run ids the records' names
 * carry, grouped by run, and listed (the spec deletes none of them through the API); --run narrows to one run.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { emulatorSettings } from '../../src/needs/emulator-settings.js';
import { conformance } from './helpers.js';

let emulator: RunningEmulator;
let settings: Record<string, string>;
const ids: number[] = [];

beforeAll(async () => {
  emulator = await startEmulator();
  settings = await emulatorSettings(emulator);
  for (const name of ['Client run-3-mnq1x2ab', 'Client run-3-mnq1x2ab again', 'Сделка run-7-mnq9zz01 😀', 'A lead of the team']) {
    const res = await fetch(`${emulator.url}/_control/lists/leads/records`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name }) });
    ids.push(((await res.json()) as { id: number }).id);
  }
});
afterAll(async () => { await emulator?.close(); });

describe('conformance clean', () => {
  it('lists the records of each earlier run by its id, never the team\'s own', async () => {
    const r = await conformance(['clean'], { env: settings });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('3 record(s) of 2 earlier run(s)');
    expect(r.stdout).toContain('  run-3-mnq1x2ab: 2');
    expect(r.stdout).toContain(`    leads ${ids[2]}: Сделка run-7-mnq9zz01 😀`);
    expect(r.stdout).not.toContain('A lead of the team');
  });

  it('--run narrows to one run; a malformed id is a setting error', async () => {
    const r = await conformance(['clean', '--run', 'run-7-mnq9zz01'], { env: settings });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('1 record(s) of 1 earlier run(s)');
    expect(r.stdout).not.toContain('run-3-mnq1x2ab');
    const bad = await conformance(['clean', '--run', 'yesterday'], { env: settings });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^conformance clean: --run is not a run id/);
  });
});
