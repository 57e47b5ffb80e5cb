/**
 * Report writers (docs/design.md §6). `writeReports` is called once at the end of a run and by the merge command;
 * each file is written by a module of its own. Nothing here prints to the console.
 */
import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Report } from '../model/result.js';
import { writeAllureResults } from './allure.js';
import { writeHtmlReport } from './html.js';
import { writeJsonReport } from './json.js';
import { writeJunitReport } from './junit.js';
import { writeSummary } from './summary.js';

export interface WriteReportsOptions {
  readonly outDir: string;
}

/** Absolute paths of what was written. */
export interface WrittenReports {
  readonly json: string;
  readonly html: string;
  readonly junit: string;
  readonly summary: string;
  readonly allureDir: string;
}

export async function writeReports(report: Report, options: WriteReportsOptions): Promise<WrittenReports> {
  const outDir = resolve(options.outDir);
  await mkdir(outDir, { recursive: true });
  const written: WrittenReports = {
    json: join(outDir, 'report.json'),
    html: join(outDir, 'report.html'),
    junit: join(outDir, 'junit.xml'),
    summary: join(outDir, 'summary.md'),
    allureDir: join(outDir, 'allure-results'),
  };
  await Promise.all([
    writeJsonReport(report, written.json),
    writeHtmlReport(report, written.html),
    writeJunitReport(report, written.junit),
    writeSummary(report, written.summary),
    writeAllureResults(report, written.allureDir),
  ]);
  return written;
}
