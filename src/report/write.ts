/**
 * Report writers (docs/design.md §6). `writeReports` is called once at the end of a run and by the merge command;
 * each file is written by a module of its own. Nothing here prints to the console.
 */
import { mkdir } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { Report } from '../model/result.js';
import { writeAllureResults } from './allure.js';
import { writeHtmlReport } from './html.js';
import { writeJsonReport } from './json.js';
import { writeJunitReport } from './junit.js';
import { writeSummary } from './summary.js';

/** Where a report goes instead of its place in outDir (--junit, --json, --html, --summary), absolute. */
export interface ReportPaths {
  readonly junit?: string;
  readonly json?: string;
  readonly html?: string;
  readonly summary?: string;
}

export interface WriteReportsOptions {
  readonly outDir: string;
  readonly paths?: ReportPaths;
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
  const paths = options.paths ?? {};
  const written: WrittenReports = {
    json: resolve(paths.json ?? join(outDir, 'report.json')),
    html: resolve(paths.html ?? join(outDir, 'report.html')),
    junit: resolve(paths.junit ?? join(outDir, 'junit.xml')),
    summary: resolve(paths.summary ?? join(outDir, 'summary.md')),
    allureDir: join(outDir, 'allure-results'),
  };
  await Promise.all([outDir, ...[written.json, written.html, written.junit, written.summary].map((p) => dirname(p))]
    .filter((dir, i, all) => all.indexOf(dir) === i).map((dir) => mkdir(dir, { recursive: true })));
  await Promise.all([
    writeJsonReport(report, written.json),
    writeHtmlReport(report, written.html),
    writeJunitReport(report, written.junit),
    writeSummary(report, written.summary),
    writeAllureResults(report, written.allureDir),
  ]);
  return written;
}
