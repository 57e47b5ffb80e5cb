/**
 * report.json: the Report as given (docs/design.md §6), pretty-printed, with the version of its form; and reading one
 * back, checked against the JSON Schema the package ships (schemas/report.schema.json), so that a report the kit reads
 * (--baseline, merge) is held to the form a CI's parser is promised.
 */
import { readFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import type { Report } from '../model/result.js';
import { kitPath } from '../paths.js';

/**
 * The version of report.json's form. The major part changes when a consumer of an earlier form would misread this one
 * (a field changes meaning or goes); the minor part when fields are added (1.1: target.accounts, target.base_url_2).
 */
export const REPORT_FORMAT_VERSION = '1.1';

/** The JSON Schema of report.json, shipped in the package. */
export const REPORT_SCHEMA_PATH = kitPath('schemas', 'report.schema.json');

let validator: ValidateFunction | undefined;

/** The compiled schema (once per process). */
function validate(): ValidateFunction {
  validator ??= new Ajv({ allErrors: false, strict: true }).compile(JSON.parse(readFileSync(REPORT_SCHEMA_PATH, 'utf8')) as object);
  return validator;
}

/** The report as written: its form's version first, whatever version the report was read with. */
export function renderJson(report: Report): string {
  const { format_version: _read, ...rest } = report;
  return `${JSON.stringify({ format_version: REPORT_FORMAT_VERSION, ...rest }, null, 2)}\n`;
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

/** Returns what is wrong with a parsed report by the shipped schema (the first problem), or undefined when it holds. */
export function shapeProblem(data: unknown): string | undefined {
  const check = validate();
  if (check(data)) return undefined;
  return describe(check.errors?.[0], data);
}

/** `/results/0/status` → `results[0].status`. */
function where(pointer: string): string {
  return pointer.split('/').slice(1).map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((path, p) => (/^\d+$/.test(p) ? `${path}[${p}]` : path ? `${path}.${p}` : p), '');
}

function valueAt(data: unknown, pointer: string): unknown {
  return pointer.split('/').slice(1).reduce<unknown>((v, p) => (v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[p] : undefined), data);
}

/** One line a person reads: the place, then what is wrong there. */
function describe(error: ErrorObject | undefined, data: unknown): string {
  if (!error) return 'it does not match the report schema';
  const at = where(error.instancePath);
  switch (error.keyword) {
    case 'required': {
      const missing = String((error.params as { missingProperty: string }).missingProperty);
      return `${at ? `${at}.${missing}` : missing} is missing`;
    }
    case 'enum':
      return `${at} "${String(valueAt(data, error.instancePath))}" is not one of ${(error.params as { allowedValues: unknown[] }).allowedValues.join(', ')}`;
    case 'type':
      return at ? `${at} must be of type ${String((error.params as { type: string }).type)}` : `top level is not an ${String((error.params as { type: string }).type)}`;
    default:
      return `${at} ${error.message ?? 'does not match the report schema'}`;
  }
}
