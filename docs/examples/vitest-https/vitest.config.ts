// docs/examples/vitest-https/vitest.config.ts
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: { include: ['**/*.test.ts'] },
});
