/**
 * Typed access to JSON fields, and checks of them: `field('scope_id', isNonEmptyString)` judges a response's body,
 * `valueField('refresh_token', absent)` a value a step returned, `fields('given', { 'user.phone': equals(p) })` several
 * fields at once in one finding. Spec files use these instead of casting parsed JSON and comparing by hand.
 * A path is dotted (`new_message.msgid`), with numeric parts for array items (`messages.0.text`).
 */
import type { Check, Judge } from '../model/check.js';
import type { HttpResponse } from '../model/http.js';
import { fail, observed, pass } from '../model/outcome.js';
import { parseJson } from './json.js';

/** What a field must be: `expected` completes "expected <path> to be …". */
export interface Expectation {
  readonly expected: string;
  test(value: unknown): boolean;
}

export type Path = string | readonly (string | number)[];

const partsOf = (path: Path): readonly (string | number)[] => (typeof path === 'string' ? path.split('.') : path);
const nameOf = (path: Path): string => partsOf(path).join('.');

/** The value at `path` in a parsed JSON value, or undefined when any step of the way is missing. */
export function valueAt(value: unknown, path: Path): unknown {
  let at = value;
  for (const part of partsOf(path)) {
    if (at === null || typeof at !== 'object') return undefined;
    at = (at as Record<string | number, unknown>)[part];
  }
  return at;
}

/** The value at `path` in a response's JSON body (undefined when the body is not JSON or has no such field). */
export function jsonAt(res: HttpResponse, path: Path): unknown {
  return valueAt(parseJson(res), path);
}

/** A string at `path`, or undefined. */
export function stringAt(res: HttpResponse, path: Path): string | undefined {
  const v = jsonAt(res, path);
  return typeof v === 'string' ? v : undefined;
}

/** An array at `path`, or undefined. */
export function arrayAt(res: HttpResponse, path: Path): readonly unknown[] | undefined {
  const v = jsonAt(res, path);
  return Array.isArray(v) ? v : undefined;
}

/** A value as a report shows it: short, and a long string (a token, a code) as its first four characters. */
export function shown(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (typeof value === 'string' && value.length > 24) return JSON.stringify(`${value.slice(0, 4)}…`);
  return JSON.stringify(value)?.slice(0, 80) ?? String(value);
}

const expectation = (expected: string, test: (value: unknown) => boolean): Expectation => ({ expected, test });

export const isString = expectation('a string', (v) => typeof v === 'string');
export const isNonEmptyString = expectation('a non-empty string', (v) => typeof v === 'string' && v !== '');
export const isNumber = expectation('a number', (v) => typeof v === 'number' && Number.isFinite(v));
export const isInteger = expectation('an integer', (v) => typeof v === 'number' && Number.isInteger(v));
export const isPositiveInteger = expectation('a positive integer', (v) => typeof v === 'number' && Number.isInteger(v) && v > 0);
export const isBoolean = expectation('a boolean', (v) => typeof v === 'boolean');
export const isObject = expectation('an object', (v) => v !== null && typeof v === 'object' && !Array.isArray(v));
export const isArray = expectation('an array', (v) => Array.isArray(v));
export const isTrue = expectation('true', (v) => v === true);
export const present = expectation('present', (v) => v !== undefined);
export const absent = expectation('absent', (v) => v === undefined);
/** Absent or the empty string (an avatar "empty if not given"). */
export const absentOrEmpty = expectation('absent or empty', (v) => v === undefined || v === '');

/** Equal to `value` (compared as JSON for objects); `what` names it in the report instead of the value itself. */
export function equals(value: unknown, what?: string): Expectation {
  const json = JSON.stringify(value);
  return expectation(what ?? shown(value), (v) => v === value || (typeof v === 'object' && v !== null && JSON.stringify(v) === json));
}

export function differentFrom(value: unknown, what: string): Expectation {
  return expectation(`other than ${what}`, (v) => v !== value);
}

export function oneOf(...values: readonly unknown[]): Expectation {
  return expectation(`one of ${values.map(shown).join(', ')}`, (v) => values.includes(v));
}

export function atMost(n: number): Expectation {
  return expectation(`at most ${n}`, (v) => typeof v === 'number' && v <= n);
}

/** Absent, or as `e` says (an optional field that has a type when given). */
export function optional(e: Expectation): Expectation {
  return expectation(`absent or ${e.expected}`, (v) => v === undefined || e.test(v));
}

/** An array of `length` items. */
export function hasLength(length: number): Expectation {
  return expectation(`${length} item(s)`, (v) => Array.isArray(v) && v.length === length);
}

function judgeField(value: unknown, path: Path, e: Expectation, label: string) {
  const v = valueAt(value, path);
  return e.test(v) ? pass(label, `${nameOf(path)} ${shown(v)}`) : fail(label, `expected ${nameOf(path)} to be ${e.expected}, observed ${shown(v)}`);
}

/** One field of a response's JSON body. */
export function field(path: Path, e: Expectation, label = nameOf(path)): Check {
  return (res) => judgeField(parseJson(res), path, e, label);
}

/** The same, by the name the issue uses for it. */
export const jsonField = field;

/** One field of a value a step returned (a created token, a history item). */
export function valueField<S = unknown>(path: Path, e: Expectation, label = nameOf(path)): Judge<S> {
  return (value) => judgeField(value, path, e, label);
}

/** The value itself (a flag or a count a step observed). */
export function valueIs<S = unknown>(e: Expectation, label: string, what: string): Judge<S> {
  return (value) => e.test(value) ? pass(label, `${what}: ${shown(value)}`) : fail(label, `expected ${what} to be ${e.expected}, observed ${shown(value)}`);
}

function judgeFields(value: unknown, label: string, expectations: Readonly<Record<string, Expectation>>) {
  const problems = Object.entries(expectations).flatMap(([path, e]) => {
    const v = valueAt(value, path);
    return e.test(v) ? [] : [`${path} ${shown(v)} is not ${e.expected}`];
  });
  return problems.length === 0
    ? pass(label, `${Object.keys(expectations).join(', ')} as expected`)
    : fail(label, `expected ${Object.entries(expectations).map(([p, e]) => `${p} ${e.expected}`).join(', ')}; observed ${problems.join('; ')}`);
}

/** All of these fields of a response's JSON body, judged as one finding. */
export function fields(label: string, expectations: Readonly<Record<string, Expectation>>): Check {
  return (res) => judgeFields(parseJson(res), label, expectations);
}

/** All of these fields of a value, judged as one finding. */
export function valueFields<S = unknown>(label: string, expectations: Readonly<Record<string, Expectation>>): Judge<S> {
  return (value) => judgeFields(value, label, expectations);
}

/** The values all differ (two accounts got two scopes, two chats): `what` names them in the report. */
export function distinct<S extends readonly unknown[]>(label: string, what: string): Judge<S> {
  // One value has nothing to differ from: recorded, not passed (a live account may offer a single account).
  return (values) => values.length < 2
    ? observed(label, `${what}: only ${values.length} observed, nothing to compare`)
    : new Set(values).size === values.length
    ? pass(label, `${what} differ`)
    : fail(label, `expected ${what} to differ, observed ${values.map(shown).join(' and ')}`);
}
