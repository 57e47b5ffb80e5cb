// `conformance-kit/vitest`: selected conformance rules as tests of your own vitest suite, labelled for Allure by
// section and level (src/vitest-adapter.ts, docs/sandbox.md). Import it from a test file: it registers tests.
import { bundledEntry } from '../bin/bundle.js';

const entry = await import(await bundledEntry('vitest'));
export const { conformanceSuite, selectRules, useSandbox } = entry;
