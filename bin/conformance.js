#!/usr/bin/env -S node --
// The `--` stops Node 20 from reading our own `--env-file` flag as its own (it scans the whole argv).
// Runs the TypeScript sources directly through tsx, so a fresh clone needs no build step.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
