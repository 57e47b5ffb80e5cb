// `conformance-kit/resolve`: `node --import conformance-kit/resolve app.js` applies HOST_RESOLVE (from the environment)
// to every Node client of the process (src/resolve.ts, docs/sandbox.md), loaded from the kit's esbuild bundle.
import { bundledEntry } from '../bin/bundle.js';

const entry = await import(await bundledEntry('resolve'));
export const { applyHostResolve } = entry;
applyHostResolve(process.env.HOST_RESOLVE);
