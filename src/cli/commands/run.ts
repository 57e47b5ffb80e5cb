/**
 * `conformance run`: runs the suite against the embedded emulator or a remote target and writes the reports.
 */
import { allRules } from '../../../specs/index.js';
import type { Rule } from '../../model/rule.js';
import { skipBeforeRun } from '../../runner/run-rule.js';
import { skipReason } from '../../runner/select.js';
import { targetFromEnv } from '../../targets/from-env.js';
import { planSupply } from '../../needs/plan.js';
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
    + 'the target cannot be reached, 4 when nothing failed but a `must` rule was left unjudged (errored, or skipped '
    + 'because the target refused a step it needed; --allow-unjudged hides them from the exit code), 130 on SIGINT '
    + 'and 143 on SIGTERM (the reports of what ran are written, marked incomplete). Failed and unjudged rules are '
    + 'named on stderr.',
  examples: [
    ['conformance run', 'the whole suite against the embedded emulator'],
    ['conformance run --profile quick --seed 1', 'the CI gate, reproducible'],
    ['conformance run --target remote --only 4.2', 'one section against the server .env describes'],
    ['conformance run --shard 1/4 --out shard1', 'a quarter of the rules, to merge later'],
    ['conformance run --target remote --allow-unjudged', 'exit 0 even when rules errored (they are still listed)'],
  ],
  flags: (command) => addRunFlags(command, 'run'),
  action: async (flags) => {
    const s = await runCommandOptions(flags);
    if (s.dryRun) return dryRun(s);
    const { report, comparison } = await performRun(s);
    return exitCode(report, { strict: s.strict, allowUnjudged: s.allowUnjudged, ...(comparison ? { comparison } : {}) });
  },
});

/**
 * `--dry-run`: every rule the run would skip and why (each reason names the setting or step that would let it run),
 * then what it would create on the target; nothing is sent.
 */
function dryRun(s: RunCommandOptions): number {
  const rules = allRules();
  const skip = skipReason({ ...(s.only ? { only: s.only } : {}), ...(s.exclude ? { exclude: s.exclude } : {}), ...(s.shard ? { shard: s.shard } : {}) }, rules);
  const selected = (r: Rule) => skip(r) === undefined;
  const plan = s.kind === 'remote'
    ? planSupply(targetFromEnv(s.env, 'remote'), { interactive: s.interactive, soak: s.profile === 'soak', rules, selected })
    : undefined;
  const target = plan?.target;
  const gapOf = (r: Rule) => (plan ? skipBeforeRun(r, plan) : undefined);
  const inRun = rules.filter(selected);
  const skipped = inRun.map((r) => ({ rule: r, reason: gapOf(r) })).filter((x): x is { rule: Rule; reason: string } => x.reason !== undefined);
  const runs = inRun.filter((r) => gapOf(r) === undefined);
  const writers = runs.filter((r) => r.requires.includes('write'));
  const readers = runs.filter((r) => !r.requires.includes('write'));
  const out = (line: string) => process.stdout.write(`${line}\n`);
  out(`dry run against ${target ? target.baseUrl : 'the embedded emulator'}: nothing is sent.`);
  if (plan) for (const line of plan.openingLines()) out(line);
  const share = inRun.length === 0 ? 0 : Math.round((1000 * skipped.length) / inRun.length) / 10;
  out(`${inRun.length} rules selected: ${runs.length} run, ${skipped.length} skipped (${share}%)${skipped.length > 0 ? ':' : '.'}`);
  for (const { rule, reason } of skipped) out(`  ${rule.id}: ${reason}`);
  const soak = plan ? runs.filter((r) => plan.waitsInRealTime(r)) : [];
  if (soak.length > 0) out(`${soak.length} rules wait in real time (--profile soak), from the start of the run: ${soak.map((r) => r.id).join(', ')}`);
  out(`${readers.length} rules only read. ${writers.length} rules create data, every id carrying the run id (run-${s.seed.toString(36)}-<time>):`);
  for (const r of writers) out(`  ${r.id}: ${r.creates ?? 'records on the target'}`);
  return 0;
}
