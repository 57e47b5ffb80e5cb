/**
 * Each configuration users run the kit in (src/configurations/table.ts) is one the kit's own tests run: the whole suite
 * at the quick profile, not on a terminal (CI), against the emulator, 0 failed and 0 errored. `embedded` is the default
 * run; the others are remote runs against the standalone emulator started as `conformance emulator` starts it, with
 * its printed settings made into the configuration (lines dropped or changed: `settingsFor`). Each run names its
 * configuration in report.json and its header, which credential "the run's access token" was, and skips a rule only
 * for a need the configuration's row says it lacks.
 *
 * Runs are repeatable against one account (a CI gate runs day after day against the same staging account): after the
 * staging and one-account runs, the remote-control run is made again and its verdicts must equal the first one's
 * (a run that changed a credential the settings name, or left records that a later run reads, would show here).
 * Between the first remote-control run and the staging run the emulator is reset (`POST /_control/reset`, issue 23):
 * the repeated run then also shows that a reset returns to the state the settings were printed in, rule by rule.
 *
 * The staging run is the live paths' goal too (a staging account has no control API): at most 15% of the rules
 * skipped, and every skip names the setting or step that would let the rule run, before sending anything.
 *
 * These runs are also the command line's end-to-end runs (they were two more whole runs in test/cli/run.test.ts): each
 * writes its five outputs, the embedded run (the README's first command, in its own process) gives the verdicts of
 * the remote run against the standalone emulator, and no output file or console line of any run holds a window of a
 * secret the emulator issued.
 */
import { mkdtemp, readdir, readFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumGap } from '../../src/browser/launch.js';
import { CONFIGURATIONS, type Configuration, configurationNamed, type ListedChannel, settingsFor } from '../../src/configurations/table.js';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import type { Report } from '../../src/model/result.js';
import { emulatorSettings } from '../../src/needs/emulator-settings.js';
import { conformance, secretWindows, SECRET_WINDOW } from '../cli/helpers.js';

interface ConfigurationRun {
  readonly report: Report;
  readonly stderr: string;
  /** What the run printed, both streams. */
  readonly console: string;
  readonly code: number | null;
  /** The run's --out folder. */
  readonly out: string;
}

async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await filesUnder(path)));
    else out.push(path);
  }
  return out;
}

/** The goal stated for a run without a control API. */
const MAX_SKIPPED_SHARE = 0.15;

/** A skip reason names a setting (an upper-case key), a command, a profile or a terminal: what would let the rule run. */
const NAMES_A_REMEDY = /\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b|`conformance [a-z]+`|--profile soak|run the kit on a terminal/;

/** The rules of the two chat sections a channel's hook version can sink (§2.4 and §4.3, §5.2). */
const CHAT_SECTIONS = /^(2\.4|2\.5|2\.6|2\.7|2\.8|2\.9|2\.10|2\.11|3\.2|3\.3|4\.3|5\.2|6)$/;

