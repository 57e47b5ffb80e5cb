// docs/examples/vitest-rules/vitest.config.ts
// Conformance rules inside an integrator's vitest run, recorded for Allure by allure-vitest's reporter
// (`npx allure serve allure-results` shows them by section and level).
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['**/*.test.ts'],
    globalSetup: ['../vitest-sandbox/global-setup.ts'],
    reporters: ['default', ['allure-vitest/reporter', { resultsDir: process.env.ALLURE_RESULTS_DIR ?? 'allure-results' }]],
    testTimeout: 120_000,
    hookTimeout: 600_000,
  },
});
