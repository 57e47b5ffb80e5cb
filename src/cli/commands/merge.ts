/**
 * `conformance merge <report.json>…`: joins shard reports (same seed) into one report with all outputs.
 * `conformance verify-certificate <certificate.json> [--report report.json]`: detects any edit.
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { mergeReports, readReport, writeReports } from '../../report/index.js';
import { verifyCertificate, type Certificate } from '../../runner/certificate.js';
import { parseFlags } from '../args.js';
import { ConfigError, UsageError } from '../../errors.js';
import { exitCode } from './run.js';

export async function mergeCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseFlags(args, { out: { type: 'string' }, strict: { type: 'boolean' } }, 'merge');
  if (positionals.length === 0) throw new UsageError('conformance merge: name the shard reports to merge (report.json files)');
  const reports = await Promise.all(positionals.map(async (path) => {
    try {
      return await readReport(path);
    } catch (err) {
      throw new ConfigError(path, `cannot be merged: ${(err as Error).message}`);
    }
  }));
  let merged;
  try {
    merged = mergeReports(reports);
  } catch (err) {
    throw new UsageError(`conformance merge: ${(err as Error).message}`);
  }
  const written = await writeReports(merged, { outDir: resolve(values.out ?? 'reports') });
  const s = merged.summary;
  process.stdout.write(`merged ${reports.length} reports: passed ${s.passed}, failed ${s.failed}, non_strict ${s.non_strict}, informational ${s.informational}, skipped ${s.skipped}, errored ${s.errored}\nreports: ${written.html}\n`);
  return exitCode(merged, { strict: values.strict ?? false });
}

export async function verifyCertificateCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseFlags(args, { report: { type: 'string' } }, 'verify-certificate');
  const [path] = positionals;
  if (!path || positionals.length > 1) throw new UsageError('conformance verify-certificate: name one certificate.json');
  let certificate: Certificate;
  try {
    certificate = JSON.parse(await readFile(path, 'utf8')) as Certificate;
  } catch (err) {
    throw new ConfigError(path, `is not a readable certificate: ${(err as Error).message}`);
  }
  const report = values.report ? await readReport(values.report) : undefined;
  const result = verifyCertificate(certificate, report);
  for (const note of result.notes) process.stderr.write(`note: ${note}\n`);
  if (!result.ok) {
    for (const problem of result.problems) process.stderr.write(`invalid: ${problem}\n`);
    return 1;
  }
  process.stdout.write(`valid: ${certificate.suite.name} ${certificate.suite.version}, ${certificate.target.kind} ${certificate.target.base_url}, seed ${certificate.seed}, issued ${certificate.issued_at}${report ? ', matches the report' : ''}\n`);
  return 0;
}
