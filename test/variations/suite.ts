/**
 * The whole suite under one allowed variation (src/emulator/variations.ts), or the rules of its scope (those that call
 * the endpoints it changes): no rule may come out `failed` or `errored`, since the variation is a behaviour the spec
 * allows. The quick profile's case count: a variation changes
 * behaviour for every case alike, so more cases would only repeat the same observation.
 */
import { describe, expect, it } from 'vitest';
import { allRules } from '../../specs/index.js';
import { VARIATIONS } from '../../src/emulator/variations.js';
import type { VariationInfo } from '../../src/emulator/switches.js';
import { PROFILE_RUNS } from '../../src/cli/run-options.js';
import type { Report } from '../../src/model/result.js';
import { executeRun } from '../../src/runner/execute.js';
import { startEmbeddedTarget, type EmbeddedTarget } from '../../src/targets/embedded.js';

const SEED = 20261126;

/** `failed` and unjudged results (errored, or skipped behind a refused step) as `id: status detail` lines, for a readable assertion. */
export function untrue(report: Report): string[] {
  return report.results.filter((r) => r.status === 'failed' || r.status === 'errored' || r.blocked_by !== undefined).map((r) => `${r.id}: ${r.status} ${r.detail ?? ''}`);
}

export async function runUnder(variation: VariationInfo): Promise<Report> {
  // The emulator in this thread, as the fault tests have it: the same behaviour, without a worker's start-up.
  const target: EmbeddedTarget = await startEmbeddedTarget({ thread: 'main', variations: [variation.name] });
  try {
    // A late effect is judged against the windows a real service gets, not the embedded emulator's 1 s cap.
    const full = <T extends object>(c: T): T => ({ ...c, effectWindowMs: Number.POSITIVE_INFINITY });
    const { sandbox } = target.config;
    const config = variation.run?.fullWindows ? { ...full(target.config), ...(sandbox ? { sandbox: full(sandbox) } : {}) } : target.config;
    return await executeRun({ target: config, rules: allRules(), seed: SEED, runs: PROFILE_RUNS.quick, ...(variation.scope ? { only: variation.scope } : {}) });
  } finally {
    await target.close();
  }
}

/** One test per variation of this part: the variations are split over files so that vitest runs them side by side. */
export function describeVariations(part: number, parts: number): void {
  const mine = VARIATIONS.filter((_, i) => i % parts === part);
  describe(`the whole suite under each allowed variation (part ${part + 1} of ${parts})`, () => {
    for (const variation of mine) {
      it(`${variation.name}: no rule failed or errored`, async () => {
        const report = await runUnder(variation);
        expect(report.results.length).toBe(allRules().length);
        expect(report.results.filter((r) => r.status !== 'skipped').length).toBeGreaterThan(0);
        expect(untrue(report)).toEqual([]);
      });
    }
  });
}
