/**
 * report.json: the Report as given (docs/design.md §6), pretty-printed; and reading one back with minimal validation.
 */
import { readFile, writeFile } from 'node:fs/promises';
import type { Report } from '../model/result.js';
import { VERDICTS } from '../model/outcome.js';

export function renderJson(report: Report): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}

export async function writeJsonReport(report: Report, path: string): Promise<void> {
  await writeFile(path, renderJson(report), 'utf8');
}

/** Reads and checks the shape of a report.json. Throws an Error naming the file on any bad input. */
export async function readReport(path: string): Promise<Report> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    throw new Error(`cannot read report ${path}: ${(e as Error).message}`, { cause: e });
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    throw new Error(`report ${path} is not valid JSON: ${(e as Error).message}`, { cause: e });
  }
  const problem = shapeProblem(data);
  if (problem) throw new Error(`report ${path} is not a conformance report: ${problem}`);
  return data as Report;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Returns what is wrong with a parsed report, or undefined when its shape is acceptable. */
export function shapeProblem(data: unknown): string | undefined {
  if (!isObject(data)) return 'top level is not an object';
  const suite = data['suite'];
  if (!isObject(suite) || typeof suite['name'] !== 'string') return '"suite.name" is missing or not a string';
  const target = data['target'];
  if (!isObject(target) || typeof target['kind'] !== 'string') return '"target.kind" is missing or not a string';
  if (typeof data['seed'] !== 'number') return '"seed" is missing or not a number';
  for (const key of ['started_at', 'finished_at'] as const) {
    if (typeof data[key] !== 'string') return `"${key}" is missing or not a string`;
  }
  const summary = data['summary'];
  if (!isObject(summary)) return '"summary" is missing or not an object';
  const results = data['results'];
  if (!Array.isArray(results)) return '"results" is missing or not an array';
  for (let i = 0; i < results.length; i++) {
    const r: unknown = results[i];
    if (!isObject(r)) return `results[${i}] is not an object`;
    for (const key of ['id', 'section', 'level', 'status', 'title'] as const) {
      if (typeof r[key] !== 'string') return `results[${i}].${key} is missing or not a string`;
    }
    if (!(VERDICTS as readonly string[]).includes(r['status'] as string)) {
      return `results[${i}].status "${String(r['status'])}" is not one of ${VERDICTS.join(', ')}`;
    }
  }
  return undefined;
}