describe.skipIf(chromiumGap() !== undefined)('the suite in each configuration users run', () => {
  let emulator: RunningEmulator;
  const runs = new Map<string, ConfigurationRun>();
  let again: ConfigurationRun;

  const runIn = async (c: Configuration, printed: Record<string, string>): Promise<ConfigurationRun> => {
    const out = join(await mkdtemp(join(tmpdir(), `conformance-${c.name}-`)), 'report');
    const args = ['run', '--profile', 'quick', '--seed', '1', '--out', out, ...(c.target === 'remote' ? ['--target', 'remote'] : [])];
    const channels = (await (await fetch(`${printed.CONTROL_URL}/chat`)).json() as { channels: ListedChannel[] }).channels;
    const run = await conformance(args, { env: c.target === 'remote' ? settingsFor(c, printed, channels) : {} });
    expect(run.stderr, c.name).not.toMatch(/internal error/);
    return { report: JSON.parse(await readFile(join(out, 'report.json'), 'utf8')) as Report, stderr: run.stderr, console: `${run.stdout}\n${run.stderr}`, code: run.code, out };
  };

  beforeAll(async () => {
    // `conformance emulator`'s default: the deployed shape, each account and the chat interface at a host of its own.
    emulator = await startEmulator({ shape: 'deployed' });
    const printed = await emulatorSettings(emulator);
    // One after the other: each run is a CI job of its own against the one account.
    for (const c of CONFIGURATIONS) {
      runs.set(c.name, await runIn(c, printed));
      if (c.name === 'remote-control') expect((await fetch(`${printed.CONTROL_URL}/reset`, { method: 'POST' })).status).toBe(200);
    }
    again = await runIn(configurationNamed('remote-control'), printed);
    for (const [name, r] of runs) {
      const s = r.report.summary;
      console.log(`configuration ${name}: passed ${s.passed}, failed ${s.failed}, non_strict ${s.non_strict}, informational ${s.informational}, skipped ${s.skipped}, errored ${s.errored}`);
    }
  }, 2_400_000);

  afterAll(() => emulator?.close());

  for (const c of CONFIGURATIONS) {
    describe(c.name, () => {
      it('fails, errors and marks non_strict nothing on the correct emulator, and exits 0', () => {
        const { report, stderr, code } = runs.get(c.name)!;
        expect(report.results.length).toBeGreaterThan(300);
        const bad = report.results.filter((r) => r.status === 'failed' || r.status === 'errored' || r.status === 'non_strict');
        expect(bad.map((r) => `${r.id} ${r.status}: ${r.detail}`), stderr.slice(-2000)).toEqual([]);
        expect(code, stderr.slice(-2000)).toBe(0);
      });

      it('writes all five outputs', async () => {
        const { out } = runs.get(c.name)!;
        for (const name of ['report.json', 'report.html', 'junit.xml', 'summary.md']) expect((await stat(join(out, name))).size).toBeGreaterThan(0);
        expect((await readdir(join(out, 'allure-results'))).some((f) => f.endsWith('-result.json'))).toBe(true);
      });

      it('names its configuration, its access token and its hook version in report.json and in the header', () => {
        const { report, stderr } = runs.get(c.name)!;
        expect(report.configuration).toMatchObject({ name: c.name, exact: true, access_token: c.accessToken, hook_api_version: c.hookApiVersion });
        expect(report.credentials?.access_token).toBe(c.accessToken);
        expect(stderr).toMatch(new RegExp(`^conformance: configuration: ${c.name}; the run's access token: .+; connects ask for hook_api_version ${c.hookApiVersion}$`, 'm'));
      });

      it('skips a rule only for a need or a capability its row says the configuration lacks', () => {
        const { report } = runs.get(c.name)!;
        const skipped = report.results.filter((r) => r.status === 'skipped');
        const unexplained = skipped.filter((r) => {
          const need = /^needs ([a-z0-9-]+)/.exec(r.detail)?.[1];
          if (need !== undefined) return !c.missing.includes(need as never);
          return !c.lacks.some((cap) => r.requires.includes(cap));
        });
        expect(unexplained.map((r) => `${r.id}: ${r.detail}`)).toEqual([]);
      });

      it('runs the chat sections with no rule skipped for the hook version', () => {
        const { report } = runs.get(c.name)!;
        const chat = report.results.filter((r) => CHAT_SECTIONS.test(r.section));
        expect(chat.length).toBeGreaterThan(100);
        expect(chat.filter((r) => r.status === 'skipped' && /hook_api_version|CHANNEL_HOOK_API_VERSION/.test(r.detail)).map((r) => `${r.id}: ${r.detail}`)).toEqual([]);
        expect(report.results.find((r) => r.id === 'chat.connect.answer')?.status).toBe('passed');
      });
    });
  }

  it('sends both kinds of bearer to another account\'s address where the settings hold a long-lived token', () => {
    for (const name of ['staging', 'one-account'] as const) {
      const rule = runs.get(name)!.report.results.find((r) => r.id === 'api.base-url.per-account')!;
      if (name === 'one-account') {
        // No second account: the rule says what it needs.
        expect(rule.status).toBe('skipped');
        expect(rule.detail).toMatch(/BASE_URL_2/);
        continue;
      }
      expect(rule.status).toBe('passed');
      const kinds = new Set((rule.exchanges ?? []).map((x) => x.credential));
      expect([...kinds]).toEqual(expect.arrayContaining(['oauth-access', 'long-lived']));
    }
  });

  describe('staging, as the live paths\' goal', () => {
    it(`skips at most ${MAX_SKIPPED_SHARE * 100}% of the rules`, () => {
      const { results } = runs.get('staging')!.report;
      const skipped = results.filter((r) => r.status === 'skipped');
      expect(skipped.length / results.length, `${skipped.length} of ${results.length} skipped:\n${skipped.map((r) => `${r.id}: ${r.detail}`).join('\n')}`).toBeLessThanOrEqual(MAX_SKIPPED_SHARE);
    });

    it('names, for every skip, the one setting or step that would let the rule run, before sending anything', () => {
      for (const r of runs.get('staging')!.report.results.filter((x) => x.status === 'skipped')) {
        expect(r.detail, r.id).toMatch(NAMES_A_REMEDY);
        expect(r.request_count, r.id).toBe(0);
      }
    });
  });

  it('gives the embedded run (the README\'s first command) the verdicts of the remote run against the standalone emulator', () => {
    const verdicts = (r: ConfigurationRun) => Object.fromEntries(r.report.results.map((x) => [x.id, x.status]));
    expect(verdicts(runs.get('embedded')!)).toEqual(verdicts(runs.get('remote-control')!));
    expect(runs.get('embedded')!.report.target.kind).toBe('emulator');
    expect(runs.get('remote-control')!.report.target.kind).toBe('remote');
  });

  it(`leaves no ${SECRET_WINDOW} characters of any secret the emulator issued in any output file or console line of any run`, async () => {
    const secrets = emulator.issuedSecrets();
    expect(secrets.length).toBeGreaterThan(50); // codes and tokens of the runs, not just the credentials
    const windowsIn = secretWindows(secrets);
    for (const [name, r] of [...runs, ['remote-control again', again] as const]) {
      for (const file of await filesUnder(r.out)) expect(windowsIn(await readFile(file, 'utf8')).map((w) => `${w} in ${file}`)).toEqual([]);
      expect(windowsIn(r.console), name).toEqual([]);
    }
  });

  it('gives the same verdicts to the remote-control run made again after a reset and the staging and one-account runs', () => {
    const verdicts = (r: ConfigurationRun) => r.report.results.map((x) => `${x.id}: ${x.status}`);
    expect(verdicts(again)).toEqual(verdicts(runs.get('remote-control')!));
  });
});
