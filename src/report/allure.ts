/**
 * Allure results (allure-results/): one test result per rule, written with allure-js-commons' ReporterRuntime and
 * FileSystemWriter. Verdicts map to Allure statuses; non_strict and informational are "passed" with a `verdict`
 * label and parameter that keep the real verdict.
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import pLimit from 'p-limit';
import { ContentType, LabelName, Severity, Stage, Status, type Label, type Parameter } from 'allure-js-commons';
import { InMemoryWriter, ReporterRuntime, md5, stringifyEnvInfo } from 'allure-js-commons/sdk/reporter';
import type { Report, RuleResult } from '../model/result.js';
import type { Verdict } from '../model/outcome.js';
import type { Level } from '../model/rule.js';
import { safeJson } from './sections.js';

export const ALLURE_STATUS: Record<Verdict, Status> = {
  passed: Status.PASSED,
  failed: Status.FAILED,
  errored: Status.BROKEN,
  skipped: Status.SKIPPED,
  non_strict: Status.PASSED,
  informational: Status.PASSED,
};

export const ALLURE_SEVERITY: Record<Level, Severity> = {
  must: Severity.CRITICAL,
  should: Severity.NORMAL,
  info: Severity.MINOR,
};

/**
 * Writes one Allure result per rule into `dir`. The directory is emptied first, so that a re-run into the same
 * output folder does not leave stale results behind. The results are built in memory and written together, without
 * the library's FileSystemWriter: it writes each of the ~800 files synchronously through a temporary file and an
 * fsync, a third of a second of the runner's one thread at the end of every run, for a folder written once.
 */
export async function writeAllureResults(report: Report, dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
  const writer = new InMemoryWriter();
  const runtime = new ReporterRuntime({
    writer,
    environmentInfo: {
      suite: report.suite?.name,
      version: report.suite?.version,
      target: report.target?.kind,
      base_url: report.target?.base_url,
      chat_url: report.target?.chat_url,
      seed: String(report.seed),
    },
    categories: [
      { name: 'Spec violations (failed)', matchedStatuses: [Status.FAILED] },
      { name: 'Could not reach a verdict (errored)', matchedStatuses: [Status.BROKEN] },
    ],
  });
  const runStart = Date.parse(report.started_at);
  let clock = Number.isFinite(runStart) ? runStart : Date.now();

  for (const r of report.results ?? []) {
    const firstExchange = r.exchanges?.[0] ? Date.parse(r.exchanges[0].started_at) : Number.NaN;
    const start = Number.isFinite(firstExchange) ? firstExchange : clock;
    const duration = typeof r.duration_ms === 'number' && r.duration_ms > 0 ? r.duration_ms : 0;
    clock = start + duration;
    const uuid = runtime.startTest({
      name: r.title,
      fullName: r.id,
      historyId: md5(r.id),
      testCaseId: md5(r.id),
      titlePath: [`§${r.section}`],
      status: ALLURE_STATUS[r.status] ?? Status.BROKEN,
      statusDetails: { message: String(r.detail ?? '') },
      stage: Stage.FINISHED,
      description: description(r),
      labels: labels(r),
      parameters: parameters(r),
      start,
    });
    if (r.exchanges && r.exchanges.length > 0) {
      runtime.writeAttachment(uuid, null, 'exchanges', Buffer.from(safeJson(r.exchanges), 'utf8'), {
        contentType: ContentType.JSON,
        fileExtension: '.json',
      });
    }
    if (r.property?.counterexample !== undefined) {
      runtime.writeAttachment(uuid, null, 'counterexample', Buffer.from(safeJson(r.property.counterexample), 'utf8'), {
        contentType: ContentType.JSON,
        fileExtension: '.json',
      });
    }
    runtime.stopTest(uuid, { stop: start + duration });
    runtime.writeTest(uuid);
  }
  runtime.writeEnvironmentInfo();
  runtime.writeCategoriesDefinitions();
  await mkdir(dir, { recursive: true });
  // A few dozen open at a time: one per rule and more would reach the open-file limit of some systems (256 on macOS).
  const open = pLimit(OPEN_FILES);
  await Promise.all([...allureFiles(writer)].map(([name, data]) => open(() => writeFile(join(dir, name), data))));
}

const OPEN_FILES = 32;

/** The files FileSystemWriter would have written, by name. */
function* allureFiles(writer: InMemoryWriter): Generator<[string, string | Buffer]> {
  for (const test of writer.tests) yield [`${test.uuid}-result.json`, JSON.stringify(test)];
  for (const group of writer.groups) yield [`${group.uuid}-container.json`, JSON.stringify(group)];
  for (const [name, content] of Object.entries(writer.attachments)) yield [name, content];
  if (writer.categories) yield ['categories.json', JSON.stringify(writer.categories)];
  if (writer.envInfo) yield ['environment.properties', stringifyEnvInfo(writer.envInfo)];
  for (const [name, info] of Object.entries(writer.globals ?? {})) yield [name, JSON.stringify(info)];
}

function labels(r: RuleResult): Label[] {
  const list: Label[] = [
    { name: LabelName.EPIC, value: 'Conformance' },
    { name: LabelName.FEATURE, value: `§${r.section}` },
    { name: LabelName.SUITE, value: `§${r.section}` },
    { name: LabelName.SEVERITY, value: ALLURE_SEVERITY[r.level] ?? Severity.NORMAL },
    { name: LabelName.TAG, value: r.level },
    { name: 'verdict', value: r.status },
  ];
  for (const cap of r.requires ?? []) list.push({ name: LabelName.TAG, value: `requires:${cap}` });
  if (r.flaky) list.push({ name: LabelName.TAG, value: 'flaky' });
  return list;
}

function parameters(r: RuleResult): Parameter[] {
  const list: Parameter[] = [];
  // Excluded from the history id: the verdict changing does not make it another test.
  if (r.status === 'non_strict' || r.status === 'informational') list.push({ name: 'verdict', value: r.status, excluded: true });
  if (r.property) {
    list.push({ name: 'seed', value: String(r.property.seed), excluded: true });
    list.push({ name: 'runs', value: String(r.property.runs), excluded: true });
  }
  return list;
}

function description(r: RuleResult): string {
  const lines: string[] = [`**${r.status}** (${r.level}, §${r.section}): ${r.detail ?? ''}`];
  if (r.reading) lines.push('', `Reading taken: ${r.reading}`);
  if (r.findings?.length) {
    lines.push('', 'Findings:');
    for (const f of r.findings) lines.push(`- ${f.verdict} \`${f.check}\`: ${f.detail}`);
  }
  if (r.reproduction) lines.push('', 'Reproduction:', '```sh', r.reproduction, '```');
  if (r.property?.replay) lines.push('', 'Property replay:', '```sh', r.property.replay, '```');
  return lines.join('\n');
}
