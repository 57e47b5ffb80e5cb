/**
 * The faults whose catching rule runs differently in a configuration, run in it: with the standalone emulator's printed
 * settings (a long-lived token among them, as a staging account has), "the run's access token" is LONG_LIVED_TOKEN,
 * yet a server whose OAuth access tokens work at any account's address still fails a `must` rule
 * (api.base-url.per-account sends both kinds of bearer, R3-A1). Where the rule cannot judge (one-account: no second
 * address), it is skipped naming the setting that would let it.
 */
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumGap } from '../../src/browser/launch.js';
import { configurationNamed, type ConfigurationName, type ListedChannel, settingsFor } from '../../src/configurations/table.js';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import type { Report } from '../../src/model/result.js';
import { emulatorSettings } from '../../src/needs/emulator-settings.js';
import { conformance } from '../cli/helpers.js';

const RULE = 'api.base-url.per-account';

describe.skipIf(chromiumGap() !== undefined)('oauth-access-any-account-address in each configuration', () => {
  let emulator: RunningEmulator;
  let printed: Record<string, string>;
  let channels: ListedChannel[];

  beforeAll(async () => {
    emulator = await startEmulator({ shape: 'deployed', faults: ['oauth-access-any-account-address'] });
    printed = await emulatorSettings(emulator);
    channels = ((await (await fetch(`${printed.CONTROL_URL}/chat`)).json()) as { channels: ListedChannel[] }).channels;
  }, 60_000);
  afterAll(() => emulator?.close());

  const ruleIn = async (name: ConfigurationName): Promise<Report['results'][number]> => {
    const out = join(await mkdtemp(join(tmpdir(), `conformance-fault-${name}-`)), 'report');
    const env = settingsFor(configurationNamed(name), printed, channels);
    const run = await conformance(['run', '--target', 'remote', '--profile', 'quick', '--only', RULE, '--out', out], { env });
    expect(run.stderr).not.toMatch(/internal error/);
    const report = JSON.parse(await readFile(join(out, 'report.json'), 'utf8')) as Report;
    expect(report.credentials?.access_token, name).toBe('long-lived');
    return report.results.find((r) => r.id === RULE)!;
  };

  for (const name of ['remote-control', 'staging'] as const) {
    it(`fails ${RULE} in ${name}, whose run's access token is the long-lived token`, async () => {
      const r = await ruleIn(name);
      expect(r.level).toBe('must');
      expect(r.status, r.detail).toBe('failed');
      expect(r.detail).toMatch(/OAuth access token/);
    }, 300_000);
  }

  it(`skips ${RULE} in one-account, naming BASE_URL_2`, async () => {
    const r = await ruleIn('one-account');
    expect(r.status).toBe('skipped');
    expect(r.detail).toMatch(/BASE_URL_2/);
  }, 300_000);
});
