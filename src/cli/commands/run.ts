/**
 * `conformance run`: runs the suite against the embedded emulator or a remote target and writes the reports.
 */
import { allRules } from '../../../specs/index.js';
import type { Rule } from '../../model/rule.js';
import { missingCapability } from '../../runner/run-rule.js';
import { skipReason } from '../../runner/select.js';
import { targetFromEnv } from '../../targets/from-env.js';
import { defineCommand } from '../command.js';
import { exitCode } from '../exit-code.js';
import { performRun } from '../perform-run.js';
import { addRunFlags, runCommandOptions, type RunCommandOptions, type RunFlags } from '../run-options.js';

export const runCommand = defineCommand<RunFlags>({
  name: 'run',
  summary: 'run the suite and write the reports',
  description: 'Runs every rule (or those --only and --shard select) against the embedded emulator or a remote target, '
    + 'writes the reports into --out and prints a summary line. Exit 0 when no `must` rule failed (with --strict, no '
    + '`should` either; with --baseline, no regression), 1 on failures, 2 on a usage or configuration error, 3 when '
    + 'the target cannot be reached.',
  examples: [
    ['conformance run', 'the whole suite against the embedded emulator'],
    ['conformance run --profile quick --seed 1', 'the CI gate, reproducible'],
    ['conformance run --target remote --only 4.2', 'one section against the server .env describes'],
    ['conformance run --shard 1/4 --out shard1', 'a quarter of the rules, to merge later'],
  ],
  flags: (command) => addRunFlags(command, 'run'),
  action: async (flags) => {
    const s = await runCommandOptions(flags);
    if (s.dryRun) return dryRun(s);
    const { report, comparison } = await performRun(s);
    return exitCode(report, { strict: s.strict, ...(comparison ? { comparison } : {}) });
  },
});

/** `--dry-run`: what a run would create on the target, without sending anything. */
function dryRun(s: RunCommandOptions): number {
  const rules = allRules();
  const skip = skipReason({ ...(s.only ? { only: s.only } : {}), ...(s.shard ? { shard: s.shard } : {}) }, rules);
  const target = s.kind === 'remote' ? targetFromEnv(s.env, 'remote') : undefined;
  const runs = (r: Rule) => skip(r) === undefined && (!target || missingCapability(r, target) === undefined);
  const writers = rules.filter((r) => runs(r) && r.requires.includes('write'));
  const readers = rules.filter((r) => runs(r) && !r.requires.includes('write'));
  process.stdout.write(`dry run against ${target ? target.baseUrl : 'the embedded emulator'}: nothing is sent.\n`);
  process.stdout.write(`${readers.length} rules only read. ${writers.length} rules create data, every id carrying the run id (run-${s.seed.toString(36)}-<time>):\n`);
  for (const r of writers) process.stdout.write(`  ${r.id}: ${r.creates ?? 'records on the target'}\n`);
  return 0;
}
