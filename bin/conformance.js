#!/usr/bin/env -S node --
// The `--` stops Node 20 from reading our own `--env-file` flag as its own (it scans the whole argv).
// Runs the TypeScript sources directly through tsx, so a fresh clone needs no build step.
import { register } from 'tsx/esm/api';

// `conformance rules | head`: the reader left; end quietly as a Unix tool does, not with an EPIPE stack.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (err) => {
    if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw err;
  });
}

register();
const { main } = await import('../src/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
