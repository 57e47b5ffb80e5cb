// docs/examples/vitest-sandbox/global-setup.ts
// Starts the reference emulator before the tests and stops it after them. The tests read its settings with
// `inject('crm')` (vitest's provide/inject): the same keys `conformance emulator` prints into a .env file.
import type { TestProject } from 'vitest/node';
import { startSandbox } from 'conformance-kit/emulator';

declare module 'vitest' {
  export interface ProvidedContext {
    crm: Record<string, string>;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const sandbox = await startSandbox();
  project.provide('crm', { ...sandbox.settings });
  return () => sandbox.close();
}
