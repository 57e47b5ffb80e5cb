import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// The kit's own tests. The conformance suite itself is run by `conformance run`, not by vitest.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Every core, and at least two files at once: most of the long files wait (on hook windows, on the conformance
    // runs they start as child processes), and vitest's default of one worker per core but one left a 2-core machine
    // half idle.
    maxWorkers: Math.max(2, availableParallelism()),
    // Generous: several tests run the whole suite end to end, and a CI machine may be slower than a workstation.
    testTimeout: 180_000,
    hookTimeout: 180_000,
    reporters: process.env.CI ? ['default', ['junit', { outputFile: 'reports/tests/junit.xml' }]] : ['default'],
  },
});
