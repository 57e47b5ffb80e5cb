import { defineConfig } from 'vitest/config';

// The kit's own tests. The conformance suite itself is run by `conformance run`, not by vitest.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    reporters: process.env.CI ? ['default', ['junit', { outputFile: 'reports/tests/junit.xml' }]] : ['default'],
  },
});
