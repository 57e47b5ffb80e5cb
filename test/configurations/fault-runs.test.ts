/**
 * Each fault in every configuration where its catching rules run differently from the bench (src/configurations/
 * fault-runs.ts derives the pairs from the configuration table and the supply plan): run there, the fault alone on, its
 * catching rules either catch it (the verdict test/faults/faults.test.ts expects on the bench) or are skipped naming
 * the need or capability the configuration lacks, as the data say; docs/faults.md's last column says the same.
 *
 * Cheap enough for `npm test`: the runs are in this process (executeRun, the remote target from `settingsFor`, as
 * `conformance run --target remote --only <rules>` would make it; no process start per pair), a few standalone
 * emulators shared by all pairs, each switching one fault on at a time (two faults on at once could make a rule fail
 * for the other's sake) and resetting after it. A pair that runs as another configuration's run of the same fault
 * (same sources for every need, same token, channel and hook version: `sameRunAs`) is proven by that run. A skip is
 * decided from the settings before any request, so one healthy run per configuration shows every predicted skip.
 */
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allRules } from '../../specs/index.js';
import { chromiumGap } from '../../src/browser/launch.js';
import { PROFILE_RUNS } from '../../src/cli/run-options.js';
import { EMBEDDED_KEYS, faultsInConfigurations, PRINTED_SHAPE, type FaultInConfiguration, missOf } from '../../src/docs/fault-runs.js';
import { CONFIGURATIONS, configurationNamed, type ConfigurationName, type ListedChannel, settingsFor } from '../../src/configurations/table.js';
import { configurationCell } from '../../src/docs/faults.js';
import { FAULT_TABLE } from '../../src/emulator/faults.js';
import { startEmulator } from '../../src/emulator/index.js';
import type { RuleResult } from '../../src/model/result.js';
import type { Rule } from '../../src/model/rule.js';
import type { TargetConfig } from '../../src/model/target.js';
import { emulatorSettings } from '../../src/needs/emulator-settings.js';
import { planSupply } from '../../src/needs/plan.js';
import { executeRun } from '../../src/runner/execute.js';
import { startEmbeddedTarget, type EmbeddedEmulator } from '../../src/targets/embedded.js';
import { targetFromEnv } from '../../src/targets/from-env.js';
import { lentBrowser } from '../lent-browser.js';

const SEED = 20261122;
/** Emulators side by side: a run mostly waits on sockets and Chromium, and each emulator holds one fault at a time. */
const LANES = 4;
const byId = new Map(allRules().map((r) => [r.id, r]));
const faultOf = new Map(FAULT_TABLE.map((f) => [f.name, f]));
const PAIRS = faultsInConfigurations();
const REMOTE = CONFIGURATIONS.filter((c) => c.target === 'remote').map((c) => c.name);

interface Lane {
  readonly emulator: EmbeddedEmulator;
  readonly printed: Record<string, string>;
  readonly targets: ReadonlyMap<ConfigurationName, TargetConfig>;
  readonly controlUrl: string;
}

async function startLane(): Promise<Lane> {
  // `conformance emulator`'s default shape, on a worker thread of its own: the emulators' work takes the other core.
  const { emulator } = await startEmbeddedTarget({ shape: 'deployed', seed: SEED, sandbox: false });
  const printed = await emulatorSettings(emulator);
  const channels = ((await (await fetch(`${printed.CONTROL_URL}/chat`)).json()) as { channels: ListedChannel[] }).channels;
  // No token store of an earlier `conformance authorize` in the working folder decides a source here.
  const store = join(tmpdir(), `conformance-fault-runs-${process.pid}-none.json`);
  const targets = new Map(REMOTE.map((name) => [name, {
    ...targetFromEnv({ ...settingsFor(configurationNamed(name), printed, channels), TOKEN_STORE: store }), interactive: false,
  }]));
  return { emulator, printed, targets, controlUrl: printed.CONTROL_URL! };
}

