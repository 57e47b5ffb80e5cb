import { defineConfig } from 'vitest/config';

// The kit's own tests. The conformance suite itself is run by `conformance run`, not by vitest.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Generous: several tests run the whole suite end to end, and a CI machine may be slower than a workstation.
    testTimeout: 180_000,
    // Two files at a time: most of the kit's tests wait on sockets, timers and Chromium, not on a core, so two workers
    // keep a 2-core CI machine busy; a concurrent describe (the variations) runs three of its tests at a time.
    maxWorkers: 2,
    maxConcurrency: 3,
    hookTimeout: 180_000,
    reporters: process.env.CI ? ['default', ['junit', { outputFile: 'reports/tests/junit.xml' }]] : ['default'],
  },
});
