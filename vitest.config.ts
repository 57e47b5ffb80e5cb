import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files that take minutes (measured on a 2-core machine: the fault runs per configuration, the faults, the
 * configuration runs, the variations), started first. On a fresh clone vitest knows no durations and starts the largest
 * files first, and the variations' three-line files would start last and end the run alone on one worker.
 */
const LONG_FIRST = [
  'test/configurations/fault-runs.test.ts',
  'test/faults/faults.test.ts',
  'test/configurations/suite.test.ts',
  'test/variations/part-2.test.ts',
  'test/variations/part-1.test.ts',
];

class LongFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (f: TestSpecification) => {
      const i = LONG_FIRST.findIndex((path) => f.moduleId.endsWith(path));
      return i < 0 ? LONG_FIRST.length : i;
    };
    // Array.prototype.sort is stable: the other files keep vitest's own order.
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

// The kit's own tests. The conformance suite itself is run by `conformance run`, not by vitest.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Generous: several tests run the whole suite end to end, and a CI machine may be slower than a workstation. 180 s
    // was a wall-clock kill of work doing its job: on a 2-core machine loaded four times over, the variation whose
    // service answers every hundredth request 429 (369 rules, each 429 waited out) took longer, and failed as a timeout.
    testTimeout: 600_000,
    // Three files at a time on a 2-core CI machine: the kit's tests wait on sockets, timers and Chromium much of the
    // time (two workers kept the cores only three-quarters busy: 152% CPU over a 15-minute run), so a third fills the
    // gaps; a concurrent describe (the faults, the variations) runs three of its tests at a time.
    maxWorkers: 3,
    // A worker runs file after file in one module graph: importing the kit (every rule, the emulator, the runner) once
    // per file cost 147 s of a 16-minute run on a CPU-bound 2-core machine. The kit's module-level state is caches of
    // pure results (secret tags, parsed queries, seeded data sets, frozen where shared); a test that changes the process
    // (an environment variable, the global dispatcher, fetch, fake timers) restores it in a finally.
    isolate: false,
    maxConcurrency: 3,
    sequence: { sequencer: LongFirst },
    hookTimeout: 600_000,
    reporters: process.env.CI ? ['default', ['junit', { outputFile: 'reports/tests/junit.xml' }]] : ['default'],
  },
});
