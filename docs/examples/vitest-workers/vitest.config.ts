// docs/examples/vitest-workers/vitest.config.ts
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['**/*.test.ts'],
    // Files run side by side, each in a worker of its own; each file starts its own sandbox (useSandbox).
    maxWorkers: 2,
  },
});
