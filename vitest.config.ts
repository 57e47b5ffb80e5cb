import { defineConfig } from 'vitest/config';

// The kit's own tests. The conformance suite itself is run by `conformance run`, not by vitest.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Generous: several tests run the whole suite end to end, and a CI machine may be slower than a workstation.
    testTimeout: 180_000,
    hookTimeout: 180_000,
    reporters: process.env.CI ? ['default', ['junit', { outputFile: 'reports/tests/junit.xml' }]] : ['default'],
  },
});
