/**
 * A connect refused for its hook version (CHANNEL_HOOK_API_VERSION, issue 37): the run says so in one line naming the
 * setting, instead of leaving the user to read a run of skipped rules. Reproduced as a staging team would: the printed
 * channel with a v1 hook address only as CHANNEL_ID, and CHANNEL_HOOK_API_VERSION=v2, so every connect asks for v2.
 */
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumGap } from '../../src/browser/launch.js';
import { configurationNamed, type ListedChannel, settingsFor } from '../../src/configurations/table.js';
import { versionRefusalOf } from '../../src/configurations/version-refusal.js';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import type { Report, RuleResult } from '../../src/model/result.js';
import { emulatorSettings } from '../../src/needs/emulator-settings.js';
import { connectVersionNamed, versionRefusalLine } from '../../src/steps/chat.js';
import { conformance } from '../cli/helpers.js';

const result = (id: string, status: RuleResult['status'], detail: string) => ({ id, status, detail }) as RuleResult;

describe('the version-refusal line', () => {
  it('counts the rules whose detail names CHANNEL_HOOK_API_VERSION and quotes what the connect asked for', () => {
    const refusal = `the connect answered 400; ${versionRefusalLine('v2')}`;
    const line = versionRefusalOf([
      result('chat.connect.answer', 'failed', refusal),
      result('chat.send.accepted', 'skipped', `needs the connection: ${refusal}`),
      result('chat.signature.valid', 'passed', 'held'),
    ]);
    expect(line).toBe(`the configured channel refused the connect: ${versionRefusalLine('v2')} (1 rule could not run behind it)`);
    expect(line).toMatch(/CHANNEL_HOOK_API_VERSION=v2/);
  });

  it('names the setting in the connect rule\'s own failure for a refusal of the request, not of its signature, channel or rate', () => {
    const answer = (status: number) => ({ status, headers: {}, text: '{}', durationMs: 1 });
    const named = connectVersionNamed('v1');
    expect(named(answer(400))).toMatchObject({ verdict: 'failed' });
    expect(JSON.stringify(named(answer(422)))).toContain(versionRefusalLine('v1'));
    for (const status of [200, 401, 403, 404, 429, 500]) expect(named(answer(status))).toMatchObject({ verdict: 'passed' });
  });

  it('says nothing when no connect was refused for its version', () => {
    expect(versionRefusalOf([result('chat.connect.answer', 'failed', 'the connect answered 401'), result('chat.send.accepted', 'passed', 'held')])).toBeUndefined();
  });
});

describe.skipIf(chromiumGap() !== undefined)('a run whose configured channel refuses the version it asks for', () => {
  let emulator: RunningEmulator;
  let env: Record<string, string>;

  beforeAll(async () => {
    emulator = await startEmulator({ shape: 'deployed' });
    const printed = await emulatorSettings(emulator);
    const channels = ((await (await fetch(`${printed.CONTROL_URL}/chat`)).json()) as { channels: ListedChannel[] }).channels;
    // Staging's settings (the v1-only channel configured), but the version set to the one its settings do not hold.
    env = { ...settingsFor(configurationNamed('staging'), printed, channels), CHANNEL_HOOK_API_VERSION: 'v2' };
  }, 60_000);
  afterAll(() => emulator?.close());

  it('prints one line naming CHANNEL_HOOK_API_VERSION, from the rule the refused connect left unjudged', async () => {
    const out = join(await mkdtemp(join(tmpdir(), 'conformance-version-refusal-')), 'report');
    const run = await conformance(['run', '--target', 'remote', '--profile', 'quick', '--only', 'chat.connect.answer,chat.react.accepted', '--out', out], { env });
    expect(run.stderr).not.toMatch(/internal error/);
    const lines = run.stderr.split('\n').filter((l) => l.startsWith('conformance: the configured channel refused the connect'));
    expect(lines, run.stderr.slice(-2000)).toHaveLength(1);
    expect(lines[0]).toMatch(/asked for hook_api_version v2 \(CHANNEL_HOOK_API_VERSION=v2\).*set CHANNEL_HOOK_API_VERSION to the version they hold.* \(\d+ rules? could not run behind it\)$/);
    const report = JSON.parse(await readFile(join(out, 'report.json'), 'utf8')) as Report;
    const connect = report.results.find((r) => r.id === 'chat.connect.answer')!;
    expect(connect.status).toBe('failed');
    // chat.connect.answer judges the answer itself and names the setting in its failure; the rule that needed the
    // connection names it in its skip, and the line counts that one.
    const named = report.results.filter((r) => r.detail.includes('set CHANNEL_HOOK_API_VERSION'));
    expect(named.map((r) => `${r.id} ${r.status}`).sort()).toEqual(['chat.connect.answer failed', 'chat.react.accepted skipped']);
    expect(lines[0]).toMatch(/\(1 rule could not run behind it\)$/);
  }, 300_000);
});