/** One Chromium for the file's page runs (each run still opens its own context): a launch per run costs seconds. */
const lent = lentBrowser();

async function runRules(target: TargetConfig, rules: readonly Rule[]): Promise<Map<string, RuleResult>> {
  const supply = planSupply(target, { interactive: false, soak: false, rules, selected: () => true });
  const report = await executeRun({ target, supply, rules, seed: SEED, runs: PROFILE_RUNS.quick, lent: lent(target) });
  return new Map(report.results.map((r) => [r.id, r]));
}

/**
 * The pairs whose rules drive the page in Chromium take seconds per case: `npm test` leaves them out, and
 * `FAULT_RUNS_PAGES=1 npx vitest run test/configurations/fault-runs.test.ts` runs them too (docs/faults.md says which);
 * `FAULT_RUNS_PAGES=only` runs those alone (the others are what npm test runs).
 */
const PAGE_MODE = process.env.FAULT_RUNS_PAGES;
const PAGES = PAGE_MODE === '1' || PAGE_MODE === 'only';
const runHere = (p: FaultInConfiguration) => (PAGE_MODE === 'only' ? p.onPage : PAGES || !p.onPage);
/** The runs the pairs need: each (fault, configuration) whose rules run there, once. */
const OWN_RUNS = PAIRS.filter((p) => p.outcome !== 'skipped' && p.sameRunAs === undefined && runHere(p));
const runKey = (fault: string, configuration: ConfigurationName) => `${fault} in ${configuration}`;
/** Roughly what a run costs: a rule of several cases per list or property takes longer. */
const cost = (p: FaultInConfiguration) => p.rules.length;

