import { defineConfig } from 'vitest/config';

// The kit's own tests. The conformance suite itself is run by `conformance run`, not by vitest.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Generous: several tests run the whole suite end to end, and a CI machine may be slower than a workstation.
    testTimeout: 180_000,
    // Three files at a time on a 2-core CI machine: the kit's tests wait on sockets, timers and Chromium much of the
    // time (two workers kept the cores only three-quarters busy: 152% CPU over a 15-minute run), so a third fills the
    // gaps; a concurrent describe (the faults, the variations) runs three of its tests at a time.
    maxWorkers: 3,
    maxConcurrency: 3,
    hookTimeout: 180_000,
    reporters: process.env.CI ? ['default', ['junit', { outputFile: 'reports/tests/junit.xml' }]] : ['default'],
  },
});
