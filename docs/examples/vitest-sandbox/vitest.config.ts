// docs/examples/vitest-sandbox/vitest.config.ts
// An integrator's vitest configuration: the emulator starts once for the whole run (global-setup.ts).
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['**/*.test.ts'],
    globalSetup: ['./global-setup.ts'],
  },
});