describe.skipIf(chromiumGap() !== undefined)('each fault in every configuration where its catching rules run differently', () => {
  const lanes: Lane[] = [];
  const results = new Map<string, Map<string, RuleResult>>();
  /** Per configuration: a healthy run of every rule predicted skipped there, and of the info rules (their healthy detail). */
  const healthy = new Map<ConfigurationName, Map<string, RuleResult>>();
  let seconds = 0;

  beforeAll(async () => {
    const started = Date.now();
    lanes.push(...(await Promise.all(Array.from({ length: LANES }, startLane))));
    for (const name of REMOTE) {
      const ids = new Set(PAIRS.filter((p) => p.configuration === name).flatMap((p) => p.rules)
        .filter((r) => 'skipped' in r || byId.get(r.id)!.level === 'info').map((r) => r.id));
      healthy.set(name, await runRules(lanes[0]!.targets.get(name)!, [...ids].map((id) => byId.get(id)!)));
    }
    // The costly runs first, each to the lane with the least work so far.
    const queues: FaultInConfiguration[][] = lanes.map(() => []);
    const load = lanes.map(() => 0);
    for (const p of [...OWN_RUNS].sort((a, b) => cost(b) - cost(a))) {
      const i = load.indexOf(Math.min(...load));
      queues[i]!.push(p);
      load[i]! += cost(p);
    }
    await Promise.all(lanes.map(async (lane, i) => {
      for (const p of queues[i]!) {
        await lane.emulator.setFaults({ enable: [p.fault] });
        const t0 = Date.now();
        try {
          results.set(runKey(p.fault, p.configuration), await runRules(lane.targets.get(p.configuration)!, p.rules.map((r) => byId.get(r.id)!)));
        } finally {
          // Back to the printed settings' state, the fault off (a reset returns to the faults given at start: none).
          await fetch(`${lane.controlUrl}/reset`, { method: 'POST' });
          if (process.env.FAULT_RUNS_LOG) console.log(`${Date.now() - t0} ms ${runKey(p.fault, p.configuration)}`);
        }
      }
    }));
    seconds = (Date.now() - started) / 1000;
    console.log(`fault runs: ${PAIRS.length} pairs (${PAIRS.filter((p) => p.onPage).length} on the page, ${PAGES ? 'run' : 'not run'}), ${OWN_RUNS.length} runs on ${LANES} emulators, ${seconds.toFixed(1)} s`);
  }, PAGES ? 3_600_000 : 900_000); // with the page pairs: about 500 runs, 20 minutes and more

  afterAll(async () => {
    await Promise.all(lanes.map((l) => l.emulator.close()));
  });

  it('models the printed settings the standalone emulator prints, and the embedded target\'s keys', async () => {
    expect(Object.keys(PRINTED_SHAPE).sort()).toEqual(Object.keys(lanes[0]!.printed).sort());
    const embedded = await startEmulator({ seed: SEED });
    try {
      expect([...EMBEDDED_KEYS].sort()).toEqual(Object.keys(embedded.env()).sort());
    } finally {
      await embedded.close();
    }
  });

  /** What happened to each catching rule of the pair, in the words the data use. */
  const observed = (p: FaultInConfiguration): string[] => {
    const fault = faultOf.get(p.fault)!;
    const run = p.outcome !== 'skipped' ? results.get(runKey(p.fault, p.sameRunAs ?? p.configuration)) : undefined;
    return p.rules.map((r) => {
      if ('skipped' in r) {
        const got = healthy.get(p.configuration)!.get(r.id)!;
        const named = got.status === 'skipped' && (got.detail.startsWith(`needs ${r.skipped}:`) || got.detail.startsWith(`requires capability \`${r.skipped}\``));
        return `${r.id}: ${named ? `skipped, needing ${r.skipped}` : `${got.status} ${got.detail}`}`;
      }
      const got = run!.get(r.id)!;
      if (byId.get(r.id)!.level === 'info') {
        // As on the bench (test/faults/faults.test.ts): an info rule catches a fault by reporting something else, a
        // server error's failure included.
        const before = healthy.get(p.configuration)!.get(r.id)!;
        return `${r.id}: ${got.detail !== before.detail ? 'reports differently' : `${got.status} ${got.detail}`}`;
      }
      return `${r.id}: ${got.status === (fault.verdict ?? 'failed') ? 'caught' : `${got.status} ${got.detail}`}`;
    });
  };

  const expected = (p: FaultInConfiguration): string[] => p.rules.map((r) => {
    if ('skipped' in r) return `${r.id}: skipped, needing ${r.skipped}`;
    const miss = missOf(p.fault, p.sameRunAs ?? p.configuration, r.id);
    if (miss) return `${r.id}: ${miss.status}`;
    return `${r.id}: ${byId.get(r.id)!.level === 'info' ? 'reports differently' : 'caught'}`;
  });

  // Each configuration with a pair to run here (FAULT_RUNS_PAGES=only leaves remote-control none).
  describe.each(REMOTE.filter((name) => PAIRS.some((x) => x.configuration === name && runHere(x))))('%s', (name) => {
    for (const p of PAIRS.filter((x) => x.configuration === name && runHere(x))) {
      it(`${p.fault}: ${p.outcome}${p.sameRunAs ? ` (the run of ${p.sameRunAs})` : ''}`, () => {
        // A known miss is still a miss (its verdict, whatever the detail): once a rule catches it, UNCAUGHT drops it.
        const want = expected(p);
        const got = observed(p).map((o, i) => (o.startsWith(`${want[i]!} `) ? want[i]! : o));
        expect(got).toEqual(want);
      });
    }
  });

  it('states in docs/faults.md what these runs prove, fault by fault', () => {
    const doc = readFileSync(new URL('../../docs/faults.md', import.meta.url), 'utf8');
    const missing = FAULT_TABLE.filter((f) => !doc.split('\n').some((line) => line.startsWith(`| \`${f.name}\` |`) && line.endsWith(`| ${configurationCell(f.name)} |`)));
    expect(missing.map((f) => f.name)).toEqual([]);
  });
});
