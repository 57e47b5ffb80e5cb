/**
 * `conformance merge <report.json>…`: joins shard reports (same seed) into one report with all outputs.
 */
import { resolve } from 'node:path';
import { readReport } from '../../report/json.js';
import { mergeReports } from '../../report/merge.js';
import { writeReports } from '../../report/write.js';
import { defineCommand } from '../command.js';
import { ConfigError, UsageError } from '../../errors.js';
import { exitCode } from '../exit-code.js';
import { withRunStatements } from '../run-statements.js';

interface MergeFlags {
  readonly out?: string;
  readonly strict?: boolean;
  readonly allowUnjudged?: boolean;
}

export const mergeCommand = defineCommand<MergeFlags>({
  name: 'merge <reports...>',
  summary: 'join the reports of a sharded run',
  description: 'Joins the report.json files of the shards of one run (same seed, every rule in exactly one shard) '
    + 'into one report and writes every output into --out, its statement table recomputed from the merged results. '
    + 'Refuses (exit 2) reports that are not the shards of one run: another seed, kit, target or account, profile, '
    + 'case count, selection or configuration, a shard given twice, or a rule run in two. Exits as run would on the '
    + 'merged report.',
  arguments: { reports: 'the report.json of each shard' },
  examples: [['conformance merge shard1/report.json shard2/report.json --out merged', 'one report of two shards']],
  flags: (command) => command
    .option('--out <dir>', 'where the merged reports go (default: reports)')
    .option('--strict', 'a failed `should` rule also fails (exit 1)')
    .option('--allow-unjudged', 'errored rules, and rules skipped behind a refused step, do not make the exit code 4'),
  action: async (flags, paths) => {
    const reports = await Promise.all(paths.map(async (path) => {
      try {
        return await readReport(path);
      } catch (err) {
        throw new ConfigError(path, `cannot be merged: ${(err as Error).message}`);
      }
    }));
    let merged;
    try {
      // The statement table of the whole run, from the merged results: a shard's own judges only what it ran.
      merged = withRunStatements(mergeReports(reports));
    } catch (err) {
      throw new UsageError((err as Error).message);
    }
    const written = await writeReports(merged, { outDir: resolve(flags.out ?? 'reports') });
    const s = merged.summary;
    process.stdout.write(`merged ${reports.length} reports: passed ${s.passed}, failed ${s.failed}, non_strict ${s.non_strict}, informational ${s.informational}, skipped ${s.skipped}, errored ${s.errored}\nreports: ${written.html}\n`);
    return exitCode(merged, { strict: flags.strict ?? false, allowUnjudged: flags.allowUnjudged ?? false });
  },
});
