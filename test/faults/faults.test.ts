/**
 * Every rule can fail: each emulator fault is switched on alone and the rules named in its `caughtBy`
 * must come out `failed` (an `info` rule cannot fail; it must report something other than on a healthy emulator), or
 * `non_strict` for a fault the reading judges a lesser departure (`verdict: 'non_strict'`).
 * And every `must` and `should` rule is named for at least one fault.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allRules } from '../../specs/index.js';
import { PROFILE_RUNS } from '../../src/cli/run-options.js';
import { FAILING_FAULTS, FAULT_TABLE as FAULTS } from '../../src/emulator/faults.js';
import type { RuleResult } from '../../src/model/result.js';
import { executeRun } from '../../src/runner/execute.js';
import { startEmbeddedTarget, type EmbeddedTarget } from '../../src/targets/embedded.js';
import { lentBrowser } from '../lent-browser.js';

const SEED = 20261122;
// The quick profile's case count (the CI gate): a fault the quick run misses would pass a gate; the full profile's first
// cases are the quick one's (same seed), so what the quick run catches the full run catches too.
const RUNS = PROFILE_RUNS.quick;
const rules = allRules();
// The emulator in this thread: a worker thread's start and stop cost over a second each, once per fault; what is
// tested (the emulator's behaviour with one fault on) is the same on either thread. Its world (the list records the
// filter rules read) comes from the same seed every time: a fault that only some worlds expose would otherwise pass
// one run and fail the next, and `caughtBy` names what this world shows.
const EMBEDDED = { thread: 'main', seed: SEED } as const;
const byId = new Map(rules.map((r) => [r.id, r]));

// One Chromium for every fault's run of the page rules (each run opens its own context).
const lentFor = lentBrowser();

async function run(target: EmbeddedTarget, ids: readonly string[]): Promise<Map<string, RuleResult>> {
  const report = await executeRun({ target: target.config, rules: ids.map((id) => byId.get(id)!), seed: SEED, runs: RUNS, lent: lentFor(target.config) });
  return new Map(report.results.map((r) => [r.id, r]));
}

describe('fault table', () => {
  it('names only existing rules', () => {
    const unknown = FAULTS.flatMap((f) => f.caughtBy).filter((id) => !byId.has(id));
    expect(unknown).toEqual([]);
  });

  it('gives every must and should rule at least one fault that makes it fail', () => {
    const killed = new Set(FAILING_FAULTS.flatMap((f) => f.caughtBy));
    const unkillable = rules.filter((r) => r.level !== 'info' && !killed.has(r.id)).map((r) => r.id);
    expect(unkillable).toEqual([]);
  });

  it('gives every fault a rule that catches it', () => {
    expect(FAULTS.filter((f) => f.caughtBy.length === 0).map((f) => f.name)).toEqual([]);
  });
});

describe('each fault is caught', () => {
  let healthy: EmbeddedTarget;
  let healthyResults: Map<string, RuleResult>;

  beforeAll(async () => {
    healthy = await startEmbeddedTarget(EMBEDDED);
    healthyResults = await run(healthy, [...new Set(FAULTS.flatMap((f) => f.caughtBy))]);
  });
  afterAll(() => healthy?.close());

  it('passes every rule of the table on a healthy emulator', () => {
    const notPassing = [...healthyResults.values()].filter((r) => r.status !== 'passed' && r.status !== 'informational');
    expect(notPassing.map((r) => `${r.id}: ${r.status} ${r.detail}`)).toEqual([]);
  });

  // Side by side (vitest's maxConcurrency at a time): each fault has its own emulator, and most of a fault's run waits
  // on sockets and effect windows, not on a core.
  describe.concurrent('each fault alone', () => {
    for (const fault of FAULTS) {
      const ids = fault.caughtBy;
      if (ids.length === 0) continue;
      it(`${fault.name} is caught by ${ids.join(', ')}`, async () => {
        // The sandbox instance only serves the exclusive rules (they move the clock or change keys).
        const target = await startEmbeddedTarget({ ...EMBEDDED, faults: [fault.name], sandbox: ids.some((id) => byId.get(id)!.exclusive === true) });
        try {
          const results = await run(target, ids);
          for (const id of ids) {
            const r = results.get(id)!;
            if (byId.get(id)!.level === 'info') expect(r.detail, id).not.toBe(healthyResults.get(id)!.detail);
            else expect(`${id}: ${r.status}`, r.detail).toBe(`${id}: ${fault.verdict ?? 'failed'}`);
          }
        } finally {
          await target.close();
        }
      });
    }
  });
});
