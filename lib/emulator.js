// `conformance-kit/emulator`: the emulator for an integrator's own tests (src/sandbox.ts, docs/sandbox.md), loaded
// from the kit's esbuild bundle (bin/bundle.js) so that plain Node runs it without a TypeScript loader.
import { bundledEntry } from '../bin/bundle.js';

const entry = await import(await bundledEntry('emulator'));
export const { startSandbox, startEmulator, lookupUnder, FAULTS, VARIATIONS, DEFAULT_ACCOUNT_DOMAIN } = entry;
