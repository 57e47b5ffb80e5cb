#!/usr/bin/env -S node --
// The `--` stops Node 20 from reading our own `--env-file` flag as its own (it scans the whole argv).
// Runs the TypeScript sources bundled by esbuild (bin/bundle.js: built on first use and whenever a source changed),
// so a fresh clone needs no build step and a start takes a tenth of a second.
import { bundledEntry } from './bundle.js';

// `conformance rules | head`: the reader left; end quietly as a Unix tool does, not with an EPIPE stack.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (err) => {
    if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw err;
  });
}

process.setSourceMapsEnabled(true);
const { main } = await import(await bundledEntry('cli'));
process.exitCode = await main(process.argv.slice(2));
