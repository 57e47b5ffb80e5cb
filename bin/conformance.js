#!/usr/bin/env -S node --
// The `--` stops Node 20 from reading our own `--env-file` flag as its own (it scans the whole argv).
// Runs the TypeScript sources bundled by esbuild (bin/bundle.js): the package's dist/ in an installed kit; in a
// development checkout built on first use and whenever a source changed, so a fresh clone needs no build step and a
// start takes a tenth of a second.
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
const code = await main(process.argv.slice(2));
// An interrupted run (src/runner/interrupt.ts) wrote its reports; the rules it abandoned may still hold sockets and
// timers, which must not keep the process alive.
if (code === 130 || code === 143) process.exit(code);
process.exitCode = code;
