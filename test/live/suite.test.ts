/**
 * The goal of the live paths, measured on every rule: `conformance run --target remote --profile quick` against the standalone
 * emulator (its default, deployed shape: src/emulator/shape.ts) with CONTROL_URL removed (a staging account has no control API), not on a terminal (CI), Chromium present.
 * At most 15% of the rules may be skipped, none may fail or error, and every skip names the setting or step that
 * would let the rule run.
 *
 * That runs with the control API are repeatable against one account is test/configurations/suite.test.ts's to show
 * (its remote-control run, made again after the others).
 */
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumGap } from '../../src/browser/launch.js';
import { emulatorSettings } from '../../src/needs/emulator-settings.js';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import type { Report } from '../../src/model/result.js';
import { conformance } from '../cli/helpers.js';

/** The goal stated for a run without a control API. */
const MAX_SKIPPED_SHARE = 0.15;

/** A skip reason names a setting (an upper-case key), a command, a profile or a terminal: what would let the rule run. */
const NAMES_A_REMEDY = /\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b|`conformance [a-z]+`|--profile soak|run the kit on a terminal/;

describe.skipIf(chromiumGap() !== undefined)('the whole suite against the standalone emulator without CONTROL_URL', () => {
  let emulator: RunningEmulator;
  let report: Report;
  let stderr: string;

  beforeAll(async () => {
    // `conformance emulator`'s default: the deployed shape, each account and the chat interface at a host of its own.
    emulator = await startEmulator({ shape: 'deployed' });
    const settings = await emulatorSettings(emulator);
    const { CONTROL_URL: _dropped, ...env } = settings;
    const out = join(await mkdtemp(join(tmpdir(), 'conformance-live-')), 'report');
    // The quick profile: every rule runs (the goal is about rules, not cases), at the CI gate's request count.
    const run = await conformance(['run', '--target', 'remote', '--profile', 'quick', '--seed', '1', '--out', out], { env });
    stderr = run.stderr;
    expect(run.stderr).not.toMatch(/internal error/);
    report = JSON.parse(await readFile(join(out, 'report.json'), 'utf8')) as Report;
  }, 900_000);

  afterAll(() => emulator?.close());

  it(`skips at most ${MAX_SKIPPED_SHARE * 100}% of the rules`, () => {
    const skipped = report.results.filter((r) => r.status === 'skipped');
    const share = skipped.length / report.results.length;
    expect(report.results.length).toBeGreaterThan(100);
    expect(share, `${skipped.length} of ${report.results.length} skipped:\n${skipped.map((r) => `${r.id}: ${r.detail}`).join('\n')}`).toBeLessThanOrEqual(MAX_SKIPPED_SHARE);
  });

  it('fails and errors nothing', () => {
    const bad = report.results.filter((r) => r.status === 'failed' || r.status === 'errored');
    expect(bad.map((r) => `${r.id} ${r.status}: ${r.detail}`), stderr.slice(-2000)).toEqual([]);
  });

  it('names, for every skip, the one setting or step that would let the rule run, before sending anything', () => {
    for (const r of report.results.filter((x) => x.status === 'skipped')) {
      expect(r.detail, r.id).toMatch(NAMES_A_REMEDY);
      expect(r.request_count, r.id).toBe(0);
    }
  });
});
