/**
 * The suite under one allowed variation (src/emulator/variations.ts) at a time: no rule may come out `failed` or
 * `errored`, since the variation is a behaviour the spec allows. Each variation runs against the rules that can
 * observe it (src/runner/trace.ts: those whose requests asked the emulator about it in the traced healthy run the
 * tests share, test/traced-run.ts), so a variation of one endpoint does not pay for the whole suite. The quick profile's case count: a variation changes behaviour for
 * every case alike, so more cases would only repeat the same observation.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { allRules } from '../../specs/index.js';
import { VARIATIONS } from '../../src/emulator/variations.js';
import type { VariationInfo } from '../../src/emulator/switches.js';
import { PROFILE_RUNS } from '../../src/cli/run-options.js';
import type { Report } from '../../src/model/result.js';
import { executeRun } from '../../src/runner/execute.js';
import { TRACE_SEED, type RunTrace } from '../../src/runner/trace.js';
import { startEmbeddedTarget, type EmbeddedTarget } from '../../src/targets/embedded.js';
import { sharedTrace, untrue } from '../traced-run.js';
import { lentBrowser } from '../lent-browser.js';

/** The traced run's seed: each variation's run repeats the cases whose requests were traced. */
const SEED = TRACE_SEED;

/** The rules of `only` (every rule when undefined) against the emulator with `variation` on. */
export async function runUnder(variation: VariationInfo | undefined, only?: readonly string[], shape: 'one-origin' | 'deployed' = 'one-origin', lent?: ReturnType<typeof lentBrowser>): Promise<Report> {
  // The emulator in this thread, as the fault tests have it: the same behaviour, without a worker's start-up.
  const target: EmbeddedTarget = await startEmbeddedTarget({ thread: 'main', seed: SEED, variations: variation ? [variation.name] : [], shape });
  try {
    // A late effect is judged against the windows a real service gets, not the embedded emulator's 1 s cap.
    const full = <T extends object>(c: T): T => ({ ...c, effectWindowMs: Number.POSITIVE_INFINITY });
    const { sandbox } = target.config;
    const config = variation?.run?.fullWindows ? { ...full(target.config), ...(sandbox ? { sandbox: full(sandbox) } : {}) } : target.config;
    return await executeRun({ target: config, rules: allRules(), seed: SEED, runs: PROFILE_RUNS.quick, ...(only ? { only: only.join(',') } : {}), lent: lent?.(config) });
  } finally {
    await target.close();
  }
}

/** One test per variation of this part: the variations are split over files so that vitest runs them side by side. */
export function describeVariations(part: number, parts: number): void {
  // The variations of the one-origin shape (the default); test/variations/deployed.test.ts runs those of the deployed one.
  const mine = (VARIATIONS as readonly VariationInfo[]).filter((v) => (v.run?.shapes ?? ['one-origin']).includes('one-origin')).filter((_, i) => i % parts === part);
  describe(`the suite under each allowed variation (part ${part + 1} of ${parts})`, () => {
    // One Chromium for the part's runs: a variation changes the emulator, not the browser.
    const lent = lentBrowser();
    let trace: RunTrace;
    beforeAll(async () => {
      trace = await sharedTrace();
    });

    it('traces a healthy run that fails and errors nothing', () => {
      expect(trace.report.results.length).toBe(allRules().length);
      expect(untrue(trace.report)).toEqual([]);
      // A question asked for an untagged request is counted for every rule: each way the kit sends carries its sender.
      expect(trace.untagged, 'variations asked about by requests without a sender tag').toEqual({});
      const every = VARIATIONS.filter((v) => trace.variations[v.name] === 'every rule');
      const runs = VARIATIONS.reduce((n, v) => n + ruleRuns(trace, v.name), 0);
      console.info(`variations: ${VARIATIONS.length}, run against every rule: ${every.length}${every.length > 0 ? ` (${every.map((v) => v.name).join(', ')})` : ''}; rule-runs: ${runs}`);
    });

    describe.concurrent('each variation', () => {
      for (const variation of mine) {
        it(`${variation.name}: no rule that can observe it failed or errored`, async () => {
          const rules = trace.variations[variation.name] ?? [];
          // A variation no rule asks about is never exercised: its test could not fail.
          if (rules !== 'every rule') expect(rules.length, `no rule of a healthy run reaches ${variation.name}`).toBeGreaterThan(0);
          const report = await runUnder(variation, rules === 'every rule' ? undefined : rules, 'one-origin', lent);
          const judged = report.results.filter((r) => r.status !== 'skipped').map((r) => r.id);
          expect(judged.length).toBeGreaterThan(0);
          expect(untrue(report)).toEqual([]);
        });
      }
    });
  });
}

/** How many rules run under `variation`: those that can observe it, or all of them. */
function ruleRuns(trace: RunTrace, variation: string): number {
  const rules = trace.variations[variation] ?? [];
  return rules === 'every rule' ? trace.report.results.length : rules.length;
}
